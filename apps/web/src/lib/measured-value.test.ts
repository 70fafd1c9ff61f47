import { describe, expect, it } from 'vitest';
import { formatMeasured } from './measured-value';

describe('formatMeasured', () => {
  it('writes Polish decimals with a comma, English with a dot', () => {
    expect(formatMeasured(1.25, 'pl')).toBe('1,25');
    expect(formatMeasured(1.25, 'en')).toBe('1.25');
    expect(formatMeasured(0.1234, 'pl')).toBe('0,123');
  });
});
