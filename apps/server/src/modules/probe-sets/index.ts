// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { probeSetRoutes } from './routes.js';
export { probeSetLabelRoutes } from './label-routes.js';
export { createProbeSet } from './create-service.js';
export { loadProbeSets } from './queries.js';
export { decideProbeSet, saveTracking } from './service.js';
