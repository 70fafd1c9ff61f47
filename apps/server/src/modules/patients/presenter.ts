import type { MonitoringFacts, PatientDetail, PatientListItem } from '@portal/shared';
import type { PatientRow } from '../../policies/patients.js';
import type { VisitDates } from './visit-dates.js';

/** What the card needs beside the patients row, loaded by queries.ts. */
export interface PatientRelations extends VisitDates {
  login: string;
  doctor: PatientDetail['doctor'];
  unit: PatientDetail['unit'];
  inclusion: PatientDetail['inclusion'];
  medicines: PatientDetail['medicines'];
  additional_medicines: PatientDetail['additional_medicines'];
  /** The actor's abilities on the patient (policies/patients.ts patientAbilities). */
  abilities: PatientDetail['abilities'];
  /** How many samples the patient has (counted on the (patient_id, probe_number) index). */
  probes_count: number;
  /** Verification and unresolved queries (ADR 051); absent where the answer leaves them out. */
  facts?: MonitoringFacts;
}

/** The patient card: every field named, so that a new column is never sent out by accident. */
export function presentPatientDetail(row: PatientRow, related: PatientRelations): PatientDetail {
  return {
    id: row.id,
    user_id: row.user_id,
    login: related.login,
    firstname: row.firstname,
    surname: row.surname,
    pesel: row.pesel,
    sex: row.sex,
    birth_date: row.birth_date,
    address_street: row.address_street,
    address_building: row.address_building,
    address_apartment: row.address_apartment,
    address_postcode: row.address_postcode,
    address_city: row.address_city,
    phone_number: row.phone_number,
    email: row.email,
    weight: row.weight,
    height: row.height,
    project_number: row.project_number,
    is_above_18: row.is_above_18,
    is_classified: row.is_classified,
    is_finished: row.is_finished ? 1 : 0,
    acceptance: row.acceptance,
    exclusion_criteria_id: row.exclusion_criteria_id,
    doctor_id: row.doctor_id,
    unit_id: row.unit_id,
    doctor: related.doctor,
    unit: related.unit,
    inclusion: related.inclusion,
    medicines: related.medicines,
    additional_medicines: related.additional_medicines,
    probes_count: related.probes_count,
    past_visit_date: related.past_visit_date,
    next_visit_date: related.next_visit_date,
    created_at: row.created_at.toISOString(),
    deleted_at: row.deleted_at?.toISOString() ?? null,
    version: row.version,
    abilities: related.abilities,
    ...related.facts,
  };
}

/** The short form used by headers and pickers. */
export function presentPatientBasic(
  row: Pick<
    PatientRow,
    'id' | 'user_id' | 'firstname' | 'surname' | 'pesel' | 'unit_id' | 'deleted_at'
  >,
  login: string,
) {
  return {
    id: row.id,
    user_id: row.user_id,
    login,
    firstname: row.firstname,
    surname: row.surname,
    pesel: row.pesel,
    unit_id: row.unit_id,
    deleted_at: row.deleted_at?.toISOString() ?? null,
  };
}

export interface PatientListRelations extends VisitDates {
  doctor: PatientListItem['doctor'];
  group: { id: number | null; nr: number | null; name: string | null } | null;
  subgroup: { id: number | null; name: string | null } | null;
  medicines: PatientListItem['medicines'];
  abilities: PatientListItem['abilities'];
}

/** What a row of the patients list shows of the patient itself. */
export type ListedPatient = Pick<
  PatientRow,
  | 'id'
  | 'firstname'
  | 'surname'
  | 'pesel'
  | 'phone_number'
  | 'email'
  | 'address_street'
  | 'address_building'
  | 'address_apartment'
  | 'address_postcode'
  | 'address_city'
  | 'unit_id'
  | 'is_finished'
  | 'deleted_at'
>;

/** One row of the patients list. */
export function presentPatientListItem(
  p: ListedPatient,
  {
    doctor,
    group,
    subgroup,
    medicines,
    past_visit_date,
    next_visit_date,
    abilities,
  }: PatientListRelations,
): PatientListItem {
  return {
    id: p.id,
    firstname: p.firstname,
    surname: p.surname,
    pesel: p.pesel,
    phone_number: p.phone_number,
    email: p.email,
    address_street: p.address_street,
    address_building: p.address_building,
    address_apartment: p.address_apartment,
    address_postcode: p.address_postcode,
    address_city: p.address_city,
    // A left join yields an object of nulls when the patient has no inclusion yet.
    group:
      group?.id && group.nr !== null && group.name !== null
        ? { id: group.id, nr: group.nr, name: group.name }
        : null,
    subgroup:
      subgroup?.id && subgroup.name !== null ? { id: subgroup.id, name: subgroup.name } : null,
    medicines,
    doctor,
    unit_id: p.unit_id,
    is_finished: p.is_finished ? 1 : 0,
    past_visit_date,
    next_visit_date,
    deleted_at: p.deleted_at?.toISOString() ?? null,
    abilities,
  };
}
