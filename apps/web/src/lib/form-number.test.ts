import { describe, expect, it } from 'vitest';
import { patientPersonalCreate, probeSetBody } from '@portal/shared';
import { numberFromInput } from './form-number';

describe('numberFromInput', () => {
  it('sends nothing for an emptied input and a number as a number', () => {
    expect(numberFromInput('')).toBeNull();
    expect(numberFromInput(null)).toBeNull();
    expect(numberFromInput(80)).toBe(80);
  });

  it('reads half-typed and comma decimals as numbers', () => {
    expect(numberFromInput('80.')).toBe(80);
    expect(numberFromInput('72,5')).toBe(72.5);
    expect(numberFromInput(' 3 ')).toBe(3);
  });

  it('leaves anything else as text, which the schema then refuses on the field', () => {
    expect(numberFromInput('-')).toBe('-');
    expect(numberFromInput('0x10')).toBe('0x10');
    expect(numberFromInput('1e400')).toBe('1e400');
    const weight = patientPersonalCreate.shape.weight;
    expect(weight.safeParse(numberFromInput('abc')).error?.issues[0]?.message).toBe(
      'invalid_number',
    );
    expect(weight.parse(numberFromInput(''))).toBeNull();
  });

  it('gives the shared schemas numbers, which they take, where a string is refused', () => {
    expect(probeSetBody.shape.amount.safeParse('2').success).toBe(false);
    expect(probeSetBody.shape.amount.parse(numberFromInput('2'))).toBe(2);
  });
});
