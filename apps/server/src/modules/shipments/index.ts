// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { shipmentRoutes } from './routes.js';
export { FakeTrackingProvider } from './fake-provider.js';
export { trackingProviderFor } from './job.js';
export { shipmentOf } from './kit-shipment.js';
