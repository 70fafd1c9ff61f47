import { useEffect } from 'react';
import type { PatientCreated } from '@portal/shared';
import { useCredentialsSheet } from '../../components/credentials-modal';

/**
 * "Drukuj" after a registration: the wizard hands the new patient's login details to the patients
 * list, which shows them in the credentials sheet; closing the sheet leaves the user on the list
 * (docs/product-rules.md "Patient wizard", registration). Kept in memory only, taken once.
 */
let pending: PatientCreated['patient'] | null = null;

export function handOverCredentials(patient: PatientCreated['patient']) {
  pending = patient;
}

function takeCredentials(): PatientCreated['patient'] | null {
  const taken = pending;
  pending = null;
  return taken;
}

/** The credentials sheet of a patient registered just now, opened once on arrival. */
export function useRegistrationCredentials() {
  const sheet = useCredentialsSheet();
  const { open } = sheet;
  useEffect(() => {
    const patient = takeCredentials();
    if (!patient) return;
    open({
      details: { login: patient.login, password: patient.password, login_url: patient.login_url },
      kind: 'patient',
      name: `${patient.firstname} ${patient.surname}`,
    });
  }, [open]);
  return sheet.modal;
}
