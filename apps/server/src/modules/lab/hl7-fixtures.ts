/**
 * ORU^R01 messages in the shapes real laboratories send (tests only; ADR 033). Each is our own,
 * written after the layout of a public example — the HL7 standard's glucose example as
 * python-hl7 ships it (v2.4, SN `^182`, range `70_105`), a US reference laboratory's v2.3
 * report (ORC, PV1, CE results, OBX-11 `X`, NTE after OBX, a Z segment), a Polish laboratory's
 * v2.5 report (MSH-18, decimal commas, `<^0.5`, comments with `\.br\`) and the NIST v2.5.1 test
 * cases (SFT, SPM, OBX up to field 25) — with our identifiers and the study's analyte codes.
 * Segments are separated by CR; builders take what a test varies (codes, dates, patient).
 */

export interface FixturePatient {
  /** PID-7, YYYYMMDD. */
  birthDate: string;
  /** PID-8: M or F. */
  sex: 'M' | 'F';
}

const join = (segments: readonly string[]) => `${segments.join('\r')}\r`;

/**
 * The standard's glucose example, as one laboratory's report of liver enzymes: HL7 v2.4, OBR-2
 * the placer's number and OBR-3 the sample code with the laboratory's namespace, SN values,
 * ranges written `10_40`, abnormal flags in OBX-8, no MSH-18.
 */
export function standardStyleReport(
  controlId: string,
  code: string,
  patient: FixturePatient,
  when = '202611250930',
): string {
  return join([
    `MSH|^~\\&|GHH LAB|ELAB-3|GHH OE|BLDG4|${when}||ORU^R01|${controlId}|P|2.4`,
    `PID|||555-44-4444||PRZYKLADOWA^EWA^E^^^^L|KOWALSKA|${patient.birthDate}|${patient.sex}|||Fernowa 153^^Starogard^PM^83-200||(058)3345232|(058)752-121||||AC555444444||67-A4335^PM^20030520`,
    `OBR|1|845439^GHH OE|${code}^GHH LAB|LFT^PANEL WATROBOWY|||${when}||||||||555-55-5555^PIERWSZA^PATRYCJA P^^^^MD^^LEVEL SEVEN HEALTHCARE, INC.|||||||||F||||||444-44-4444^HIPOKRATES^HENRYK H^^^^MD`,
    `OBX|1|SN|ALT^ALANINE AMINOTRANSFERASE^L||^182|U/L|10_40|H|||F`,
    `OBX|2|SN|AST^ASPARTATE AMINOTRANSFERASE^L||^35|U/L|10_40|N|||F`,
  ]);
}

/**
 * A reference laboratory's v2.3 report: PV1 and ORC before the OBR, a numeric result, a coded
 * (CE) result of a test the study does not order with its NTE lines, a result the laboratory
 * could not obtain (empty, OBX-11 `X`), a canned comment and the laboratory's Z segment.
 */
export function referenceLabReport(
  controlId: string,
  code: string,
  patient: FixturePatient,
  when = '20261125083600',
): string {
  return join([
    `MSH|^~\\&|LCS|LCA|LIS|TEST9999|${when}||ORU^R01|${controlId}|P|2.3`,
    `PID|3|2161348473|20923085580|01572633|20923085580^PACJENT||${patient.birthDate}|${patient.sex}|||^^^^00-000|||||||86427531^^^03`,
    `PV1||I|^802^1||||8625^Lekarz^Michal|86-7468^||xxx|||||||||V1001`,
    `ORC|NW|8642753100013^LIS|${code}^LCS||||||${when}|||PEED`,
    `OBR|1|8642753100013^LIS|${code}^LCS|083824^PANEL 083824^L|||${when}|||||| CH13380|${when}||||||${code}||${when}|||F`,
    `OBX|1|NM|CREA^CREATININE^L||0.9|mg/dL|0.6-1.2|N||A^S|F|||${when}|BN`,
    `OBX|2|CE|001719^HIV-1 ABS, SEMI-QN^L||NEG^Negative|||N|||F|||${when}|BN`,
    `NTE|1|L|Result: NEGATIVE by EIA screen.`,
    `NTE|2|L|No antibodies to HIV-1 detected.`,
    `OBX|3|NM|BIL^BILIRUBIN, TOTAL^L|||mg/dL|||||X|||${when}|BN`,
    `NTE|1|L|Sample hemolysed \\T\\ lipemic; bilirubin not reported.`,
    `OBX|4|CE|169999^.^L||SPRCS|||N|||F|||${when}|BN`,
    `NTE|1|L|NOTE: Submission of serum`,
    `NTE|2|L|separator tube recommended.`,
    `ZPS|1|BN|LABCORP HOLDINGS|1447 YORK COURT^^BURLINGTON^NC^272152230|8007624344`,
  ]);
}

/** What varies in the Polish laboratory's report. */
export interface PolishReportOptions {
  controlId: string;
  code: string;
  patient: FixturePatient;
  /** MSH-18 (e.g. `UNICODE UTF-8`, `8859/2`); omitted when null. */
  charset?: string | null;
  /** OBX-14 and OBR-7. */
  when?: string;
  /** Include the test the study does not order (CHOL); true unless told. */
  withUnknown?: boolean;
  /** Drug codes (CAS number or INN) with their values as OBX-5 of an SN. */
  drugs?: readonly { code: string; value: string }[];
}

