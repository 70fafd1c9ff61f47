// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { bookingRoutes } from './booking-routes.js';
export { patientVisitRoutes } from './patient-visits-routes.js';
export { visitRecordRoutes } from './record-routes.js';
export { overdueRoutes } from './overdue-routes.js';
export { countOverdue } from './overdue.js';
export { loadVisits } from './queries.js';
export { visitSettings } from './slots-service.js';
