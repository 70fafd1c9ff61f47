// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { patientRoutes } from './routes.js';
export { createPatient, printPatientPassword } from './commands.js';
export type { CreateInput } from './references.js';
export { patientSearch, searchKeyOf } from './search.js';
export { exclusionColumns, personalColumns } from './sections.js';
