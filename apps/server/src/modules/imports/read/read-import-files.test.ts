import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildZip } from '../../../test/zip-fixture.js';
import { readImportFiles } from './read-import-files.js';
import { ErrorList } from './error-list.js';
import { readZip } from './zip.js';
import { ImportReadError } from './types.js';
import type { ImportTable, ReadOptions, UploadedFile } from './types.js';

const RESULT_HEADER = ['probe_code', 'analyte', 'value', 'unit', 'date_of_analysis', 'hours'];

async function xlsx(
  rows: unknown[][],
  build?: (sheet: ExcelJS.Worksheet) => void,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Dane');
  for (const row of rows) sheet.addRow(row);
  build?.(sheet);
  workbook.addWorksheet('Opis').addRow(['to nie jest czytane']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function csv(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** The errors a read throws (fails the test when it does not throw). */
async function readErrors(files: UploadedFile[], options?: ReadOptions): Promise<string[]> {
  try {
    await readImportFiles(files, options);
  } catch (error) {
    if (error instanceof ImportReadError) return error.errors;
    throw error;
  }
  throw new Error('the read succeeded');
}

async function readOne(name: string, data: Buffer): Promise<ImportTable> {
  const tables = await readImportFiles([{ name, data }]);
  expect(tables).toHaveLength(1);
  return tables[0]!;
}

describe('csv', () => {
  it('reads a comma-separated file with quotes, the header being row 1', async () => {
    const table = await readOne(
      'wyniki.csv',
      csv('probe_code,analyte,value\r\nP-1,alt,"12,5"\r\n"P ""2""",ast,"a\nb"\r\n'),
    );
    expect(table).toMatchObject({ file: 'wyniki.csv', kind: 'table' });
    expect(table.columns).toEqual(['probe_code', 'analyte', 'value']);
    expect(table.rows).toEqual([
      { file: 'wyniki.csv', row: 2, values: { probe_code: 'P-1', analyte: 'alt', value: '12,5' } },
      {
        file: 'wyniki.csv',
        row: 3,
        values: { probe_code: 'P "2"', analyte: 'ast', value: 'a\nb' },
      },
    ]);
  });

  it('sniffs a semicolon separator and drops a BOM', async () => {
    const table = await readOne('a.csv', csv('\uFEFFprobe_code;value;hours\nP-1;1,5;\n;;\n'));
    expect(table.columns).toEqual(['probe_code', 'value', 'hours']);
    expect(table.rows).toEqual([
      { file: 'a.csv', row: 2, values: { probe_code: 'P-1', value: '1,5', hours: null } },
    ]);
  });

  it('reads Windows-1250 when the file is not UTF-8', async () => {
    // "Łódź" in Windows-1250.
    const data = Buffer.concat([csv('city\n'), Buffer.from([0xa3, 0xf3, 0x64, 0x9f]), csv('\n')]);
    const table = await readOne('a.csv', data);
    expect(table.rows[0]!.values).toEqual({ city: 'Łódź' });
  });

  it('keeps cells starting with = + - @ or a tab as text', async () => {
    const table = await readOne(
      'a.csv',
      csv('a,b,c,d,e\n"=HYPERLINK(""http://x"",""x"")",@SUM(A1),+48,-1,\tx\n'),
    );
    expect(table.rows[0]!.values).toEqual({
      a: '=HYPERLINK("http://x","x")',
      b: '@SUM(A1)',
      c: '+48',
      d: '-1',
      e: '\tx',
    });
  });

  it('lists every malformed quote with its row and column', async () => {
    const errors = await readErrors([
      { name: 'zle.csv', data: csv('a,b\nx,y"z\n"p"q,r\nok,ok\n"otwarty,1\n2,3\n') },
    ]);
    expect(errors).toEqual([
      'zle.csv, wiersz 2, kolumna 2: cudzysłów wewnątrz pola bez cudzysłowów',
      'zle.csv, wiersz 3, kolumna 1: tekst po zamykającym cudzysłowie',
      'zle.csv, wiersz 5, kolumna 1: cudzysłów otwarty i niezamknięty do końca pliku',
    ]);
  });

  it('refuses a value under a column without a name', async () => {
    const errors = await readErrors([{ name: 'a.csv', data: csv('a,b\n1,2,3\n') }]);
    expect(errors).toEqual(['a.csv, wiersz 2, kolumna 3: wartość w kolumnie bez nazwy']);
  });

  it('reads 10,000 rows, and lists a bad row at 9,999', async () => {
    const lines = ['probe_code,analyte,value'];
    for (let i = 2; i <= 10_001; i += 1) lines.push(`P-${i},alt,${i}`);
    const good = await readOne('duzy.csv', csv(lines.join('\n')));
    expect(good.rows).toHaveLength(10_000);
    expect(good.rows.at(-1)).toEqual({
      file: 'duzy.csv',
      row: 10_001,
      values: { probe_code: 'P-10001', analyte: 'alt', value: '10001' },
    });
    lines[9_998] = 'P-9999,alt,"9"9';
    const errors = await readErrors([{ name: 'duzy.csv', data: csv(lines.join('\n')) }]);
    expect(errors).toEqual(['duzy.csv, wiersz 9999, kolumna 3: tekst po zamykającym cudzysłowie']);
  });
});

describe('xlsx', () => {
  it('reads the first sheet: numbers as numbers, dates as dates, text as text', async () => {
    const date = new Date(Date.UTC(2026, 10, 3));
    const data = await xlsx([RESULT_HEADER, ['P-1', 'alt', 12.5, 'U/l', date, null]]);
    const table = await readOne('wyniki.xlsx', data);
    expect(table.columns).toEqual(RESULT_HEADER);
    expect(table.rows).toEqual([
      {
        file: 'wyniki.xlsx',
        row: 2,
        values: {
          probe_code: 'P-1',
          analyte: 'alt',
          value: 12.5,
          unit: 'U/l',
          date_of_analysis: date,
          hours: null,
        },
      },
    ]);
  });

  it('keeps text cells starting with = + - @ or a tab as text, and takes a formula’s cached result', async () => {
    const data = await xlsx([['a', 'b', 'c', 'd', 'e', 'f']], (sheet) => {
      sheet.addRow(['=HYPERLINK("http://x","x")', '@SUM(A1)', '+48', '-1', '\tx']);
      sheet.getCell('F2').value = { formula: '1+1', result: 2 };
      sheet.getCell('F3').value = { formula: 'HYPERLINK("http://x","klik")', result: 'klik' };
    });
    const table = await readOne('a.xlsx', data);
    expect(table.rows[0]!.values).toEqual({
      a: '=HYPERLINK("http://x","x")',
      b: '@SUM(A1)',
      c: '+48',
      d: '-1',
      e: '\tx',
      f: 2,
    });
    expect(table.rows[1]!.values.f).toBe('klik');
  });

  it('refuses a formula without a cached result rather than reading it as empty', async () => {
    const data = await xlsx([['a']], (sheet) => {
      sheet.getCell('A2').value = { formula: 'NOW()', date1904: false };
    });
    const errors = await readErrors([{ name: 'a.xlsx', data }]);
    expect(errors).toEqual([
      'a.xlsx, wiersz 2, kolumna A: formuła bez zapisanego wyniku (zapisz plik w Excelu, aby go obliczyć)',
    ]);
  });

  /**
   * The same workbook with its sheets stored after the shared strings and the list of sheets
   * (xl/workbook.xml) last: exceljs's streaming reader then throws every time (exceljs#3064; on
   * exceljs's own files it happens at random).
   */
  async function sheetsBeforeTheirList(data: Buffer): Promise<Buffer> {
    const entries = await readZip(
      'a.xlsx',
      data,
      { maxEntries: 100, maxEntryBytes: 1e8, maxTotalBytes: 1e8 },
      new ErrorList(10),
    );
    const rank = (name: string) =>
      name === 'xl/workbook.xml' ? 2 : name.startsWith('xl/worksheets/') ? 1 : 0;
    return buildZip([...entries!].sort((a, b) => rank(a.name) - rank(b.name)));
  }

  it('reads a workbook the streaming reader fails on whole, with the same rows and errors', async () => {
    const data = await xlsx([RESULT_HEADER, ['P-1', 'alt', 12.5, 'U/l', null, null]], (sheet) => {
      sheet.getCell('A3').value = { formula: 'NOW()', date1904: false };
      sheet.getCell('B3').value = 'ast';
    });
    const reordered = await sheetsBeforeTheirList(data);
    expect(
      (
        await readOne(
          'a.xlsx',
          await sheetsBeforeTheirList(await xlsx([RESULT_HEADER, ['P-1', 'alt', 12.5]])),
        )
      ).rows[0]!.values,
    ).toMatchObject({ probe_code: 'P-1', analyte: 'alt', value: 12.5 });
    // Both ways give the same errors, once each: the failed attempt's are dropped.
    expect(await readErrors([{ name: 'a.xlsx', data: reordered }])).toEqual(
      await readErrors([{ name: 'a.xlsx', data }]),
    );
  });

  it('refuses such a workbook as damaged when it is too large to read whole', async () => {
    const reordered = await sheetsBeforeTheirList(await xlsx([RESULT_HEADER, ['P-1', 'alt', 1]]));
    expect(
      await readErrors([{ name: 'a.xlsx', data: reordered }], { maxWholeWorkbookBytes: 1_000 }),
    ).toEqual(['a.xlsx: nie udało się odczytać arkusza (uszkodzony plik Excel)']);
  });

  it('reads a workbook whose sheets wait in temporary files, many times, with no stray error', async () => {
    // exceljs keeps sheets stored before the shared strings (as in its own files) in temporary
    // files; a sheet passed unread used to lose its file before it opened, and the ENOENT was
    // thrown where nothing could catch it, about once in a hundred reads (Vitest fails the run
    // on such an error).
    const data = await xlsx([RESULT_HEADER, ['P-1', 'alt', 1]]);
    for (let i = 0; i < 300; i += 1) expect((await readOne('a.xlsx', data)).rows).toHaveLength(1);
  });

  it('reads 10,000 rows', async () => {
    const rows: unknown[][] = [RESULT_HEADER];
    for (let i = 0; i < 10_000; i += 1)
      rows.push([`P-${i}`, 'alt', i, 'U/l', new Date(Date.UTC(2026, 0, 1)), 2]);
    const table = await readOne('duzy.xlsx', await xlsx(rows));
    expect(table.rows).toHaveLength(10_000);
    expect(table.rows[9_997]!.row).toBe(9_999);
  });
});

describe('types and sizes', () => {
  it('refuses an .exe renamed .xlsx', async () => {
    const exe = Buffer.alloc(512);
    exe.write('MZ', 0, 'latin1');
    exe.writeUInt32LE(0x80, 0x3c);
    exe.write('PE\0\0', 0x80, 'latin1');
    expect(await readErrors([{ name: 'wyniki.xlsx', data: exe }])).toEqual([
      'wyniki.xlsx: Nieprawidłowy rodzaj pliku',
    ]);
  });

  it('refuses an extension the import does not take, and an empty file', async () => {
    expect(
      await readErrors([
        { name: 'a.txt', data: csv('a\n1\n') },
        { name: 'b.csv', data: Buffer.alloc(0) },
      ]),
    ).toEqual(['a.txt: Nieprawidłowy rodzaj pliku', 'b.csv: plik jest pusty']);
  });

  it('refuses files over the size limits before reading them', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024, 0x61);
    expect(await readErrors([{ name: 'a.csv', data: big }])).toEqual([
      'a.csv: plik jest za duży (najwięcej 20 MB)',
    ]);
    const files = Array.from({ length: 6 }, (_, i) => ({
      name: `${i}.csv`,
      data: Buffer.alloc(19 * 1024 * 1024, 0x61),
    }));
    expect(await readErrors(files)).toEqual([
      'Przesłane pliki: razem są za duże (114 MB, najwięcej 100 MB)',
    ]);
  });

  it('lists at most maxErrors errors, then how many more', async () => {
    const lines = ['a'];
    for (let i = 0; i < 30; i += 1) lines.push('x"y');
    const errors = await readErrors([{ name: 'a.csv', data: csv(lines.join('\n')) }], {
      maxErrors: 10,
    });
    expect(errors).toHaveLength(11);
    expect(errors.at(-1)).toBe('… i 20 więcej');
  });
});

describe('zip', () => {
  it('reads every entry as its own table, named inside the zip', async () => {
    const zip = buildZip([
      { name: 'dane/', data: Buffer.alloc(0), store: true },
      { name: 'dane/a.csv', data: csv('a\n1\n') },
      { name: 'b.xlsx', data: await xlsx([['b'], [2]]), store: true },
    ]);
    const tables = await readImportFiles([{ name: 'paczka.zip', data: zip }]);
    expect(tables.map((t) => [t.file, t.rows[0]!.values])).toEqual([
      ['paczka.zip/dane/a.csv', { a: '1' }],
      ['paczka.zip/b.xlsx', { b: 2 }],
    ]);
    expect(tables[0]!.rows[0]!.file).toBe('paczka.zip/dane/a.csv');
  });
});
