// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { probeRoutes } from './create-routes.js';
export { probeListRoutes } from './list-routes.js';
export { labelRoutes } from './label-routes.js';
export { receiveRoutes } from './receive-routes.js';
export { createProbe } from './create-service.js';
export { labelPdf, labelsPdf, labelsZpl, labelZpl } from './label-service.js';
export type { LabelContent, LabelFacts } from './label-service.js';
export { readCodeFacts } from './probe-number.js';
export { loadProbe, loadProbes, loadReferenceRanges, userNameSql } from './queries.js';
