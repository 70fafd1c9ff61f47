import { z } from 'zod';

/**
 * A patient's copy and the pseudonymised exports (ADR 054), the FHIR R4 export (ADR 055).
 */

/** A query flag: `?x`, `?x=true` or `?x=1` set it; `false` and `0` clear it. */
const queryFlag = () =>
  z
    .enum(['', 'true', 'false', '1', '0'], { error: 'invalid' })
    .transform((value) => value === '' || value === 'true' || value === '1');

/**
 * `?pseudonymised=true` on the report and the ODM export: a stable study subject id instead of
 * the patient, the birth year only. Without it the export is identified, which needs
 * `exports.identified`.
 */
export const pseudonymisedQuery = z.object({ pseudonymised: queryFlag().optional() });
export type PseudonymisedQuery = z.infer<typeof pseudonymisedQuery>;

/** The resource types of the FHIR export, in the order the NDJSON stream writes them. */
export const FHIR_RESOURCE_TYPES = [
  'ResearchStudy',
  'ResearchSubject',
  'Patient',
  'Encounter',
  'Observation',
  'Specimen',
  'MedicationStatement',
] as const;
export type FhirResourceType = (typeof FHIR_RESOURCE_TYPES)[number];

/**
 * GET /api/exports/fhir: `type` a comma-separated list (default: every type), `pseudonymised`
 * on unless `pseudonymised=false` (an identified export needs `exports.identified`).
 */
export const fhirExportQuery = z.object({
  type: z
    .string()
    .max(200, { error: 'invalid' })
    .transform((value) => value.split(',').map((part) => part.trim()))
    // Named on `type` itself, not on an item (`type.0`): the query is one field to the client.
    .refine(
      (parts) =>
        parts.length >= 1 &&
        parts.length <= FHIR_RESOURCE_TYPES.length &&
        parts.every((part) => (FHIR_RESOURCE_TYPES as readonly string[]).includes(part)),
      { error: 'invalid' },
    )
    .transform((parts) => parts as FhirResourceType[])
    .optional(),
  pseudonymised: queryFlag().optional(),
});
export type FhirExportQuery = z.infer<typeof fhirExportQuery>;

/** The study subject id of a patient: `S-{unit}-{n}`, n counting the unit's patients (ADR 054). */
export const studySubjectId = (unitId: number, n: number): string => `S-${unitId}-${n}`;

const rows = z.array(z.record(z.string(), z.unknown()));

/**
 * A patient's copy (GDPR art. 15 and 20): everything stored about the patient, one section per
 * kind of record, each record with every stored column (files listed, their content not).
 * `access_log` holds the read log's entries of the patient.
 */
export const patientCopy = z.object({
  format: z.literal('portal-patient-copy/1'),
  generated_at: z.string(),
  patient: z.record(z.string(), z.unknown()),
  account: z.record(z.string(), z.unknown()).nullable(),
  inclusion: z.record(z.string(), z.unknown()).nullable(),
  medicines: rows,
  additional_medicines: rows,
  visits: rows,
  samples: rows,
  safety_alerts: rows,
  kit_orders: rows,
  notes: rows,
  messages: rows,
  files: rows,
  audit: rows,
  access_log: rows,
});
export type PatientCopy = z.infer<typeof patientCopy>;
