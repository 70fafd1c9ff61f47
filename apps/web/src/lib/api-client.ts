import { currentLanguage } from '../i18n/i18n';
import { createApiClient } from './api';
import { sessionStore } from './session';

/**
 * The app's API client. When the server ends the session the store is cleared, and the route
 * guards send the user to /login.
 */
export const api = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  session: sessionStore,
  getLanguage: currentLanguage,
  // Every tab shares the refresh cookie: one refresh at a time across the browser's tabs.
  refreshLock: (work) =>
    'locks' in navigator ? navigator.locks.request('portal.refresh', work) : work(),
});
