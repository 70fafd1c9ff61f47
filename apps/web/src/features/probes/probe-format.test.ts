import { describe, expect, it } from 'vitest';
import { rangeText, resultFromInput, resultText } from './probe-format';

describe('probe results format', () => {
  it('words a min..max range, a "<" limit and one-sided ranges', () => {
    expect(rangeText({ unit: 'U/l', min: 9, max: 59, below: null }, 'pl')).toBe('9–59 U/l');
    expect(rangeText({ unit: 'mg/dl', min: null, max: null, below: 1.2 }, 'pl')).toBe(
      '< 1,2 mg/dl',
    );
    expect(rangeText({ unit: 'ng/ml', min: null, max: 10, below: null }, 'pl')).toBe('≤ 10 ng/ml');
    expect(rangeText({ unit: 'ng/ml', min: 5, max: null, below: null }, 'pl')).toBe('≥ 5 ng/ml');
    expect(rangeText(undefined, 'pl')).toBeNull();
  });

  it('reads an empty input as not measured', () => {
    expect(resultFromInput('')).toBeNull();
    expect(resultFromInput(55)).toBe(55);
    expect(resultFromInput('1,5')).toBe(1.5);
  });

  it('words a qualified result: "< 0,5" in Polish, "< 0.5" in English, ranges, plain values', () => {
    expect(resultText(0.5, { comparator: '<', upper: null }, 'pl')).toBe('< 0,5');
    expect(resultText(0.5, { comparator: '<', upper: null }, 'en')).toBe('< 0.5');
    expect(resultText(1000, { comparator: '>', upper: null }, 'pl')).toBe('> 1000');
    expect(resultText(3, { comparator: '<=', upper: null }, 'pl')).toBe('≤ 3');
    expect(resultText(10, { comparator: '-', upper: 20.5 }, 'pl')).toBe('10–20,5');
    expect(resultText(1.5, undefined, 'pl')).toBe('1,5');
  });
});
