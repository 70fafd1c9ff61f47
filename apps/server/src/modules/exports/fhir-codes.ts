/**
 * The code systems and codes of the FHIR R4 export (ADR 055 lists them with their sources).
 * LOINC for the ECG intervals and the laboratory analytes, UCUM for units, WHO ATC for the study
 * medicines, SNOMED CT for the specimen types, HL7's v3 ObservationInterpretation for H/L/N.
 * Drug concentrations have no LOINC code the study could confirm, so they use the portal's own
 * code system (the medicine's INN as the code).
 */

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const SNOMED = 'http://snomed.info/sct';
export const ATC = 'http://www.whocc.no/atc';
export const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
/** The Polish national identifier (PESEL), as HL7 Poland names it. */
export const PESEL_SYSTEM = 'urn:oid:2.16.840.1.113883.3.4424.1.1.616';

/** The portal's own code systems and identifiers (URNs: no web address is implied). */
export const LOCAL = {
  study: 'urn:fdc-kardio:fhir:study',
  subject: 'urn:fdc-kardio:fhir:study-subject',
  ecg: 'urn:fdc-kardio:fhir:CodeSystem:ecg',
  drugConcentration: 'urn:fdc-kardio:fhir:CodeSystem:drug-concentration',
  medicine: 'urn:fdc-kardio:fhir:CodeSystem:medicine',
  sample: 'urn:fdc-kardio:fhir:sample-code',
} as const;

export const STUDY_ID = 'fdc-kardio';

export interface Coded {
  code: string;
  display: string;
}

/** The ECG parameters (visits' columns, ms). QTcB and QTcF share LOINC's "QT interval corrected". */
export const ECG_CODES: Record<
  'qt' | 'rr' | 'pq' | 'qrs' | 'qtcb' | 'qtcfra',
  { loinc: Coded; local: Coded }
> = {
  qt: { loinc: { code: '8634-8', display: 'Q-T interval' }, local: { code: 'qt', display: 'QT' } },
  rr: {
    loinc: { code: '8637-1', display: 'R-R interval by EKG' },
    local: { code: 'rr', display: 'RR' },
  },
  pq: {
    loinc: { code: '8625-6', display: 'P-R interval' },
    local: { code: 'pq', display: 'PQ' },
  },
  qrs: {
    loinc: { code: '8633-0', display: 'QRS duration' },
    local: { code: 'qrs', display: 'QRS' },
  },
  qtcb: {
    loinc: { code: '8636-3', display: 'Q-T interval corrected' },
    local: { code: 'qtcb', display: 'QTc (Bazett)' },
  },
  qtcfra: {
    loinc: { code: '8636-3', display: 'Q-T interval corrected' },
    local: { code: 'qtcfra', display: 'QTc (Fridericia)' },
  },
};

/** The laboratory analytes (probes' columns, spelled as the API spells them) with LOINC and UCUM. */
export const LAB_CODES: Record<
  'alt' | 'ast' | 'creatine' | 'bilirubine',
  { loinc: Coded; unit: string; text: string }
> = {
  alt: {
    loinc: {
      code: '1742-6',
      display: 'Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma',
    },
    unit: 'U/L',
    text: 'ALT',
  },
  ast: {
    loinc: {
      code: '1920-8',
      display: 'Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma',
    },
    unit: 'U/L',
    text: 'AST',
  },
  creatine: {
    loinc: { code: '2160-0', display: 'Creatinine [Mass/volume] in Serum or Plasma' },
    unit: 'mg/dL',
    text: 'Kreatynina',
  },
  bilirubine: {
    loinc: { code: '1975-2', display: 'Bilirubin.total [Mass/volume] in Serum or Plasma' },
    unit: 'mg/dL',
    text: 'Bilirubina całkowita',
  },
};

/** UCUM for the units the portal stores. */
export const UCUM_OF: Record<string, string> = {
  'U/l': 'U/L',
  'mg/dl': 'mg/dL',
  'ng/ml': 'ng/mL',
  ms: 'ms',
  h: 'h',
};

/** WHO ATC codes of the study medicines, by INN (data/medicines.json). */
export const ATC_OF: Record<string, string> = {
  atorvastatin: 'C10AA05',
  rosuvastatin: 'C10AA07',
  simvastatin: 'C10AA01',
  ramipril: 'C09AA05',
  perindopril: 'C09AA04',
  lisinopril: 'C09AA03',
  amlodipine: 'C08CA01',
  lercanidipine: 'C08CA13',
  bisoprolol: 'C07AB07',
  metoprolol: 'C07AB02',
  indapamide: 'C03BA11',
  hydrochlorothiazide: 'C03AA03',
  valsartan: 'C09CA03',
  telmisartan: 'C09CA07',
  candesartan: 'C09CA06',
  'acetylsalicylic acid': 'B01AC06',
};

/** SNOMED CT specimen types of the two materials. */
export const SPECIMEN_TYPE: Record<string, Coded> = {
  venous: { code: '122555007', display: 'Venous blood specimen' },
  capillary: { code: '122554006', display: 'Capillary blood specimen' },
};

export const INTERPRETATION_CODES = {
  H: 'High',
  L: 'Low',
  N: 'Normal',
} as const;
