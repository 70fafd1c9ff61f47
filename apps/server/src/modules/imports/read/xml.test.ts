import { describe, expect, it } from 'vitest';
import { readImportFiles } from './read-import-files.js';
import { ImportReadError } from './types.js';

async function read(xml: string, drugCodes?: ReadonlyMap<string, number>) {
  const tables = await readImportFiles([{ name: 'wyniki.xml', data: Buffer.from(xml, 'utf8') }], {
    drugCodes,
  });
  expect(tables).toHaveLength(1);
  return tables[0]!;
}

async function errorsOf(xml: string): Promise<string[]> {
  try {
    await readImportFiles([{ name: 'a.xml', data: Buffer.from(xml, 'utf8') }]);
  } catch (error) {
    if (error instanceof ImportReadError) return error.errors;
    throw error;
  }
  throw new Error('the read succeeded');
}

const utc = (y: number, m: number, d: number): Date => new Date(Date.UTC(y, m - 1, d));

const obx = (code: string, value: string, unit: string, range = '', date = ''): string => `
      <ORU_R01.OBSERVATION>
        <OBX><OBX.1>1</OBX.1><OBX.2>NM</OBX.2><OBX.3><CE.1>${code}</CE.1><CE.2>${code}</CE.2></OBX.3>
          <OBX.5>${value}</OBX.5><OBX.6><CE.1>${unit}</CE.1></OBX.6><OBX.7>${range}</OBX.7>
          <OBX.11>F</OBX.11>${date ? `<OBX.14><TS.1>${date}</TS.1></OBX.14>` : ''}</OBX>
      </ORU_R01.OBSERVATION>`;

const HL7_XML = `<?xml version="1.0" encoding="UTF-8"?>
<ORU_R01 xmlns="urn:hl7-org:v2xml">
  <MSH><MSH.1>|</MSH.1><MSH.2>^~\\&amp;</MSH.2><MSH.9><MSG.1>ORU</MSG.1><MSG.2>R01</MSG.2></MSH.9>
    <MSH.10>MSG-1</MSH.10><MSH.12><VID.1>2.5</VID.1></MSH.12></MSH>
  <ORU_R01.PATIENT_RESULT>
    <ORU_R01.PATIENT><PID><PID.3><CX.1>1</CX.1></PID.3><PID.7><TS.1>19800115</TS.1></PID.7><PID.8>F</PID.8></PID></ORU_R01.PATIENT>
    <ORU_R01.ORDER_OBSERVATION>
      <OBR><OBR.1>1</OBR.1><OBR.3><EI.1>P-0001</EI.1></OBR.3><OBR.7><TS.1>202611030815</TS.1></OBR.7></OBR>${obx('ALT', '42', 'U/L', '10-40', '20261104')}${obx('AMLODIPINE', '5,5', 'ng/ml')}${obx('HSLD', '2', 'h')}
    </ORU_R01.ORDER_OBSERVATION>
  </ORU_R01.PATIENT_RESULT>
</ORU_R01>`;

describe('HL7 v2 XML', () => {
  it('reads each OBX as a row of the results layout, the row being its line', async () => {
    const table = await read(HL7_XML, new Map([['AMLODIPINE', 7]]));
    expect(table.kind).toBe('hl7');
    expect(table.columns).toEqual([
      'probe_code',
      'analyte',
      'value',
      'unit',
      'date_of_analysis',
      'hours',
      'lab_range',
      'patient_sex',
      'patient_birth_date',
    ]);
    expect(table.rows).toEqual([
      {
        file: 'wyniki.xml',
        row: 10,
        values: {
          probe_code: 'P-0001',
          analyte: 'alt',
          value: '42',
          unit: 'U/L',
          date_of_analysis: utc(2026, 11, 4),
          hours: null,
          lab_range: '10-40',
          patient_sex: 'K',
          patient_birth_date: utc(1980, 1, 15),
        },
      },
      {
        file: 'wyniki.xml',
        row: 15,
        values: {
          probe_code: 'P-0001',
          analyte: '7',
          value: '5,5',
          unit: 'ng/ml',
          date_of_analysis: new Date(Date.UTC(2026, 10, 3, 8, 15)),
          hours: '2',
          lab_range: null,
          patient_sex: 'K',
          patient_birth_date: utc(1980, 1, 15),
        },
      },
    ]);
  });

  it('keeps an unknown analyte code for the validation to name', async () => {
    const table = await read(HL7_XML);
    expect(table.rows[1]!.values.analyte).toBe('AMLODIPINE');
  });

  it('refuses another message type', async () => {
    expect(await errorsOf(HL7_XML.replace('<MSG.2>R01', '<MSG.2>R03'))).toEqual([
      'a.xml: MSH-9: oczekiwano komunikatu ORU^R01, jest ORU^R03',
    ]);
  });
});

