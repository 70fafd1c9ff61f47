import type { BatchMode } from '@portal/shared';
import { buildPesel } from '@portal/shared';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS, OPTIONAL_COLUMNS, columnNames } from './columns.js';

const FIRSTNAMES = ['Anna', 'Jan', 'Katarzyna', 'Piotr', 'Maria', 'Tomasz', 'Ewa', 'Paweł'];
const SURNAMES = ['Nowak', 'Kowalski', 'Wiśniewska', 'Wójcik', 'Kamińska', 'Lewandowski'];

/**
 * `count` example patients of the demo study (unit 1, doctor 1, group 1 subgroup 1, dose 5).
 * PESELs and phone numbers are distinct up to 200,000 patients (the birth dates repeat every
 * 2,100, the serials only after 210,000), so the benchmark and the tests import large files of them.
 */
export function examplePatients(
  count: number,
  refs = { unit_id: 1, doctor_id: 1, group_id: 1, subgroup_id: 1, dose: 5 },
): Record<string, string | number>[] {
  return Array.from({ length: count }, (_, i) => {
    const sex = i % 2 === 0 ? 'K' : 'M';
    return {
      firstname: FIRSTNAMES[i % FIRSTNAMES.length]!,
      surname: SURNAMES[i % SURNAMES.length]!,
      pesel: buildPesel(
        { year: 1950 + (i % 50), month: 1 + (i % 12), day: 1 + (i % 28) },
        100 + i,
        sex,
      ),
      address_street: 'Kwiatowa',
      address_building: String(1 + (i % 90)),
      address_apartment: '',
      address_postcode: '00-950',
      address_city: 'Warszawa',
      phone_number: String(600_000_000 + i),
      email: '',
      weight: 60 + (i % 40),
      height: 155 + (i % 40),
      project_number: `P-${String(i + 1).padStart(5, '0')}`,
      ...refs,
      interval: '',
      is_above_18: 1,
      is_classified: 1,
      exclusion_criteria_id: '',
      medicines: '',
    };
  });
}

const EXAMPLE_RESULTS = [
  {
    probe_code: 'P000001-1',
    analyte: 'alt',
    value: 31,
    unit: 'U/l',
    date_of_analysis: '03.11.2026',
    hours: '',
    lab_range: '0-40',
  },
  {
    probe_code: 'P000001-1',
    analyte: 'creatine',
    value: 0.9,
    unit: 'mg/dl',
    date_of_analysis: '03.11.2026',
    hours: '',
    lab_range: '0.6-1.2',
  },
  {
    probe_code: 'P000001-2',
    analyte: '1',
    value: 120.5,
    unit: 'ng/ml',
    date_of_analysis: '03.11.2026',
    hours: 12,
    lab_range: '',
  },
];

/** Lines under the column guide: the other forms a file of this import may take. */
const TEMPLATE_NOTES: Partial<Record<BatchMode, readonly (readonly [string, string])[]>> = {
  results: [
    [
      'plik .xml',
      'Ten sam układ jako XML: <wyniki><wynik><probe_code>P000001-1</probe_code><analyte>alt</analyte><value>31</value>…</wynik>…</wyniki> — jeden element <wynik> na wiersz, w nim elementy nazwane jak kolumny powyżej (każdy najwyżej raz, bez atrybutów). Import przyjmuje też HL7 v2 XML (ORU^R01) i eksport CDISC ODM portalu.',
    ],
  ],
};

/**
 * The template: field names in row 1, example rows, and a sheet explaining each column, the
 * optional ones (not in row 1) after them.
 */
export async function buildTemplate(
  mode: BatchMode,
  rows: Record<string, unknown>[] = mode === 'patient_data' ? examplePatients(2) : EXAMPLE_RESULTS,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const data = workbook.addWorksheet('dane');
  const names = columnNames(mode);
  data.addRow(names);
  data.getRow(1).font = { bold: true };
  for (const row of rows) data.addRow(names.map((name) => row[name] ?? ''));
  // PESEL and phone numbers are identifiers: text, so that leading zeros stay.
  for (const name of ['pesel', 'phone_number', 'probe_code']) {
    const index = names.indexOf(name);
    if (index >= 0) data.getColumn(index + 1).numFmt = '@';
  }
  data.columns.forEach((column) => (column.width = 18));
  const help = workbook.addWorksheet('opis kolumn');
  help.addRow(['kolumna', 'opis']);
  help.getRow(1).font = { bold: true };
  for (const [name, description] of [...IMPORT_COLUMNS[mode], ...OPTIONAL_COLUMNS[mode]])
    help.addRow([name, description]);
  const notes = TEMPLATE_NOTES[mode] ?? [];
  if (notes.length > 0) help.addRow([]);
  for (const [name, description] of notes) help.addRow([name, description]);
  help.getColumn(1).width = 24;
  help.getColumn(2).width = 90;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
