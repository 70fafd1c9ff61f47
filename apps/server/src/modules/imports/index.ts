// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { importRoutes } from './routes.js';
export { columnNames } from './columns.js';
export { runImport } from './service.js';
export { buildTemplate, examplePatients } from './templates.js';
