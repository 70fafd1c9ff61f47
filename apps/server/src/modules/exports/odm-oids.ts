/**
 * The OIDs of the CDISC ODM 1.3.2 export (`GET /api/exports/odm.xml`, ADR 032), in one place so
 * that the data import can read the file back with the same names.
 *
 * Layout of ClinicalData:
 *   SubjectData SubjectKey = the patient's number (patients.id, as the report's "Numer pacjenta")
 *     StudyEventData SE.PATIENT → FormData F.PATIENT → ItemGroupData IG.PATIENT (sex, group)
 *     StudyEventData SE.VISIT.<ordinal> (one per done visit) → F.ECG → IG.ECG (QT … QTcF)
 *     StudyEventData SE.SAMPLES → F.SAMPLES → ItemGroupData IG.SAMPLE, repeating, one per sample
 *       (ItemGroupRepeatKey = the sample's id): IT.PROBE_CODE, IT.MATERIAL, IT.ALT, IT.AST,
 *       IT.CREA, IT.BIL, IT.DRUG_<medicine id>, IT.HOURS, IT.DATE_OF_ANALYSIS, IT.DATE_OF_SAMPLE,
 *       IT.VISIT_ORDINAL.
 * Values: decimals with a dot, dates YYYY-MM-DD; an absent value has no ItemData.
 */
export const ODM_STUDY_OID = 'ST.FDC-KARDIO';
export const ODM_METADATA_VERSION_OID = 'MDV.1';

export const ODM_EVENT_PATIENT = 'SE.PATIENT';
export const ODM_EVENT_SAMPLES = 'SE.SAMPLES';
/** A visit's study event by its ordinal (1 = the first visit). */
export const odmVisitEventOid = (ordinal: number): string => `SE.VISIT.${ordinal}`;
export const ODM_VISIT_EVENT_PATTERN = /^SE\.VISIT\.(\d+)$/;

export const ODM_FORM_PATIENT = 'F.PATIENT';
export const ODM_FORM_ECG = 'F.ECG';
export const ODM_FORM_SAMPLES = 'F.SAMPLES';

export const ODM_GROUP_PATIENT = 'IG.PATIENT';
export const ODM_GROUP_ECG = 'IG.ECG';
export const ODM_GROUP_SAMPLE = 'IG.SAMPLE';

export const ODM_ITEMS_PATIENT = {
  sex: 'IT.SEX',
  group: 'IT.GROUP',
} as const;

/** The ECG parameters of a visit (ms), keyed by the visits table's columns. */
export const ODM_ITEMS_ECG = {
  date: 'IT.VISIT_DATE',
  qt: 'IT.QT',
  rr: 'IT.RR',
  pq: 'IT.PQ',
  qrs: 'IT.QRS',
  qtcb: 'IT.QTCB',
  qtcfra: 'IT.QTCF',
} as const;

/** A sample's items; the biochemistry ones keyed by the import's `analyte` names. */
export const ODM_ITEMS_SAMPLE = {
  probe_code: 'IT.PROBE_CODE',
  material: 'IT.MATERIAL',
  alt: 'IT.ALT',
  ast: 'IT.AST',
  creatine: 'IT.CREA',
  bilirubine: 'IT.BIL',
  hours: 'IT.HOURS',
  date_of_analysis: 'IT.DATE_OF_ANALYSIS',
  date_of_sample: 'IT.DATE_OF_SAMPLE',
  visit_ordinal: 'IT.VISIT_ORDINAL',
} as const;

/** A drug concentration (ng/ml) by the medicine's id. */
export const odmDrugItemOid = (medicineId: number): string => `IT.DRUG_${medicineId}`;
export const ODM_DRUG_ITEM_PATTERN = /^IT\.DRUG_(\d+)$/;

export const ODM_CODELIST_SEX = 'CL.SEX';
export const ODM_CODELIST_MATERIAL = 'CL.MATERIAL';
export const ODM_UNITS = {
  'U/l': 'MU.U_L',
  'mg/dl': 'MU.MG_DL',
  'ng/ml': 'MU.NG_ML',
  ms: 'MU.MS',
  h: 'MU.H',
} as const;
