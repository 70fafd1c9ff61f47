import type { ErrorList } from './error-list.js';
import { NO_DATA_ROWS, RESULT_LAYOUT_COLUMNS } from './types.js';
import type { CellValue, ImportRow, ImportTable } from './types.js';
import type { XmlNode } from './xml-nodes.js';
import { list, tagLines } from './xml-nodes.js';

/** The root element of the results template as XML; each result is one RESULTS_XML_RECORD. */
export const RESULTS_XML_ROOT = 'wyniki';
export const RESULTS_XML_RECORD = 'wynik';

const FIELDS = new Set<string>(RESULT_LAYOUT_COLUMNS);
const ALLOWED = RESULT_LAYOUT_COLUMNS.join(', ');

/**
 * The results template as XML (README "Data import", `docs/examples/import-wyniki.xml`):
 *
 *   <wyniki>
 *     <wynik><probe_code>P000001-1</probe_code><analyte>alt</analyte><value>31</value>…</wynik>
 *   </wyniki>
 *
 * Each `<wynik>` is one row; its child elements are the template's columns, by the same names
 * (any order, any may be left out or empty), and hold the cell's text as typed, which the import
 * then checks like a csv cell. A row's number is the line of its `<wynik>`. An unknown element is
 * named once, at its first row; an attribute (a value the import would not see), a repeated
 * element or one with elements inside are errors too. Attributes of the root (a namespace, a
 * schema location) are allowed and ignored.
 */
export function readResultsXml(
  file: string,
  source: string,
  root: XmlNode,
  errors: ErrorList,
  maxRows: number,
): ImportTable | null {
  const before = errors.count;
  const records = typeof root === 'string' ? [] : list(root[RESULTS_XML_RECORD]);
  if (records.length > maxRows) {
    errors.add(file, `plik ma więcej niż ${maxRows} wyników`);
    return null;
  }
  const lines = tagLines(source, RESULTS_XML_RECORD);
  const unknown = new Set<string>();
  // Reported once (at the first row) by key: a misspelt element in 10,000 rows is one mistake.
  const named = (key: string, line: number, message: string) => {
    if (unknown.has(key)) return;
    unknown.add(key);
    errors.add(file, message, line);
  };
  if (typeof root !== 'string')
    for (const name of Object.keys(root))
      if (name !== RESULTS_XML_RECORD && !name.startsWith('@'))
        named(
          `/${name}`,
          lines[0] ?? 1,
          name === '#text'
            ? `tekst poza elementami <${RESULTS_XML_RECORD}>`
            : `nieznany element <${name}> (w <${RESULTS_XML_ROOT}> są tylko elementy <${RESULTS_XML_RECORD}>)`,
        );
  const rows: ImportRow[] = [];
  records.forEach((record, index) => {
    const line = lines[index] ?? 0;
    const values: Record<string, CellValue> = Object.fromEntries(
      RESULT_LAYOUT_COLUMNS.map((column) => [column, null]),
    );
    // `<wynik/>` and `<wynik>  </wynik>` are an empty row: every cell blank.
    const children = typeof record === 'string' ? {} : record;
    for (const [name, content] of Object.entries(children)) {
      if (name.startsWith('@')) {
        named(
          name,
          line,
          `atrybut ${name.slice(1)} w <${RESULTS_XML_RECORD}>: wartości podaje się w elementach`,
        );
        continue;
      }
      if (name === '#text') {
        named(name, line, `tekst poza elementami w <${RESULTS_XML_RECORD}>`);
        continue;
      }
      if (!FIELDS.has(name)) {
        named(name, line, `nieznany element <${name}> (wynik ma elementy: ${ALLOWED})`);
        continue;
      }
      if (Array.isArray(content)) {
        errors.add(file, `element <${name}> powtórzony w wyniku`, line, name);
        continue;
      }
      if (typeof content !== 'string') {
        const inner = Object.keys(content).find((key) => !key.startsWith('@'));
        errors.add(
          file,
          inner === undefined || inner === '#text'
            ? `element <${name}> ma atrybuty: wartość podaje się jako jego tekst`
            : `element <${name}> zawiera inne elementy (<${inner}>)`,
          line,
          name,
        );
        continue;
      }
      values[name] = content === '' ? null : content;
    }
    rows.push({ file, row: line, values });
  });
  if (rows.length === 0 && errors.count === before)
    errors.add(file, `${NO_DATA_ROWS} (elementów <${RESULTS_XML_RECORD}>)`);
  return { file, kind: 'results-xml', columns: [...RESULT_LAYOUT_COLUMNS], rows };
}
