// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { adminRoutes } from './routes.js';
export { createAdmin, ensureInitialAdmin } from './service.js';