/**
 * A Polish laboratory's v2.5 report: MSH-18, an NTE after the OBR (the sample's comment with a
 * line break and Polish letters), values with decimal commas, ALT as ST, bilirubin below the
 * detection limit (`<^0,5`), ranges `(<1,2)` and `0,6 - 1,2`, a result's comment in a TX OBX
 * after it and in an NTE, a test the study does not order (CHOL) among known ones, and the
 * laboratory's performing organisation in OBX-23.
 */
export function polishLabReport(options: PolishReportOptions): string {
  const when = options.when ?? '202611250930';
  const msh18 = options.charset ? `|${options.charset}` : '';
  const drugs = (options.drugs ?? []).map(
    (drug, index) =>
      `OBX|${index + 7}|SN|${drug.code}^Stężenie leku^L||${drug.value}|ng/mL|||||F|||${when}`,
  );
  return join([
    `MSH|^~\\&|MOLIS|SYNEVO-PL|PORTAL|KARDIO|${when}||ORU^R01^ORU_R01|${options.controlId}|P|2.5|||AL|NE|POL${msh18}`,
    `PID|1||LAB-77^^^SYNEVO^PI||ŻÓŁKIEWSKA^ŁUCJA||${options.patient.birthDate}|${options.patient.sex}`,
    `ORC|RE|${options.code}|${options.code}^SYNEVO`,
    `OBR|1|${options.code}|${options.code}^SYNEVO|PANEL^Panel wątrobowy^L|||${when}|||||||||||||||${when}|||F`,
    `NTE|1|L|Próbka lekko zhemolizowana.\\.br\\Wynik potwierdzono.`,
    `OBX|1|ST|ALT^Aminotransferaza alaninowa^L||23,5|U/l|10 - 40|N|||F|||${when}`,
    `OBX|2|NM|AST^Aminotransferaza asparaginianowa^L||21|U/l|10-40|N|||F|||${when}`,
    `OBX|3|SN|BIL^Bilirubina całkowita^L||<^0,5|mg/dl|(<1,2)||||F|||${when}`,
    `OBX|4|TX|BIL^Bilirubina całkowita^L||Wynik poniżej granicy oznaczalności.||||||F`,
    `OBX|5|NM|CREA^Kreatynina^L||0,84|mg/dl|0,6 - 1,2|N|||F|||${when}|||||||||Synevo Sp. z o.o.^^^^^^^^^1234`,
    `NTE|1|L|Oznaczenie metodą enzymatyczną.`,
    ...(options.withUnknown === false
      ? []
      : [`OBX|6|NM|CHOL^Cholesterol całkowity^L||182|mg/dl|<190|N|||F|||${when}`]),
    ...drugs,
  ]);
}

/**
 * The NIST v2.5.1 test cases' layout: SFT after MSH, PID with an assigning authority, OBR with
 * OBR-2/3 as EI, an SPM after the results, OBX up to OBX-23 with the performing laboratory.
 */
export function nistStyleReport(
  controlId: string,
  code: string,
  patient: FixturePatient,
  values: { alt: string; ast: string },
  when = '20261125110702',
): string {
  return join([
    `MSH|^~\\&|Lab Application^2.16.840.1.113883.3.72.7.1^ISO|Lab Facility^2.16.840.1.113883.3.72.7.2^ISO|Portal^2.16.840.1.113883.3.72.7.3^ISO|Unit^2.16.840.1.113883.3.72.7.4^ISO|${when}||ORU^R01^ORU_R01|${controlId}|P|2.5.1|||NE|NE|||||PHLabReport-NoAck^^2.16.840.1.114222.4.10.3^ISO`,
    `SFT|NIST Lab, Inc.^L^^^^^^^^|3.6.23|A-1 Lab System|6742873-12||20080303`,
    `PID|1||9817566735^^^MPI&2.16.840.1.113883.19.3.2.1&ISO^MR||Kowal^Filip^^^^^L||${patient.birthDate}|${patient.sex}`,
    `OBR|1|${code}^Portal^2.16.840.1.113883.3.72.7.3^ISO|${code}^Lab^2.16.840.1.113883.3.72.7.2^ISO|24325-3^Hepatic function panel^LN|||${when}|||||||||1234^Lekarz^Jan^^^^^^NPI&2.16.840.1.113883.4.6&ISO^L||||||${when}|||F`,
    `OBX|1|NM|ALT^Alanine aminotransferase^L^1742-6^ALT^LN||${values.alt}|U/L^units per liter^UCUM|7-56|N|||F|||${when}|||||${when}||||Lab Facility^L^^^^CLIA&2.16.840.1.113883.4.7&ISO^XX^^^01D1111111`,
    `OBX|2|NM|AST^Aspartate aminotransferase^L^1920-8^AST^LN||${values.ast}|U/L^units per liter^UCUM|10-40|N|||F|||${when}|||||${when}||||Lab Facility^L^^^^CLIA&2.16.840.1.113883.4.7&ISO^XX^^^01D1111111`,
    `SPM|1|${code}&Lab&2.16.840.1.113883.3.72.7.2&ISO||119297000^Blood specimen^SCT|||||||||||||${when}|${when}`,
  ]);
}
