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
