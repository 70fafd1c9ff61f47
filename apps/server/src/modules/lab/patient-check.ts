import { eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patients, probes } from '../../db/schema.js';

/**
 * The patient check of a result (issue 12 §3, ADR 032), shared by the HL7 connector and the
 * data import: a result whose sent sex or birth date disagrees with the sample's patient is not
 * attached but waits among the unmatched results with the reason. What was not sent is not
 * compared.
 */

export type PatientSex = 'M' | 'K';
export type PatientMismatch = 'sex_mismatch' | 'birth_date_mismatch';

export interface SentPatient {
  sex: PatientSex | null;
  /** YYYY-MM-DD. */
  birthDate: string | null;
}

/** The first disagreement between what the laboratory sent and the sample's patient, or null. */
export function patientMismatch(
  sent: SentPatient,
  patient: { sex: PatientSex; birth_date: string },
): PatientMismatch | null {
  if (sent.sex !== null && sent.sex !== patient.sex) return 'sex_mismatch';
  if (sent.birthDate !== null && sent.birthDate !== patient.birth_date) {
    return 'birth_date_mismatch';
  }
  return null;
}

/**
 * A sex as written in a file, case-insensitive: M; K, or HL7's F (table 0001); HL7's U and O
 * (unknown, other) and blank are nothing to compare (null), as the connector treats PID-8.
 * Anything else is no sex (undefined).
 */
export function sexFromText(text: string | null): PatientSex | null | undefined {
  const value = (text ?? '').trim().toUpperCase();
  if (value === 'M') return 'M';
  if (value === 'K' || value === 'F') return 'K';
  if (value === '' || value === 'U' || value === 'O') return null;
  return undefined;
}

/** A sample with what the check compares of its patient. */
export interface SampleOfPatient {
  id: number;
  code: string;
  sex: PatientSex;
  birth_date: string;
}

/** Codes per lookup: far under PostgreSQL's 65,535 bind parameters. */
const CODE_CHUNK = 5_000;

/**
 * The samples named by `codes`, by code, with their patients' sex and birth date: what the
 * connector and the results import look up before the check.
 */
export async function samplesByCode(
  db: Queryable,
  codes: readonly string[],
): Promise<Map<string, SampleOfPatient>> {
  const byCode = new Map<string, SampleOfPatient>();
  for (let i = 0; i < codes.length; i += CODE_CHUNK) {
    const found = await db
      .select({
        id: probes.id,
        code: probes.code,
        sex: patients.sex,
        birth_date: patients.birth_date,
      })
      .from(probes)
      .innerJoin(patients, eq(patients.id, probes.patient_id))
      .where(inArray(probes.code, codes.slice(i, i + CODE_CHUNK)));
    for (const row of found) byCode.set(row.code, row);
  }
  return byCode;
}
