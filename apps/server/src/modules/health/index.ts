// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { healthRoutes } from './routes.js';
export { metricsRoutes } from './metrics-routes.js';
