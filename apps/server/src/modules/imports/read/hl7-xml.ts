import type { ErrorList } from './error-list.js';
import { dateFromText } from './dates.js';
import type { XmlNode } from './xml-nodes.js';
import { child, list, tagLines, text } from './xml-nodes.js';
import { NO_DATA_ROWS, RESULT_LAYOUT_COLUMNS } from './types.js';
import type { CellValue, ImportRow, ImportTable } from './types.js';

/** OBX-3 of the biochemistry results (docs/api-conventions.md "Laboratory"). */
const ANALYTES: Record<string, string> = {
  ALT: 'alt',
  AST: 'ast',
  CREA: 'creatine',
  BIL: 'bilirubine',
};
/** OBX-3 of "hours since the last dose" for the drugs of its OBR (the connector's convention). */
const HOURS_CODE = 'HSLD';

/**
 * HL7 v2 XML ORU^R01 (the XML encoding of the message the connector takes as ER7): one row per
 * OBX in the results layout. OBR-3 is the probe code, OBX-3 the analyte (a drug code becomes its
 * medicine's id when `drugCodes` knows it; an unknown code is kept for the validation to name),
 * OBX-5 the value as written, OBX-6 the unit, OBX-7 the laboratory's range, OBX-14 (else OBR-7)
 * the date of analysis; PID-8 and PID-7 the patient's sex (F → K) and birth date. A row's number
 * is the line of its OBX in the file. Values are not checked here (the import validates them).
 */
export function readHl7Xml(
  file: string,
  source: string,
  root: XmlNode,
  errors: ErrorList,
  maxRows: number,
  drugCodes: ReadonlyMap<string, number> | undefined,
): ImportTable | null {
  const lines = tagLines(source, 'OBX');
  let obxIndex = 0;
  const rows: ImportRow[] = [];
  const before = errors.count;
  const header = child(root, 'MSH');
  const type = `${text(child(child(header, 'MSH.9'), 'MSG.1'))}^${text(child(child(header, 'MSH.9'), 'MSG.2'))}`;
  if (type !== 'ORU^R01') {
    errors.add(file, `MSH-9: oczekiwano komunikatu ORU^R01, jest ${type}`);
    return null;
  }
  for (const result of resultChildren(root, 'ORU_R01.PATIENT_RESULT')) {
    const pid = child(child(result, 'ORU_R01.PATIENT'), 'PID');
    const sexText = text(child(pid, 'PID.8')).toUpperCase();
    const sex = sexText === 'F' ? 'K' : sexText === '' ? null : sexText;
    const birthText = text(child(pid, 'PID.7'));
    const birthDate = birthText === '' ? null : dateFromText(birthText);
    if (birthText !== '' && birthDate === null)
      errors.add(file, `PID-7: nieprawidłowa data urodzenia „${birthText}”`);
    for (const order of resultChildren(result, 'ORU_R01.ORDER_OBSERVATION')) {
      const obr = child(order, 'OBR');
      const probeCode = text(child(obr, 'OBR.3'));
      const orderDate = text(child(obr, 'OBR.7'));
      const orderRows: ImportRow[] = [];
      let hours: string | null = null;
      for (const observation of resultChildren(order, 'ORU_R01.OBSERVATION')) {
        const line = lines[obxIndex] ?? 0;
        obxIndex += 1;
        const obx = child(observation, 'OBX');
        const code = text(child(obx, 'OBX.3')).toUpperCase();
        const value = text(child(obx, 'OBX.5'));
        if (code === HOURS_CODE) {
          hours = value;
          continue;
        }
        const drug = drugCodes?.get(code);
        const observed = text(child(obx, 'OBX.14')) || orderDate;
        const date = observed === '' ? null : dateFromText(observed);
        if (observed !== '' && date === null)
          errors.add(file, `nieprawidłowa data analizy „${observed}”`, line, 'OBX-14');
        if (probeCode === '') errors.add(file, 'brak kodu próbki (OBR-3)', line, 'OBR-3');
        const values: Record<string, CellValue> = {
          probe_code: probeCode || null,
          analyte: ANALYTES[code] ?? (drug === undefined ? code || null : String(drug)),
          value: value || null,
          unit: text(child(obx, 'OBX.6')) || null,
          date_of_analysis: date,
          hours: null,
          lab_range: text(child(obx, 'OBX.7')) || null,
          patient_sex: sex,
          patient_birth_date: birthDate,
        };
        orderRows.push({ file, row: line, values });
      }
      // Hours belong to the drug results of their own order, wherever the OBX stands in it.
      for (const row of orderRows)
        if (hours !== null && !(String(row.values.analyte) in ANALYTES_BY_NAME))
          row.values.hours = hours;
      rows.push(...orderRows);
    }
  }
  if (rows.length > maxRows) {
    errors.add(file, `plik ma więcej niż ${maxRows} wyników`);
    return null;
  }
  if (rows.length === 0 && errors.count === before)
    errors.add(file, `${NO_DATA_ROWS} (wyników OBX)`);
  return { file, kind: 'hl7', columns: [...RESULT_LAYOUT_COLUMNS], rows };
}

const ANALYTES_BY_NAME = Object.fromEntries(Object.values(ANALYTES).map((name) => [name, true]));

function resultChildren(node: XmlNode | undefined, name: string): XmlNode[] {
  if (node === undefined || typeof node === 'string') return [];
  return list(node[name]);
}
