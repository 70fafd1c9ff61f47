// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { credentialsRoutes } from './routes.js';
export { loginAddress } from './address.js';
export { accountRoutes } from './account-routes.js';
export type { AccountService, AccountKind } from './account-routes.js';
