import { describe, expect, it } from 'vitest';
import { isOutOfNorm, rangeFor, upperLimitOfNormal } from './reference-ranges.js';
import type { ReferenceRange, ReferenceRangeRow } from './reference-ranges.js';

const rows: ReferenceRangeRow[] = [
  { kind: 'biochemistry', analyte: 'alt', unit: 'U/l', sex: 'M', min: 9, max: 59, below: null },
  { kind: 'biochemistry', analyte: 'alt', unit: 'U/l', sex: 'K', min: 8, max: 41, below: null },
  {
    kind: 'biochemistry',
    analyte: 'bilirubine',
    unit: 'mg/dl',
    sex: null,
    min: null,
    max: null,
    below: 1.2,
  },
  { kind: 'ecg', analyte: 'qtcb', unit: 'ms', sex: null, min: null, max: 455, below: null },
  { kind: 'ecg', analyte: 'qtcb', unit: 'ms', sex: 'K', min: null, max: 460, below: null },
  { kind: 'drug', analyte: 'amlodipine', unit: 'ng/ml', sex: null, min: 6, max: 18, below: null },
];

describe('rangeFor', () => {
  it('picks the range of the patient’s sex', () => {
    expect(rangeFor(rows, 'biochemistry', 'alt', 'M')).toEqual({
      unit: 'U/l',
      min: 9,
      max: 59,
      below: null,
    });
    expect(rangeFor(rows, 'biochemistry', 'alt', 'K')).toMatchObject({ min: 8, max: 41 });
  });

  it('prefers a sex-specific row over one for both sexes, and falls back to it', () => {
    expect(rangeFor(rows, 'ecg', 'qtcb', 'K')?.max).toBe(460);
    expect(rangeFor(rows, 'ecg', 'qtcb', 'M')?.max).toBe(455);
    expect(rangeFor(rows, 'biochemistry', 'bilirubine', 'K')).toEqual({
      unit: 'mg/dl',
      min: null,
      max: null,
      below: 1.2,
    });
  });

  it('answers null for an unknown analyte or another kind', () => {
    expect(rangeFor(rows, 'biochemistry', 'ggt', 'M')).toBeNull();
    expect(rangeFor(rows, 'drug', 'alt', 'M')).toBeNull();
    expect(rangeFor([], 'biochemistry', 'alt', 'M')).toBeNull();
  });
});

describe('isOutOfNorm', () => {
  const alt: ReferenceRange = { unit: 'U/l', min: 9, max: 59, below: null };
  const bilirubin: ReferenceRange = { unit: 'mg/dl', min: null, max: null, below: 1.2 };
  const qrs: ReferenceRange = { unit: 'ms', min: null, max: 110, below: null };
  const floor: ReferenceRange = { unit: 'x', min: 5, max: null, below: null };

  it.each([
    [alt, 9, false], // the bounds belong to the range
    [alt, 59, false],
    [alt, 8.99, true],
    [alt, 59.01, true],
    [alt, 0, true],
    [bilirubin, 1.19, false],
    [bilirubin, 1.2, true], // a "<" limit: equal to it is not below it
    [bilirubin, 3, true],
    [bilirubin, 0, false],
    [qrs, 0, false], // no lower bound
    [qrs, 111, true],
    [floor, 1_000_000, false], // no upper bound
    [floor, 4, true],
  ] as const)('%o: %s out of norm %s', (range, value, out) => {
    expect(isOutOfNorm(value, range)).toBe(out);
  });

  it('never flags a missing value or a missing range', () => {
    expect(isOutOfNorm(null, alt)).toBe(false);
    expect(isOutOfNorm(undefined, alt)).toBe(false);
    expect(isOutOfNorm(1000, null)).toBe(false);
  });

  it('flags by sex: ALT 50 is normal for a man, out of norm for a woman', () => {
    expect(isOutOfNorm(50, rangeFor(rows, 'biochemistry', 'alt', 'M'))).toBe(false);
    expect(isOutOfNorm(50, rangeFor(rows, 'biochemistry', 'alt', 'K'))).toBe(true);
  });
});

describe('upperLimitOfNormal', () => {
  it('is the maximum, else the "<" limit, else null', () => {
    expect(upperLimitOfNormal({ unit: 'U/l', min: 9, max: 59, below: null })).toBe(59);
    expect(upperLimitOfNormal({ unit: 'mg/dl', min: null, max: null, below: 1.2 })).toBe(1.2);
    expect(upperLimitOfNormal({ unit: 'x', min: 5, max: null, below: null })).toBeNull();
    expect(upperLimitOfNormal(null)).toBeNull();
  });
});
