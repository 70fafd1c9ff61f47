import { useEffect } from 'react';
import { useCredentialsSheet } from '../../components/credentials-modal';
import type { RegisteredPatient } from './patients-api';

/**
 * "Drukuj" after a registration: the wizard hands the new patient's login details to the patients
 * list, which shows them in the credentials sheet; closing the sheet leaves the user on the list
 * (spec §4, registration). Kept in memory only, taken once.
 */
let pending: RegisteredPatient | null = null;

export function handOverCredentials(patient: RegisteredPatient) {
  pending = patient;
}

function takeCredentials(): RegisteredPatient | null {
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
