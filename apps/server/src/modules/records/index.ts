// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { recordRoutes } from './routes.js';
export { assertLockable, lockFactsOf, lockRecord, readRecordLock } from './service.js';
