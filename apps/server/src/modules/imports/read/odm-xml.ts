import {
  ODM_DRUG_ITEM_PATTERN,
  ODM_GROUP_SAMPLE,
  ODM_ITEMS_SAMPLE,
  ODM_UNITS,
} from '../../exports/index.js';
import { BIOCHEMISTRY_ANALYTES } from '../../results/index.js';
import { dateFromText } from './dates.js';
import type { ErrorList } from './error-list.js';
import { RESULT_LAYOUT_COLUMNS } from './types.js';
import type { CellValue, ImportRow, ImportTable } from './types.js';
import type { XmlNode } from './xml-nodes.js';
import { child, list, tagLines, text } from './xml-nodes.js';

/** The sample's results by OID (`alt`, …), as the import names them. */
const ITEM_ANALYTES: Record<string, string> = Object.fromEntries(
  BIOCHEMISTRY_ANALYTES.map((analyte) => [ODM_ITEMS_SAMPLE[analyte], analyte]),
);
/** Items of a sample that are not results (the first three go with them; the rest are read by
 *  nothing here, and are not errors). */
const NOT_RESULTS = new Set<string>([
  ODM_ITEMS_SAMPLE.probe_code,
  ODM_ITEMS_SAMPLE.date_of_analysis,
  ODM_ITEMS_SAMPLE.hours,
  ODM_ITEMS_SAMPLE.material,
  ODM_ITEMS_SAMPLE.date_of_sample,
  ODM_ITEMS_SAMPLE.visit_ordinal,
]);
/** The export's units by OID, for a file whose metadata leaves a unit's symbol out. */
const UNIT_OIDS: Record<string, string> = Object.fromEntries(
  Object.entries(ODM_UNITS).map(([symbol, oid]) => [oid, symbol]),
);

function nodes(node: XmlNode | undefined, name: string): XmlNode[] {
  if (node === undefined || typeof node === 'string') return [];
  return list(node[name]);
}

function attribute(node: XmlNode | undefined, name: string): string {
  const value = child(node, `@${name}`);
  return typeof value === 'string' ? value.trim() : '';
}

/** MeasurementUnit OID → its symbol, and ItemDef OID → its unit, from every MetaDataVersion. */
function units(root: XmlNode): Map<string, string> {
  const symbols = new Map<string, string>();
  const byItem = new Map<string, string>();
  for (const study of nodes(root, 'Study')) {
    for (const unit of nodes(child(study, 'BasicDefinitions'), 'MeasurementUnit')) {
      const symbol =
        text(child(child(unit, 'Symbol'), 'TranslatedText')) || attribute(unit, 'Name');
      symbols.set(attribute(unit, 'OID'), symbol);
    }
    for (const version of nodes(study, 'MetaDataVersion'))
      for (const item of nodes(version, 'ItemDef')) {
        const unitOid = attribute(child(item, 'MeasurementUnitRef'), 'MeasurementUnitOID');
        if (unitOid !== '') byItem.set(attribute(item, 'OID'), unitOid);
      }
  }
  const result = new Map<string, string>();
  for (const [item, unitOid] of byItem) {
    const symbol = symbols.get(unitOid) || UNIT_OIDS[unitOid];
    if (symbol) result.set(item, symbol);
  }
  return result;
}

/**
 * CDISC ODM 1.3 clinical data as the portal's export writes it: every ItemGroupData IG.SAMPLE (a
 * sample) gives one row per result it holds, in the results layout — IT.ALT, IT.AST, IT.CREA,
 * IT.BIL and IT.DRUG_<medicine id>, with the sample's IT.PROBE_CODE, IT.DATE_OF_ANALYSIS and (for
 * drugs) IT.HOURS; the unit from the item's definition. Other item groups (the patient, the ECG)
 * are not results and are not read. A row's number is the line of its ItemGroupData.
 */
export function readOdm(
  file: string,
  source: string,
  root: XmlNode,
  errors: ErrorList,
  maxRows: number,
): ImportTable | null {
  const lines = tagLines(source, 'ItemGroupData');
  const unitOf = units(root);
  let groupIndex = 0;
  const rows: ImportRow[] = [];
  for (const clinical of nodes(root, 'ClinicalData'))
    for (const subject of nodes(clinical, 'SubjectData'))
      for (const event of nodes(subject, 'StudyEventData'))
        for (const form of nodes(event, 'FormData'))
          for (const group of nodes(form, 'ItemGroupData')) {
            const line = lines[groupIndex] ?? 0;
            groupIndex += 1;
            if (attribute(group, 'ItemGroupOID') !== ODM_GROUP_SAMPLE) continue;
            const items = new Map<string, string>();
            for (const item of nodes(group, 'ItemData')) {
              const oid = attribute(item, 'ItemOID');
              if (items.has(oid)) errors.add(file, `element ${oid} powtórzony w próbce`, line);
              items.set(oid, attribute(item, 'Value'));
            }
            const probeCode = items.get(ODM_ITEMS_SAMPLE.probe_code) || null;
            const dateText = items.get(ODM_ITEMS_SAMPLE.date_of_analysis) ?? '';
            const date = dateText === '' ? null : dateFromText(dateText);
            if (dateText !== '' && date === null)
              errors.add(
                file,
                `nieprawidłowa data analizy „${dateText}”`,
                line,
                ODM_ITEMS_SAMPLE.date_of_analysis,
              );
            for (const [oid, value] of items) {
              const drug = ODM_DRUG_ITEM_PATTERN.exec(oid);
              const analyte = ITEM_ANALYTES[oid] ?? drug?.[1];
              if (analyte === undefined) {
                if (!NOT_RESULTS.has(oid))
                  errors.add(file, `nieznany element ${oid || '(bez ItemOID)'}`, line);
                continue;
              }
              if (probeCode === null) errors.add(file, 'próbka bez kodu (IT.PROBE_CODE)', line);
              const values: Record<string, CellValue> = {
                probe_code: probeCode,
                analyte,
                value: value || null,
                unit: unitOf.get(oid) ?? null,
                date_of_analysis: date,
                hours: drug ? items.get(ODM_ITEMS_SAMPLE.hours) || null : null,
                lab_range: null,
                patient_sex: null,
                patient_birth_date: null,
              };
              rows.push({ file, row: line, values });
            }
          }
  if (rows.length > maxRows) {
    errors.add(file, `plik ma więcej niż ${maxRows} wyników`);
    return null;
  }
  return { file, kind: 'odm', columns: [...RESULT_LAYOUT_COLUMNS], rows };
}
