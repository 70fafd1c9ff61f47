import { describe, expect, it } from 'vitest';
import { buildFakeOru, normalPanel } from './fake-lab.js';
import type { FakeObservation, FakeOru } from './fake-lab.js';
import {
  nistStyleReport,
  polishLabReport,
  referenceLabReport,
  standardStyleReport,
} from './hl7-fixtures.js';
import { hl7Date, labRange, parseOru } from './hl7-parse.js';

const MEDICINES = [
  { id: 3, inn: 'amlodipine', cas: '111470-99-6' },
  { id: 9, inn: 'ramipril', cas: '87333-19-5' },
];

const good = (overrides: Partial<FakeOru> = {}): FakeOru => ({
  controlId: 'MSG-1',
  sex: 'F',
  birthDate: '19750102',
  samples: [normalPanel('P-0001')],
  ...overrides,
});

function refusal(er7: string) {
  const outcome = parseOru(er7, MEDICINES);
  if (outcome.ok) throw new Error('expected a refusal');
  return outcome.reason;
}

function withObservation(observation: FakeObservation): string {
  return buildFakeOru(good({ samples: [{ code: 'P-1', observations: [observation] }] }));
}

describe('parseOru', () => {
  it('maps a panel of several OBX: analytes, units, ranges, dates, patient', () => {
    const outcome = parseOru(buildFakeOru(good()), MEDICINES);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.oru.controlId).toBe('MSG-1');
    expect(outcome.oru.sendingFacility).toBe('SYNEVO-LAB');
    expect(
      outcome.oru.results.map((result) => [result.analyte, result.value, result.unit]),
    ).toEqual([
      ['alt', 25, 'U/l'],
      ['ast', 22, 'U/l'],
      ['creatine', 0.9, 'mg/dl'],
      ['bilirubine', 0.7, 'mg/dl'],
    ]);
    expect(outcome.oru.results[0]).toMatchObject({
      probeCode: 'P-0001',
      patientSex: 'K',
      patientBirthDate: '1975-01-02',
      dateOfAnalysis: '2026-11-23',
      labRange: { text: '10-40', min: 10, max: 40, unit: 'U/l' },
    });
    expect(outcome.oru.results[3]?.labRange).toEqual({
      text: '<1.2',
      min: null,
      max: 1.2,
      unit: 'mg/dl',
    });
  });

  it('maps drugs by CAS number or INN, with the hours of the HSLD observation', () => {
    const er7 = buildFakeOru(
      good({
        samples: [
          {
            code: 'P-2',
            observations: [
              { code: '111470-99-6', value: 8, unit: 'ng/mL', observedAt: '202611201030' },
              { code: 'RAMIPRIL', value: '3,5', unit: 'ug/L' },
              { code: 'HSLD', value: 12, unit: 'h' },
            ],
          },
        ],
      }),
    );
    const outcome = parseOru(er7, MEDICINES);
    expect(outcome.ok && outcome.oru.results).toMatchObject([
      { analyte: 'medicine_3', value: 8, unit: 'ng/ml', hours: 12, dateOfAnalysis: '2026-11-20' },
      { analyte: 'medicine_9', value: 3.5, unit: 'ng/ml', hours: 12 },
    ]);
  });

  it('accepts LF segment separators and MLLP framing', () => {
    const er7 = `\u000b${buildFakeOru(good()).replaceAll('\r', '\n')}\u001c\r`;
    expect(parseOru(er7, MEDICINES).ok).toBe(true);
  });

  it.each([
    ['NaN', 'NaN', 'OBX 1: OBX-5 not a number'],
    ['1e400', '1e400', 'OBX 1: OBX-5 not a number'],
    ['text', 'dodatni', 'OBX 1: OBX-5 not a number'],
    ['a negative value', '-3', 'OBX 1: OBX-5 not a number'],
    ['an implausible value', '1000000', 'OBX 1: OBX-5 out of the plausible range'],
    ['an empty value', '', 'OBX 1: OBX-5 not a number'],
  ])('refuses %s as a value', (_name, value, reason) => {
    expect(refusal(withObservation({ code: 'ALT', value, unit: 'U/L' }))).toBe(reason);
  });

  it('refuses a wrong unit and an unsupported value type; an unknown analyte waits by itself', () => {
    const unknown = parseOru(withObservation({ code: 'CHOL', value: 1, unit: 'mg/dL' }), MEDICINES);
    expect(unknown.ok && unknown.oru.unknown).toMatchObject([
      { code: 'CHOL', value: 1, unit: 'mg/dL', probeCode: 'P-1' },
    ]);
    expect(refusal(withObservation({ code: 'ALT', value: 1, unit: 'mg/dL' }))).toBe(
      'OBX 1: OBX-6 wrong unit',
    );
    expect(refusal(withObservation({ code: 'CREA', value: 1, unit: 'umol/L' }))).toBe(
      'OBX 1: OBX-6 wrong unit',
    );
    expect(refusal(withObservation({ code: 'ALT', value: 1, unit: 'U/L', valueType: 'DT' }))).toBe(
      'OBX 1: OBX-2 value type DT not supported',
    );
    expect(refusal(withObservation({ code: 'HSLD', value: 1, unit: 'min' }))).toBe(
      'OBX 1: OBX-6 unit must be h',
    );
  });

  it('refuses a wrong message type, a missing control id and a missing OBR-3', () => {
    expect(refusal(buildFakeOru(good({ messageType: 'ADT^A01' })))).toBe('MSH-9: not ORU');
    expect(refusal(buildFakeOru(good({ controlId: '' })))).toBe('MSH-10: control id missing');
    expect(refusal(buildFakeOru(good({ samples: [normalPanel('')] })))).toBe(
      'OBR-3: filler order number (sample code) missing',
    );
  });

  it('refuses wrong field counts', () => {
    const er7 = buildFakeOru(good());
    const longObx = er7.replace(/^(OBX\|1\|.*)$/m, (line) => `${line}${'|x'.repeat(30)}`);
    expect(refusal(longObx)).toBe('OBX (segment 4): wrong field count 44');
    const shortObx = er7.replace(/^OBX\|1\|.*$/m, 'OBX|1');
    expect(refusal(shortObx)).toBe('OBX (segment 4): wrong field count 1');
    const shortMsh = er7.replace(/^MSH.*$/m, 'MSH|^~\\&|SYNEVO|LAB|||20261124||ORU^R01|M1');
    expect(refusal(shortMsh)).toMatch(/^MSH \(segment 1\): wrong field count/);
  });

  it('refuses an unparsable message, an OBX before its OBR, a repeated analyte and bad dates', () => {
    expect(parseOru('PID|1', MEDICINES)).toMatchObject({
      ok: false,
      controlId: null,
      reason: 'unparsable message',
    });
    const er7 = buildFakeOru(good());
    expect(refusal(er7.replace(/\rOBR\|[^\r]*/, ''))).toBe('OBX before OBR');
    const twice = buildFakeOru(
      good({
        samples: [
          {
            code: 'P-1',
            observations: [
              { code: 'ALT', value: 1, unit: 'U/L' },
              { code: 'ALT', value: 2, unit: 'U/L' },
            ],
          },
        ],
      }),
    );
    expect(refusal(twice)).toBe('OBX 2: analyte repeated for one sample');
    // An unreadable birth date is not compared (seen in public examples), not a refusal.
    const badBirth = parseOru(buildFakeOru(good({ birthDate: '19751302' })), MEDICINES);
    expect(badBirth.ok && badBirth.oru.results[0]?.patientBirthDate).toBeNull();
    expect(refusal(withObservation({ code: 'ALT', value: 1, unit: 'U/L', observedAt: 'x' }))).toBe(
      'OBX 1: OBX-14: not a date',
    );
    expect(refusal(buildFakeOru(good({ samples: [] })))).toBe('no results (OBX) in the message');
  });

  it('keeps the control id of a refused message for the ACK', () => {
    const outcome = parseOru(buildFakeOru(good({ messageType: 'ORM^O01' })), MEDICINES);
    expect(outcome).toMatchObject({ ok: false, controlId: 'MSG-1' });
  });
});

