// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { fileRoutes } from './routes.js';
export { checkAttachment } from './content-check.js';
export { cleanFileName } from './file-name.js';
export { contentDisposition, uploadPatientFile } from './service.js';
