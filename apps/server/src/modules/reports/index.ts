// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { reportRoutes } from './routes.js';
export { loadReportPage, REPORT_HEADERS, reportCell } from './report-service.js';
