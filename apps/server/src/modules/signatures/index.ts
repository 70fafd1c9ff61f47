// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { signatureRoutes } from './routes.js';
export { recordSignature, signaturesOf } from './service.js';
export { canonicalJson, contentHash } from './content.js';
