// What other parts of the server may use of this module; the rest is its own (ADR 047).
export { exportRoutes } from './routes.js';
export {
  ODM_DRUG_ITEM_PATTERN,
  ODM_GROUP_SAMPLE,
  ODM_ITEMS_SAMPLE,
  ODM_UNITS,
} from './odm-oids.js';
export { subjectIdSql } from './subjects.js';
export { loadPatientCopy } from './patient-copy.js';
export { allowExport } from './identified.js';
