// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { settingRoutes } from './routes.js';
export {
  readSetting,
  readSettingValue,
  readSynevoCredentials,
  recordSynevoError,
  saveSetting,
} from './service.js';
export { readSupportPhone } from './support.js';
