// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { probeRoutes } from './create-routes.js';
export { probeListRoutes } from './list-routes.js';
export { probeResultsRoutes } from './results-routes.js';
export { labelRoutes } from './label-routes.js';
export { receiveRoutes } from './receive-routes.js';
export { alertRoutes } from './alerts-routes.js';
export { createProbe } from './create-service.js';
export { labelPdf, labelsPdf, labelsZpl, labelZpl } from './label-service.js';
export type { LabelContent, LabelFacts } from './label-service.js';
export { readCodeFacts } from './probe-number.js';
export { loadProbe, loadProbes, userNameSql } from './queries.js';
export { saveProbeResults } from './results-service.js';
export { evaluateProbeAlerts, evaluateProbesAlerts, evaluateVisitAlerts } from './safety.js';
