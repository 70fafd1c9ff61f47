import { describe, expect, it } from 'vitest';
import { PROBE_CODE_PARTS } from '@portal/shared';
import {
  DIGIT_PARTS,
  exampleCode,
  exampleValue,
  insertItem,
  moveItem,
  PROBE_CONFIG_MAX,
  VARIABLE_PARTS,
} from './probe-config-model';

describe('the probe number builder', () => {
  it('offers every part of a probe number: eight variables, then the digits 0–9', () => {
    expect(VARIABLE_PARTS).toHaveLength(8);
    expect(DIGIT_PARTS).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect([...VARIABLE_PARTS, ...DIGIT_PARTS].sort()).toEqual([...PROBE_CODE_PARTS].sort());
  });

  it('shows the example patient: M, participant 17, unit 3, 4th sample, group 2, venous, clinic', () => {
    expect(
      exampleCode([
        'sex',
        'project_number',
        'unit_id',
        'next_probe_number',
        'group_id',
        'material_type_and_place',
      ]),
    ).toBe('M17342ZP');
    expect(exampleCode(['7', 'material_type', 'collect_place', '0'])).toBe('7ZP0');
    expect(exampleCode([])).toBe('');
    expect(exampleValue('project_number')).toBe('17');
  });

  it('moves a part forwards and backwards', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });

  it('inserts at a place, appends past the end, and stops at the maximum length', () => {
    expect(insertItem(['a', 'b'], 'x', 0)).toEqual(['x', 'a', 'b']);
    expect(insertItem(['a', 'b'], 'x', 9)).toEqual(['a', 'b', 'x']);
    const full = Array.from({ length: PROBE_CONFIG_MAX }, () => 'a');
    expect(insertItem(full, 'x', 0)).toHaveLength(PROBE_CONFIG_MAX);
  });
});
