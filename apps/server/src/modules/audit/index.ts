// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { auditRoutes } from './routes.js';
export { verifyAuditChain } from './chain.js';
