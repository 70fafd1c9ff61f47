import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildZip } from '../../../test/zip-fixture.js';
import type { ZipFixtureEntry } from '../../../test/zip-fixture.js';
import { ErrorList } from './error-list.js';
import { readImportFiles } from './read-import-files.js';
import { ImportReadError } from './types.js';
import type { ReadOptions } from './types.js';
import { readZip } from './zip.js';

const MB = 1024 * 1024;
const CSV = Buffer.from('probe_code,value\nP-1,1\n');

async function errorsOf(name: string, data: Buffer, options?: ReadOptions): Promise<string[]> {
  try {
    await readImportFiles([{ name, data }], options);
  } catch (error) {
    if (error instanceof ImportReadError) return error.errors;
    throw error;
  }
  throw new Error('the read succeeded');
}

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Dane');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** An xlsx's parts, to rebuild it with changes. */
async function parts(data: Buffer): Promise<ZipFixtureEntry[]> {
  const entries = await readZip(
    'x',
    data,
    { maxEntries: 100, maxEntryBytes: 10 * MB, maxTotalBytes: 10 * MB },
    new ErrorList(10),
  );
  return entries!.map((entry) => ({ name: entry.name, data: entry.data }));
}

describe('zip entries', () => {
  it.each([
    ['../evil.csv', 'niedozwolona ścieżka w archiwum (../evil.csv)'],
    ['dane/../../evil.csv', 'niedozwolona ścieżka w archiwum (dane/../../evil.csv)'],
    ['..\\evil.csv', 'niedozwolona ścieżka w archiwum (../evil.csv)'],
    ['/etc/cron.d/evil.csv', 'niedozwolona ścieżka w archiwum (/etc/cron.d/evil.csv)'],
    ['C:/Windows/evil.csv', 'niedozwolona ścieżka w archiwum (C:/Windows/evil.csv)'],
  ])('refuses the path %s', async (name, message) => {
    const zip = buildZip([
      { name: 'ok.csv', data: CSV },
      { name, data: CSV },
    ]);
    expect(await errorsOf('a.zip', zip)).toEqual([`a.zip: ${message}`]);
  });

  it('refuses a symbolic link', async () => {
    const zip = buildZip([
      { name: 'passwd.csv', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 },
    ]);
    expect(await errorsOf('a.zip', zip)).toEqual([
      'a.zip: dowiązanie symboliczne w archiwum jest niedozwolone (passwd.csv)',
    ]);
  });

  it('refuses 100,000 entries before reading one', async () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({
      name: `${i}.csv`,
      data: Buffer.alloc(0),
      store: true,
    }));
    const zip = buildZip(entries);
    expect(await errorsOf('a.zip', zip)).toEqual([
      'a.zip: archiwum ma zbyt wiele plików (100000, najwięcej 1000)',
    ]);
  });

  it('refuses an entry claiming 10 GB without inflating it', async () => {
    const zip = buildZip([{ name: 'big.csv', data: CSV, claimedSize: 10 * 1024 * MB }]);
    expect(await errorsOf('a.zip', zip)).toEqual([
      'a.zip: plik big.csv w archiwum jest za duży po rozpakowaniu (najwięcej 20 MB)',
    ]);
  });

  it('stops a bomb whose headers understate its size while inflating it', async () => {
    // 64 MB of zeros deflate to ~64 KB; the headers claim 1 KB.
    const zip = buildZip([{ name: 'bomb.csv', data: Buffer.alloc(64 * MB), claimedSize: 1024 }]);
    expect(zip.length).toBeLessThan(MB);
    expect(await errorsOf('a.zip', zip)).toEqual([
      'a.zip: rozmiar pliku w archiwum nie zgadza się z nagłówkiem (uszkodzone lub spreparowane archiwum)',
    ]);
  });

  it('refuses more unpacked data in all than the limit', async () => {
    const entries = Array.from({ length: 6 }, (_, i) => ({
      name: `${i}.csv`,
      data: Buffer.alloc(19 * MB, 0x61),
    }));
    const zip = buildZip(entries);
    expect(zip.length).toBeLessThan(2 * MB);
    expect(await errorsOf('a.zip', zip)).toEqual([
      'a.zip: archiwum jest za duże po rozpakowaniu (najwięcej 100 MB)',
    ]);
  });

  it('refuses a zip in a zip, and names a wrong type inside', async () => {
    const inner = buildZip([{ name: 'a.csv', data: CSV }]);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);
    const zip = buildZip([
      { name: 'inner.zip', data: inner },
      { name: 'program.csv', data: exe },
      { name: 'ok.csv', data: CSV },
    ]);
    expect(await errorsOf('a.zip', zip)).toEqual([
      'a.zip/inner.zip: archiwum zip w archiwum zip jest niedozwolone',
      'a.zip/program.csv: Nieprawidłowy rodzaj pliku',
    ]);
  });
});

