// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { hl7Routes } from './hl7-routes.js';
export { unmatchedRoutes } from './unmatched-routes.js';
export { buildFakeOru, normalPanel } from './fake-lab.js';
export type { FakeObservation, FakeSample } from './fake-lab.js';
export { medicineIdsByCode } from './hl7-parse.js';
export { loadMedicineCodes, receiveHl7 } from './hl7-service.js';
export { patientMismatch, samplesByCode, sexFromText } from './patient-check.js';
export type { PatientMismatch, SampleOfPatient, SentPatient } from './patient-check.js';
