/** Where the browser tests run the portal, and its first administrator. */
export const PORT = Number(process.env.E2E_PORT ?? 3199);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const ADMIN_LOGIN = 'koordynator';
export const ADMIN_PASSWORD = 'Koordynator-2026';
