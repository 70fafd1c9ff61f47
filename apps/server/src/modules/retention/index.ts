/**
 * Retention (ADR 059): anonymising patients whose participation ended longer ago than the
 * `retention` setting says, by a background job after a dry run (`/api/retention/*`).
 */
export { retentionRoutes } from './routes.js';
export { anonymisePatient } from './service.js';
