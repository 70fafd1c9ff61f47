import { buildPesel } from '@portal/shared';
import type { PatientCreateBody } from '@portal/shared';
import { CHOSEN_PASSWORD } from './harness.js';
import type { ReadyDoctor, Session, TestApp } from './harness.js';

let serial = 0;

/** A valid, never-repeated PESEL per call within a test file. */
export function freshPesel(sex: 'M' | 'K' = 'M'): string {
  serial += 1;
  return buildPesel({ year: 1975, month: 11, day: 2 }, serial * 10 + 7, sex);
}

/** Registers a minimal patient of the doctor's unit through the real endpoint. */
export async function registerPatient(
  t: TestApp,
  doctor: ReadyDoctor,
  overrides: Partial<PatientCreateBody['personal']> = {},
) {
  const body: PatientCreateBody = {
    personal: {
      firstname: 'Tadeusz',
      surname: 'Mazur',
      pesel: freshPesel(),
      phone_number: '601202303',
      doctor_id: doctor.doctor.id,
      unit_id: doctor.doctor.unit_id,
      acceptance: true,
      ...overrides,
    },
    exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [],
    additional_medicines: [],
  };
  const res = await t.request('POST', '/api/patients', { token: doctor.session.token, body });
  if (res.statusCode !== 200)
    throw new Error(`registration answered ${res.statusCode}: ${res.body}`);
  const patient = res.json<{ patient: { id: number; login: string; password: string } }>().patient;
  const basic = await t.request('GET', `/api/patients/${patient.id}/basic`, {
    token: doctor.session.token,
  });
  return { ...patient, userId: basic.json<{ user_id: number }>().user_id };
}

export interface ReadyPatient {
  id: number;
  userId: number;
  login: string;
  password: string;
  /** Signed in through the patient API's login, with the printed password already replaced. */
  session: Session;
}

/**
 * A patient of the doctor's unit who signed in to the patient API and replaced the printed
 * password, as the patient app does on first use.
 */
export async function readyPatient(
  t: TestApp,
  doctor: ReadyDoctor,
  overrides: Partial<PatientCreateBody['personal']> = {},
): Promise<ReadyPatient> {
  const patient = await registerPatient(t, doctor, overrides);
  const first = await t.login('patient', patient.login, patient.password);
  const session = await t.changePassword(first, patient.password);
  return {
    id: patient.id,
    userId: patient.userId,
    login: patient.login,
    password: CHOSEN_PASSWORD,
    session,
  };
}
