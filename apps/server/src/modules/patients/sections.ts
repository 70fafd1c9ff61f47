import { parsePesel } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import {
  patientAdditionalMedicines,
  patientInclusions,
  patientMedicines,
} from '../../db/schema.js';
import { invalid } from '../../lib/errors.js';
import type { CreateInput, UpdateInput } from './references.js';

/** The columns of the patients row that the personal step sets; sex and birth date from PESEL. */
export function personalColumns(personal: CreateInput['personal'] | UpdateInput['personal']) {
  const pesel = parsePesel(personal.pesel);
  // The schema already refused an invalid PESEL; this keeps the types honest.
  if (!pesel) throw invalid({ 'personal.pesel': ['invalid_pesel'] });
  return {
    firstname: personal.firstname,
    surname: personal.surname,
    pesel: personal.pesel,
    sex: pesel.sex,
    birth_date: pesel.birthDate,
    address_street: personal.address_street,
    address_building: personal.address_building,
    address_apartment: personal.address_apartment,
    address_postcode: personal.address_postcode,
    address_city: personal.address_city,
    phone_number: personal.phone_number,
    email: personal.email,
    weight: personal.weight,
    height: personal.height,
    project_number: personal.project_number,
    doctor_id: personal.doctor_id,
    unit_id: personal.unit_id,
  };
}

export function exclusionColumns(exclusion: CreateInput['exclusion']) {
  return {
    is_above_18: exclusion.is_above_18,
    exclusion_criteria_id: exclusion.exclusion_criteria_id,
    is_classified: exclusion.is_classified,
  };
}

type ExistingSections = Pick<PatientDetail, 'medicines' | 'additional_medicines'>;

/**
 * Writes inclusion, medicines and other medicines, changing only what differs, so that the audit
 * trail shows what was really edited.
 */
export async function writeSections(
  tx: Transaction,
  patientId: number,
  input: CreateInput | UpdateInput,
  existing: ExistingSections | null,
): Promise<void> {
  const inclusion = {
    group_id: input.inclusion.group_id!,
    subgroup_id: input.inclusion.subgroup_id,
    dose: input.inclusion.dose,
    interval: input.inclusion.interval,
  };
  await tx
    .insert(patientInclusions)
    .values({ patient_id: patientId, ...inclusion })
    .onConflictDoUpdate({ target: patientInclusions.patient_id, set: inclusion });
  await writeMedicines(tx, patientId, input.medicines, existing?.medicines ?? []);
  await writeAdditionalMedicines(
    tx,
    patientId,
    input.additional_medicines,
    existing?.additional_medicines ?? [],
  );
}

async function writeMedicines(
  tx: Transaction,
  patientId: number,
  chosen: CreateInput['medicines'],
  existing: ExistingSections['medicines'],
) {
  const wanted = new Map(chosen.map((m) => [m.medicine_id, m.dose]));
  const current = new Map(existing.map((m) => [m.medicine_id, m.dose]));
  const removed = [...current.keys()].filter((id) => !wanted.has(id));
  const ofPatient = eq(patientMedicines.patient_id, patientId);
  if (removed.length) {
    await tx
      .delete(patientMedicines)
      .where(and(ofPatient, inArray(patientMedicines.medicine_id, removed)));
  }
  for (const [medicineId, dose] of wanted) {
    if (!current.has(medicineId)) {
      await tx
        .insert(patientMedicines)
        .values({ patient_id: patientId, medicine_id: medicineId, dose });
    } else if (current.get(medicineId) !== dose) {
      await tx
        .update(patientMedicines)
        .set({ dose })
        .where(and(ofPatient, eq(patientMedicines.medicine_id, medicineId)));
    }
  }
}

async function writeAdditionalMedicines(
  tx: Transaction,
  patientId: number,
  chosen: CreateInput['additional_medicines'],
  existing: ExistingSections['additional_medicines'],
) {
  const leftover = [...existing];
  for (const item of chosen) {
    const same = leftover.findIndex((o) => o.name === item.name && o.dose === item.dose);
    if (same >= 0) leftover.splice(same, 1);
    else await tx.insert(patientAdditionalMedicines).values({ patient_id: patientId, ...item });
  }
  if (leftover.length) {
    await tx.delete(patientAdditionalMedicines).where(
      inArray(
        patientAdditionalMedicines.id,
        leftover.map((o) => o.id),
      ),
    );
  }
}