const ODM = `<?xml version="1.0" encoding="UTF-8"?>
<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" ODMVersion="1.3.2" FileType="Snapshot" FileOID="F.1" CreationDateTime="2026-11-24T06:00:00">
  <Study OID="ST.FDC-KARDIO">
    <GlobalVariables><StudyName>FDC</StudyName><StudyDescription>x</StudyDescription><ProtocolName>x</ProtocolName></GlobalVariables>
    <BasicDefinitions>
      <MeasurementUnit OID="MU.U_L" Name="U/l"><Symbol><TranslatedText xml:lang="pl">U/l</TranslatedText></Symbol></MeasurementUnit>
      <MeasurementUnit OID="MU.NG_ML" Name="ng/ml"><Symbol><TranslatedText xml:lang="pl">ng/ml</TranslatedText></Symbol></MeasurementUnit>
    </BasicDefinitions>
    <MetaDataVersion OID="MDV.1" Name="1">
      <ItemDef OID="IT.ALT" Name="ALT" DataType="float"><MeasurementUnitRef MeasurementUnitOID="MU.U_L"/></ItemDef>
      <ItemDef OID="IT.DRUG_3" Name="Drug" DataType="float"><MeasurementUnitRef MeasurementUnitOID="MU.NG_ML"/></ItemDef>
    </MetaDataVersion>
  </Study>
  <ClinicalData StudyOID="ST.FDC-KARDIO" MetaDataVersionOID="MDV.1">
    <SubjectData SubjectKey="12">
      <StudyEventData StudyEventOID="SE.PATIENT"><FormData FormOID="F.PATIENT">
        <ItemGroupData ItemGroupOID="IG.PATIENT"><ItemData ItemOID="IT.SEX" Value="K"/></ItemGroupData>
      </FormData></StudyEventData>
      <StudyEventData StudyEventOID="SE.SAMPLES"><FormData FormOID="F.SAMPLES">
        <ItemGroupData ItemGroupOID="IG.SAMPLE" ItemGroupRepeatKey="5">
          <ItemData ItemOID="IT.PROBE_CODE" Value="P&amp;&#x105;-0005"/>
          <ItemData ItemOID="IT.MATERIAL" Value="blood"/>
          <ItemData ItemOID="IT.ALT" Value="12.5"/>
          <ItemData ItemOID="IT.DRUG_3" Value="4.25"/>
          <ItemData ItemOID="IT.HOURS" Value="3"/>
          <ItemData ItemOID="IT.DATE_OF_ANALYSIS" Value="2026-11-02"/>
        </ItemGroupData>
      </FormData></StudyEventData>
    </SubjectData>
  </ClinicalData>
</ODM>`;

describe('CDISC ODM 1.3', () => {
  it('reads each result of each IG.SAMPLE as a row, units from the metadata', async () => {
    const table = await read(ODM);
    expect(table.kind).toBe('odm');
    const common = {
      probe_code: 'P&ą-0005',
      date_of_analysis: utc(2026, 11, 2),
      lab_range: null,
      patient_sex: null,
      patient_birth_date: null,
    };
    expect(table.rows).toEqual([
      {
        file: 'wyniki.xml',
        row: 20,
        values: { ...common, analyte: 'alt', value: '12.5', unit: 'U/l', hours: null },
      },
      {
        file: 'wyniki.xml',
        row: 20,
        values: { ...common, analyte: '3', value: '4.25', unit: 'ng/ml', hours: '3' },
      },
    ]);
  });

  it('names an unknown item and a wrong date', async () => {
    const bad = ODM.replace('IT.MATERIAL', 'IT.COLOUR').replace('2026-11-02', '2026-02-30');
    expect(await errorsOf(bad)).toEqual([
      'a.xml, wiersz 20, kolumna IT.DATE_OF_ANALYSIS: nieprawidłowa data analizy „2026-02-30”',
      'a.xml, wiersz 20: nieznany element IT.COLOUR',
    ]);
  });
});

const RESULTS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Wyniki z laboratorium: każdy <wynik> to wiersz szablonu <![CDATA[ <wynik> ]]> -->
<wyniki xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <wynik>
    <probe_code>P&amp;&#x105;-1</probe_code>
    <analyte>alt</analyte>
    <value>41,5</value>
    <unit>U/l</unit>
    <date_of_analysis>03.11.2026</date_of_analysis>
    <hours/>
    <lab_range>0-40</lab_range>
  </wynik>
  <wynik><analyte>7</analyte><probe_code> P-2 </probe_code><value>120</value><unit>ng/ml</unit><hours>12</hours>
    <date_of_analysis>2026-11-03</date_of_analysis><patient_sex>K</patient_sex><patient_birth_date>1980-01-15</patient_birth_date></wynik>
  <wynik/>