describe('workbooks', () => {
  it('reads a macro-enabled workbook under an .xlsx name as data', async () => {
    const source = await parts(
      await workbook([
        ['probe_code', 'value'],
        ['P-1', 3],
      ]),
    );
    const rebuilt = source.map((part) =>
      part.name === '[Content_Types].xml'
        ? {
            name: part.name,
            data: Buffer.from(
              part.data
                .toString('utf8')
                .replace(
                  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
                  'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
                )
                .replace(
                  '<Default ',
                  '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/><Default ',
                ),
            ),
          }
        : part,
    );
    // An Auto_Open macro project (its content never matters: nothing runs it).
    rebuilt.push({
      name: 'xl/vbaProject.bin',
      data: Buffer.from('Sub Auto_Open()\nShell "calc"\nEnd Sub'),
    });
    const tables = await readImportFiles([{ name: 'wyniki.xlsx', data: buildZip(rebuilt) }]);
    expect(tables[0]!.rows).toEqual([
      { file: 'wyniki.xlsx', row: 2, values: { probe_code: 'P-1', value: 3 } },
    ]);
    const asXlsm = await readImportFiles([{ name: 'wyniki.xlsm', data: buildZip(rebuilt) }]);
    expect(asXlsm[0]!.rows).toHaveLength(1);
  });

  it('refuses an xlsx whose sheet would unpack to 10 GB, before exceljs reads it', async () => {
    const source = await parts(await workbook([['a'], [1]]));
    source.push({ name: 'xl/worksheets/sheet2.xml', data: CSV, claimedSize: 10 * 1024 * MB });
    expect(await errorsOf('a.xlsx', buildZip(source))).toEqual([
      'a.xlsx: plik xl/worksheets/sheet2.xml w archiwum jest za duży po rozpakowaniu (najwięcej 100 MB)',
    ]);
  });

  it('refuses a zip that is no workbook under an .xlsx name', async () => {
    expect(await errorsOf('a.xlsx', buildZip([{ name: 'a.csv', data: CSV }]))).toEqual([
      'a.xlsx: skoroszyt nie ma arkusza',
    ]);
  });

  it('reads a legacy .xls: numbers, text kept as text, dates as the spreadsheet’s date', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['probe_code', 'value', 'date_of_analysis', 'note'],
      ['P-1', 12.5, new Date(2026, 10, 3), '=HYPERLINK("http://x")'],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Dane');
    const data = XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const tables = await readImportFiles([{ name: 'stary.xls', data }]);
    expect(tables[0]!.rows).toEqual([
      {
        file: 'stary.xls',
        row: 2,
        values: {
          probe_code: 'P-1',
          value: 12.5,
          date_of_analysis: new Date(Date.UTC(2026, 10, 3)),
          note: '=HYPERLINK("http://x")',
        },
      },
    ]);
  });

  it('refuses an xlsx renamed .xls, and an .xls renamed .csv', async () => {
    const xlsx = await workbook([['a'], [1]]);
    expect(await errorsOf('a.xls', xlsx)).toEqual(['a.xls: Nieprawidłowy rodzaj pliku']);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['a']]), 'A');
    const xls = XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect(await errorsOf('a.csv', xls)).toEqual(['a.csv: Nieprawidłowy rodzaj pliku']);
  });
});
