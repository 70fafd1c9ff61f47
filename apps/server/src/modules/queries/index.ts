// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { queryRoutes } from './routes.js';
// The dashboard counts unresolved queries per unit with this.
export { countOpenQueriesByUnit, monitoringFactsOf } from './service.js';
// The demo raises and answers queries and marks records verified through these.
export { addMessage, openQuery, verify } from './service.js';