</wyniki>`;

describe('the results template as XML', () => {
  const blank = Object.fromEntries(
    [
      'probe_code',
      'analyte',
      'value',
      'unit',
      'date_of_analysis',
      'hours',
      'lab_range',
      'patient_sex',
      'patient_birth_date',
    ].map((column) => [column, null]),
  );

  it('reads each <wynik> as a row of the results layout, cells as typed, the row being its line', async () => {
    const table = await read(RESULTS_XML);
    expect(table.kind).toBe('results-xml');
    expect(table.columns).toEqual(Object.keys(blank));
    expect(table.rows).toEqual([
      {
        file: 'wyniki.xml',
        row: 4,
        values: {
          ...blank,
          probe_code: 'P&ą-1',
          analyte: 'alt',
          value: '41,5',
          unit: 'U/l',
          date_of_analysis: '03.11.2026',
          lab_range: '0-40',
        },
      },
      {
        file: 'wyniki.xml',
        row: 13,
        values: {
          ...blank,
          probe_code: 'P-2',
          analyte: '7',
          value: '120',
          unit: 'ng/ml',
          hours: '12',
          date_of_analysis: '2026-11-03',
          patient_sex: 'K',
          patient_birth_date: '1980-01-15',
        },
      },
      { file: 'wyniki.xml', row: 15, values: blank },
    ]);
  });

  it('names an unknown element once, at its first row, with the elements a result has', async () => {
    const bad = RESULTS_XML.replace('<hours/>', '<glukoza>5</glukoza>').replace(
      '<hours>12</hours>',
      '<glukoza>6</glukoza>',
    );
    expect(await errorsOf(bad)).toEqual([
      'a.xml, wiersz 4: nieznany element <glukoza> (wynik ma elementy: probe_code, analyte, value, unit, date_of_analysis, hours, lab_range, patient_sex, patient_birth_date)',
    ]);
  });

  it('refuses attributes, repeated or nested elements, stray text and other records', async () => {
    const bad = `<wyniki>
  <wynik value="3"><probe_code>P-1</probe_code><analyte>alt</analyte></wynik>
  <wynik><probe_code>P-1</probe_code><value>1</value><value>2</value></wynik>
  <wynik><value unit="U/l">3</value><unit><symbol>U/l</symbol></unit>tekst</wynik>
  <pacjent><pesel>1</pesel></pacjent>
</wyniki>`;
    expect(await errorsOf(bad)).toEqual([
      'a.xml, wiersz 2: nieznany element <pacjent> (w <wyniki> są tylko elementy <wynik>)',
      'a.xml, wiersz 2: atrybut value w <wynik>: wartości podaje się w elementach',
      'a.xml, wiersz 3, kolumna value: element <value> powtórzony w wyniku',
      'a.xml, wiersz 4, kolumna value: element <value> ma atrybuty: wartość podaje się jako jego tekst',
      'a.xml, wiersz 4, kolumna unit: element <unit> zawiera inne elementy (<symbol>)',
      'a.xml, wiersz 4: tekst poza elementami w <wynik>',
    ]);
  });

  it('refuses a file without results, and more results than the limit', async () => {
    expect(await errorsOf('<wyniki>\n</wyniki>')).toEqual([
      'a.xml: plik nie zawiera żadnych wierszy danych (elementów <wynik>)',
    ]);
    const many = `<wyniki>${'<wynik><value>1</value></wynik>'.repeat(3)}</wyniki>`;
    await expect(
      readImportFiles([{ name: 'a.xml', data: Buffer.from(many) }], { maxRows: 2 }),
    ).rejects.toEqual(new ImportReadError(['a.xml: plik ma więcej niż 2 wyników']));
  });

  it('refuses a DOCTYPE and entities like every XML', async () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE wyniki [<!ENTITY kod SYSTEM "file:///etc/passwd">]>
<wyniki><wynik><probe_code>&kod;</probe_code></wynik></wyniki>`;
    expect(await errorsOf(xml)).toEqual([
      'a.xml: plik XML zawiera deklarację DOCTYPE lub ENTITY, której import nie przyjmuje (chroni to przed atakami przez encje XML)',
    ]);
  });
});

describe('hostile XML', () => {
  const refused =
    'a.xml: plik XML zawiera deklarację DOCTYPE lub ENTITY, której import nie przyjmuje (chroni to przed atakami przez encje XML)';

  it('refuses a DOCTYPE before parsing', async () => {
    expect(await errorsOf('<?xml version="1.0"?><!DOCTYPE ODM><ODM/>')).toEqual([refused]);
  });

  it('refuses an external entity', async () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE ODM [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<ODM><ClinicalData>&xxe;</ClinicalData></ODM>`;
    expect(await errorsOf(xml)).toEqual([refused]);
  });

  it('refuses a billion laughs', async () => {
    const entities = ['<!ENTITY lol0 "lol">'];
    for (let i = 1; i <= 9; i += 1)
      entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?><!DOCTYPE lolz [${entities.join('')}]><ODM>&lol9;</ODM>`;
    expect(await errorsOf(xml)).toEqual([refused]);
  });

  it('refuses malformed XML with its line, and an unknown root', async () => {
    expect(await errorsOf('<ODM>\n<ClinicalData>\n</ODM>')).toEqual([
      expect.stringMatching(/^a\.xml, wiersz 3: nieprawidłowy XML: /) as string,
    ]);
    expect(await errorsOf('<html><body/></html>')).toEqual([
      'a.xml: nieznany rodzaj pliku XML (import przyjmuje HL7 v2 XML ORU^R01, CDISC ODM 1.3 albo wyniki w układzie szablonu: <wyniki>)',
    ]);
  });
});
