/**
 * Safety alerts (ADR 030, ADR 046): the rules (Hy's law, QTcF) run inside the transaction that
 * stores a sample's results (modules/results) or a visit's ECG (modules/visits), and the alerts'
 * list and acknowledgement (`/api/alerts`).
 */
export { alertRoutes } from './alerts-routes.js';
export { evaluateProbeAlerts, evaluateProbesAlerts, evaluateVisitAlerts } from './safety.js';
