// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { noteRoutes } from './routes.js';
export { createNote } from './service.js';
