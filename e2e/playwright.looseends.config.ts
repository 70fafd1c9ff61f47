import base from './playwright.config.js';
// Local only (not committed): the shared machine's load needs a longer start.
export default { ...base, webServer: { ...(base.webServer as object), timeout: 400_000 } };
