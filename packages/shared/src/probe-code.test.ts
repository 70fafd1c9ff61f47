import { describe, expect, it } from 'vitest';
import {
  PROBE_CODE_BASE_MAX,
  PROBE_CODE_MAX,
  PROBE_CODE_PATTERN,
  barcodeSafe,
  buildProbeCode,
  participantKey,
  participantPart,
  suffixedProbeCode,
} from './probe-code.js';
import type { ProbeCodeFacts } from './probe-code.js';
import { PROBE_CODE_PARTS, SETTING_DEFAULTS } from './schemas/settings.js';

const facts: ProbeCodeFacts = {
  sex: 'K',
  project_number: 'A17',
  participant_id: 42,
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

  it('leaves out a missing group; the participant id stands in for a missing project number', () => {
    const bare = { ...facts, project_number: null, group_id: null };
    expect(buildProbeCode(['sex', 'project_number', 'group_id', 'next_probe_number'], bare)).toBe(
      'K04212',
    );
    expect(buildProbeCode(['group_id'], bare)).toBe('');
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

describe('barcode-safe codes (ADR 035)', () => {
  it('transliterates Polish letters of either case and drops everything else', () => {
    expect(barcodeSafe('ĄĆĘŁŃÓŚŹŻ ąćęłńóśźż')).toBe('ACELNOSZZacelnoszz');
    expect(barcodeSafe('ŁÓDŹ~^\r')).toBe('LODZ');
    expect(barcodeSafe('A_B C\tD\nE~F^G\u0000H/é-1')).toBe('ABCDEFGH-1');
    // A letter typed as a base and a combining accent is the same letter.
    expect(barcodeSafe('Lo\u0301dz\u0301')).toBe('Lodz');
    expect(barcodeSafe('Ж😀')).toBe('');
  });

  it('builds a code of ASCII letters, digits and "-" from a hostile participant number', () => {
    const code = buildProbeCode(SETTING_DEFAULTS.probe_config, {
      ...facts,
      project_number: 'ŁÓDŹ~^\r\nMSH|^~\\&',
    });
    expect(code).toBe('KLODZMSH3122ZP');
    expect(code).toMatch(PROBE_CODE_PATTERN);
  });

  it('keeps the unit, the number and the material when the participant number is too long', () => {
    const code = buildProbeCode(SETTING_DEFAULTS.probe_config, {
      ...facts,
      project_number: 'FDC-KARDIO-2026-' + 'X'.repeat(300),
    });
    expect(code).toHaveLength(PROBE_CODE_BASE_MAX);
    expect(code.startsWith('KFDC-KARDIO-2026-')).toBe(true);
    expect(code.endsWith('3122ZP')).toBe(true);
    // A configuration of fixed parts alone that is too long is cut at the end.
    const digits = Array.from({ length: 40 }, () => '7' as const);
    expect(buildProbeCode(digits, facts)).toBe('7'.repeat(PROBE_CODE_BASE_MAX));
  });

  it('leaves room for a suffix up to -99 and shortens the base for longer ones', () => {
    const base = 'A'.repeat(PROBE_CODE_BASE_MAX);
    expect(suffixedProbeCode(base, 2)).toBe(`${base}-2`);
    expect(suffixedProbeCode(base, 99)).toBe(`${base}-99`);
    expect(suffixedProbeCode(base, 99)).toHaveLength(PROBE_CODE_MAX);
    expect(suffixedProbeCode(base, 1234)).toBe(`${'A'.repeat(PROBE_CODE_MAX - 5)}-1234`);
    expect(suffixedProbeCode('K1', 3)).toBe('K1-3');
  });
});

describe('the participant part (ADR 041)', () => {
  it('is the project number where the patient has one', () => {
    expect(buildProbeCode(['project_number', 'unit_id'], facts)).toBe('A173');
  });

  it('is the participant number (id, three digits at least) where the patient has none', () => {
    expect(buildProbeCode(['sex', 'project_number'], { ...facts, project_number: null })).toBe(
      'K042',
    );
    expect(buildProbeCode(['project_number'], { ...facts, project_number: '' })).toBe('042');
    expect(
      buildProbeCode(['project_number'], { ...facts, project_number: null, participant_id: 12345 }),
    ).toBe('12345');
  });

  it('takes the id also for a number that gives nothing to a code', () => {
    expect(buildProbeCode(['project_number'], { ...facts, project_number: ' ~^_ ' })).toBe('042');
    expect(participantPart('~', 7)).toBe('007');
    expect(participantPart('Łódź 1', 7)).toBe('Łódź 1');
  });

  it('compares numbers as a code carries them: case, spaces, accents and signs do not count', () => {
    expect(participantKey('FDC-001')).toBe('fdc-001');
    expect(participantKey('fdc 001')).toBe('fdc001');
    expect(participantKey('ŁÓDŹ-1')).toBe(participantKey('lodz-1'));
    expect(participantKey(null)).toBe('');
    expect(participantKey('~^')).toBe('');
  });
});