describe('labRange and hl7Date', () => {
  it('reads the common range forms and keeps unreadable text without bounds', () => {
    expect(labRange('0,3 - 1,2', 'mg/dl')).toEqual({
      text: '0,3 - 1,2',
      min: 0.3,
      max: 1.2,
      unit: 'mg/dl',
    });
    expect(labRange('<=5', 'U/l')).toMatchObject({ min: null, max: 5 });
    expect(labRange('>10', 'U/l')).toMatchObject({ min: 10, max: null });
    expect(labRange('patrz komentarz', 'U/l')).toMatchObject({ min: null, max: null });
    expect(labRange('40-10', 'U/l')).toMatchObject({ min: null, max: null });
  });

  it('takes the calendar day of an HL7 timestamp', () => {
    expect(hl7Date('20261124', 'X')).toBe('2026-11-24');
    expect(hl7Date('202611242359+0100', 'X')).toBe('2026-11-24');
    expect(() => hl7Date('20260230', 'X')).toThrow('X: not a date');
  });
});

describe('messages as laboratories send them (ADR 033)', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const patient = { birthDate: '19750102', sex: 'F' as const };
  const parse = (er7: string) => {
    const outcome = parseOru(er7, MEDICINES, { now });
    if (!outcome.ok) throw new Error(`refused: ${outcome.reason}`);
    return outcome.oru;
  };
  const refused = (er7: string) => {
    const outcome = parseOru(er7, MEDICINES, { now });
    if (outcome.ok) throw new Error('expected a refusal');
    return outcome;
  };

  it.each([
    ['^182', 182, null],
    ['<^0.5', 0.5, { comparator: '<', upper: null }],
    ['<^0,5', 0.5, { comparator: '<', upper: null }],
    ['>^1000', 1000, { comparator: '>', upper: null }],
    ['<=^3', 3, { comparator: '<=', upper: null }],
    ['=^7', 7, null],
    ['^10^-^20', 10, { comparator: '-', upper: 20 }],
  ])('reads the structured number %s', (value, expected, comparator) => {
    const [result] = parse(
      withObservation({ code: 'ALT', value, unit: 'U/L', valueType: 'SN' }),
    ).results;
    expect(result?.value).toBe(expected);
    expect(result?.comparator).toEqual(comparator);
  });

  it('refuses structured numbers that are no value of ours', () => {
    for (const value of ['<>^5', '^1^:^128', '^20^-^10', '<^x']) {
      expect(
        refused(withObservation({ code: 'ALT', value, unit: 'U/L', valueType: 'SN' })).error.code,
      ).toBe(102);
    }
  });

  it('reads ST numbers as numbers and ST text as the result comment', () => {
    const oru = parse(
      buildFakeOru(
        good({
          samples: [
            {
              code: 'P-1',
              observations: [
                { code: 'ALT', value: '23,5', unit: 'U/L', valueType: 'ST' },
                { code: 'AST', value: '< 5', unit: 'U/L', valueType: 'ST' },
                { code: 'BIL', value: 'Hemoliza', unit: '', valueType: 'ST' },
              ],
            },
          ],
        }),
      ),
    );
    expect(oru.results.map((result) => [result.analyte, result.value, result.comparator])).toEqual([
      ['alt', 23.5, null],
      ['ast', 5, { comparator: '<', upper: null }],
    ]);
    expect(oru.comments.get('P-1')?.results.get('bilirubine')).toEqual(['Hemoliza']);
  });

  it('keeps the Polish laboratory report: comments, SN below the limit, an unknown analyte', () => {
    const oru = parse(
      polishLabReport({ controlId: 'PL-1', code: 'S-1', patient, charset: 'UNICODE UTF-8' }),
    );
    expect(oru.results.map((result) => [result.analyte, result.value])).toEqual([
      ['alt', 23.5],
      ['ast', 21],
      ['bilirubine', 0.5],
      ['creatine', 0.84],
    ]);
    const bilirubin = oru.results.find((result) => result.analyte === 'bilirubine');
    expect(bilirubin?.comparator).toEqual({ comparator: '<', upper: null });
    expect(bilirubin?.labRange).toMatchObject({ text: '(<1,2)', min: null, max: 1.2 });
    expect(oru.results[0]?.labRange).toMatchObject({ min: 10, max: 40 });
    const comments = oru.comments.get('S-1');
    expect(comments?.sample).toEqual(['Próbka lekko zhemolizowana.\nWynik potwierdzono.']);
    expect(comments?.results.get('bilirubine')).toEqual(['Wynik poniżej granicy oznaczalności.']);
    expect(comments?.results.get('creatine')).toEqual(['Oznaczenie metodą enzymatyczną.']);
    expect(oru.unknown).toMatchObject([
      { code: 'CHOL', value: 182, unit: 'mg/dl', rangeText: '<190', probeCode: 'S-1' },
    ]);
  });

  it('keeps the reference laboratory report (v2.3, CE results, OBX-11 X, NTE, Z segment)', () => {
    const oru = parse(referenceLabReport('LC-1', 'S-2', patient));
    expect(oru.results.map((result) => [result.analyte, result.value])).toEqual([
      ['creatine', 0.9],
    ]);
    expect(oru.unknown).toEqual([]);
    const comments = oru.comments.get('S-2');
    expect(comments?.results.get('bilirubine')).toEqual([
      'Sample hemolysed & lipemic; bilirubin not reported.',
    ]);
    expect(comments?.sample).toEqual([
      'HIV-1 ABS, SEMI-QN: Negative',
      'Result: NEGATIVE by EIA screen.',
      'No antibodies to HIV-1 detected.',
      '169999: SPRCS',
      'NOTE: Submission of serum',
      'separator tube recommended.',
    ]);
  });

  it('reads the standard example (v2.4, SN, 10_40) and the NIST layout (v2.5.1, SFT, SPM)', () => {
    const standard = parse(standardStyleReport('GHH-1', 'S-3', patient));
    expect(
      standard.results.map((result) => [result.probeCode, result.analyte, result.value]),
    ).toEqual([
      ['S-3', 'alt', 182],
      ['S-3', 'ast', 35],
    ]);
    expect(standard.results[0]?.labRange).toMatchObject({ text: '10_40', min: 10, max: 40 });
    const nist = parse(nistStyleReport('NIST-1', 'S-4', patient, { alt: '30', ast: '25' }));
    expect(nist.results.map((result) => [result.probeCode, result.analyte, result.value])).toEqual([
      ['S-4', 'alt', 30],
      ['S-4', 'ast', 25],
    ]);
  });

  it('decodes escapes in codes, units, ranges and comments', () => {
    const er7 = [
      'MSH|^~\\&|LAB|FAC|PORTAL|KARDIO|20261125||ORU^R01|E\\F\\1|P|2.5',
      'PID|1||X||||19750102|F',
      'OBR|1||A\\S\\B\\T\\C\\R\\D\\E\\E',
      'NTE|1||Uwaga: 1\\F\\2 \\X41\\',
      'OBX|1|NM|ALT||25|U/l|10-40',
    ].join('\r');
    const oru = parse(er7);
    expect(oru.controlId).toBe('E\\F\\1');
    expect(oru.results[0]?.probeCode).toBe('A^B&C~D\\E');
    expect(oru.comments.get('A^B&C~D\\E')?.sample).toEqual(['Uwaga: 1|2 A']);
  });

  it('refuses an OBX-14 or OBR-7 more than 10 minutes ahead, with the location', () => {
    const soon = '202611261305'; // 13:05 Warsaw = 12:05 UTC: within the skew
    expect(
      parse(withObservation({ code: 'ALT', value: 1, unit: 'U/L', observedAt: soon })).results,
    ).toHaveLength(1);
    const later = refused(
      withObservation({ code: 'ALT', value: 1, unit: 'U/L', observedAt: '202611261400+0100' }),
    );
    expect(later.error).toMatchObject({
      code: 102,
      text: 'OBX 1: OBX-14: in the future',
      location: { segment: 'OBX', sequence: 1, field: 14 },
    });
    const tomorrow = refused(
      buildFakeOru(good({ samples: [{ ...normalPanel('P-1'), observedAt: '20261127' }] })),
    );
    expect(tomorrow.error).toMatchObject({ code: 102, location: { segment: 'OBR', field: 7 } });
  });

  it('answers AR for a type, event, version or processing id it does not take', () => {
    const base = buildFakeOru(good());
    const swap = (from: string, to: string) => refused(base.replace(from, to));
    expect(swap('ORU^R01^ORU_R01', 'ADT^A01^ADT_A01')).toMatchObject({
      ackCode: 'AR',
      error: { code: 200 },
    });
    expect(swap('ORU^R01^ORU_R01', 'ORU^R30^ORU_R30')).toMatchObject({
      ackCode: 'AR',
      error: { code: 201 },
    });
    expect(swap('|P|2.5', '|P|2.2')).toMatchObject({ ackCode: 'AR', error: { code: 203 } });
    expect(swap('|P|2.5', '|T|2.5')).toMatchObject({ ackCode: 'AR', error: { code: 202 } });
    for (const version of ['2.3', '2.3.1', '2.4', '2.5.1']) {
      expect(parseOru(base.replace('|P|2.5', `|P|${version}`), MEDICINES, { now }).ok).toBe(true);
    }
  });
});

describe('labRange as laboratories write it', () => {
  it.each([
    ['10-40', 10, 40],
    ['70_105', 70, 105],
    ['3.5 - 5.1', 3.5, 5.1],
    ['3,5 – 5,1', 3.5, 5.1],
    ['0,6-1,2 mg/dl', 0.6, 1.2],
    ['[10;40]', 10, 40],
    ['<1.0', null, 1],
    ['(<1.0)', null, 1],
    ['<= 1,5', null, 1.5],
    ['>5', 5, null],
    ['(>60)', 60, null],
    ['patrz opis', null, null],
  ])('%s', (text, min, max) => {
    expect(labRange(text, 'U/l')).toEqual({ text, min, max, unit: 'U/l' });
  });
});
