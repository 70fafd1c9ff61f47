import { describe, expect, it } from 'vitest';
import { buildFakeOru, normalPanel } from './fake-lab.js';
import type { FakeObservation, FakeOru } from './fake-lab.js';
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

  it('refuses an unknown analyte, a wrong unit and a text value type', () => {
    expect(refusal(withObservation({ code: 'CHOL', value: 1, unit: 'mg/dL' }))).toBe(
      'OBX 1: OBX-3 unknown analyte',
    );
    expect(refusal(withObservation({ code: 'ALT', value: 1, unit: 'mg/dL' }))).toBe(
      'OBX 1: OBX-6 wrong unit',
    );
    expect(refusal(withObservation({ code: 'CREA', value: 1, unit: 'umol/L' }))).toBe(
      'OBX 1: OBX-6 wrong unit',
    );
    expect(refusal(withObservation({ code: 'ALT', value: 1, unit: 'U/L', valueType: 'ST' }))).toBe(
      'OBX 1: OBX-2 value type must be NM',
    );
    expect(refusal(withObservation({ code: 'HSLD', value: 1, unit: 'min' }))).toBe(
      'OBX 1: OBX-6 unit must be h',
    );
  });

  it('refuses a wrong message type, a missing control id and a missing OBR-3', () => {
    expect(refusal(buildFakeOru(good({ messageType: 'ADT^A01' })))).toBe('MSH-9: not ORU^R01');
    expect(refusal(buildFakeOru(good({ controlId: '' })))).toBe(
      'MSH-10: control id missing or too long',
    );
    expect(refusal(buildFakeOru(good({ samples: [normalPanel('')] })))).toBe(
      'OBR-3: filler order number (sample code) missing',
    );
  });

  it('refuses wrong field counts', () => {
    const er7 = buildFakeOru(good());
    const longObx = er7.replace(/^(OBX\|1\|.*)$/m, (line) => `${line}${'|x'.repeat(30)}`);
    expect(refusal(longObx)).toBe('OBX (segment 4): wrong field count 44');
    const shortObx = er7.replace(/^OBX\|1\|.*$/m, 'OBX|1|NM|ALT||25');
    expect(refusal(shortObx)).toBe('OBX (segment 4): wrong field count 5');
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
    expect(refusal(buildFakeOru(good({ birthDate: '19751302' })))).toBe('PID-7: not a date');
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
