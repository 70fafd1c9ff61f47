import { describe, expect, it } from 'vitest';
import { buildProbeCode } from './probe-code.js';
import type { ProbeCodeFacts } from './probe-code.js';
import { PROBE_CODE_PARTS, SETTING_DEFAULTS } from './schemas/settings.js';

const facts: ProbeCodeFacts = {
  sex: 'K',
  project_number: 'A17',
  unit_id: 3,
  next_probe_number: 12,
  group_id: 2,
  type_of_material: 'venous',
  collect_place: 'clinic',
};

describe('buildProbeCode', () => {
  it.each([
    ['sex', 'K'],
    ['project_number', 'A17'],
    ['unit_id', '3'],
    ['next_probe_number', '12'],
    ['group_id', '2'],
    ['material_type', 'Z'],
    ['collect_place', 'P'],
    ['material_type_and_place', 'ZP'],
  ] as const)('replaces %s by %s', (part, value) => {
    expect(buildProbeCode([part], facts)).toBe(value);
  });

  it('keeps every digit 0-9 as written', () => {
    const digits = PROBE_CODE_PARTS.filter((part) => /^[0-9]$/.test(part));
    expect(digits).toHaveLength(10);
    expect(buildProbeCode(digits, facts)).toBe('0123456789');
  });

  it('gives the material Z (venous) or W (capillary) and the place P (clinic) or D (home)', () => {
    const parts = ['material_type', 'collect_place'] as const;
    expect(buildProbeCode(parts, facts)).toBe('ZP');
    expect(buildProbeCode(parts, { ...facts, type_of_material: 'capillary' })).toBe('WP');
    expect(buildProbeCode(parts, { ...facts, collect_place: 'home' })).toBe('ZD');
    expect(
      buildProbeCode(['material_type_and_place'], {
        ...facts,
        type_of_material: 'capillary',
        collect_place: 'home',
      }),
    ).toBe('WD');
  });

  it('joins a combination in the configured order with nothing between the parts', () => {
    expect(buildProbeCode(SETTING_DEFAULTS.probe_config, facts)).toBe('KA173122ZP');
    expect(buildProbeCode(['next_probe_number', '0', 'sex', 'unit_id', '9'], facts)).toBe('120K39');
    expect(buildProbeCode(['sex', 'sex', '1', '1'], { ...facts, sex: 'M' })).toBe('MM11');
  });

  it('leaves out a missing project number and a missing group', () => {
    const bare = { ...facts, project_number: null, group_id: null };
    expect(buildProbeCode(['sex', 'project_number', 'group_id', 'next_probe_number'], bare)).toBe(
      'K12',
    );
    expect(buildProbeCode(['project_number'], { ...facts, project_number: '' })).toBe('');
  });

  it('grows with the probe number and the unit id beyond one digit', () => {
    expect(
      buildProbeCode(['unit_id', 'next_probe_number'], {
        ...facts,
        unit_id: 120,
        next_probe_number: 1005,
      }),
    ).toBe('1201005');
  });
});
