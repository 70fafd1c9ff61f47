/**
 * The study dashboard (ADR 060): `GET /api/dashboard`, figures from counters the database keeps
 * (migration 0033).
 */
export { dashboardRoutes } from './routes.js';
export { countOpenQueries } from './open-queries.js';
