// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { notificationRoutes } from './routes.js';
export { enqueueNotification } from './events.js';
export type { NotificationEvent } from './events.js';
export { listNotifications } from './service.js';
export { deliverDue } from './outbox.js';
export { sendVisitReminders } from './reminders.js';
