/**
 * A sample's results have one writer (ADR 046): hand entry (`PUT /api/probes/{id}/results`), the
 * laboratory's HL7 messages and a matched unmatched result (modules/lab), a results import and
 * its flush and restore (modules/imports) all store values through this module, which runs the
 * safety rules (modules/safety-alerts) in the same transaction.
 */
export { probeResultsRoutes } from './routes.js';
export { saveProbeResults } from './hand-entry.js';
export {
  BIOCHEMISTRY_ANALYTES,
  applyLabResults,
  applyLabResultsMany,
  medicineIdOf,
} from './apply.js';
export type {
  BiochemistryAnalyte,
  IncomingComments,
  LabAnalyte,
  LabResult,
  SampleResults,
} from './apply.js';
export { IMPORT_STATE_COLUMNS, putBackResults } from './put-back.js';
