import { describe, expect, it } from 'vitest';
import type { ReferenceRangeRow } from '@portal/shared';
import { evaluateHysLaw, evaluateQtcf } from './safety-rules.js';
import type { SafetyRuleConfig } from './safety-rules.js';

/** The shipped ranges the rules need (migration 0013). */
const ranges: ReferenceRangeRow[] = [
  { kind: 'biochemistry', analyte: 'alt', unit: 'U/l', sex: 'M', min: 9, max: 59, below: null },
  { kind: 'biochemistry', analyte: 'alt', unit: 'U/l', sex: 'K', min: 8, max: 41, below: null },
  { kind: 'biochemistry', analyte: 'ast', unit: 'U/l', sex: 'M', min: 11, max: 34, below: null },
  { kind: 'biochemistry', analyte: 'ast', unit: 'U/l', sex: 'K', min: 11, max: 34, below: null },
  {
    kind: 'biochemistry',
    analyte: 'bilirubine',
    unit: 'mg/dl',
    sex: null,
    min: null,
    max: null,
    below: 1.2,
  },
];

const rules: SafetyRuleConfig[] = [
  {
    id: 'hys_law',
    params: { alt_uln_factor: 3, ast_uln_factor: 3, bilirubine_uln_factor: 2 },
    is_enabled: true,
  },
  { id: 'qtcf_500', params: { limit_ms: 500 }, is_enabled: true },
  { id: 'qtcf_delta_60', params: { delta_ms: 60 }, is_enabled: true },
];
const without = (id: SafetyRuleConfig['id']) =>
  rules.map((rule) => (rule.id === id ? { ...rule, is_enabled: false } : rule));

describe("Hy's law", () => {
  const liver = (alt: number | null, ast: number | null, bilirubine: number | null) => ({
    alt,
    ast,
    bilirubine,
  });

  it.each([
    // [ALT, AST, bilirubin, sex, fires]
    [178, null, 2.41, 'M', true], // ALT > 3 × 59 = 177, bilirubin > 2 × 1.2 = 2.4
    [177, null, 5, 'M', false], // ALT at 3 × ULN is not above it
    [500, null, 2.4, 'M', false], // bilirubin at 2 × ULN is not above it
    [null, 103, 3, 'M', true], // AST > 3 × 34 = 102 alone is enough with bilirubin
    [20, 102, 3, 'K', false],
    [124, 20, 3, 'K', true], // a woman's ALT ULN is 41: 3 × 41 = 123
    [124, 20, 3, 'M', false], // the same ALT is below 3 × 59 for a man
    [500, 500, null, 'M', false], // no bilirubin, no Hy's law
    [null, null, 9, 'M', false], // bilirubin alone is not enough
  ] as const)('ALT %s, AST %s, bilirubin %s (%s): fires %s', (alt, ast, bili, sex, fires) => {
    const fired = evaluateHysLaw(liver(alt, ast, bili), sex, ranges, rules);
    expect(fired !== null).toBe(fires);
  });

  it('reports the values present and the ULN of the patient’s sex', () => {
    expect(evaluateHysLaw(liver(200, null, 3), 'K', ranges, rules)).toEqual({
      rule: 'hys_law',
      details: { alt: 200, alt_uln: 41, ast_uln: 34, bilirubine: 3, bilirubine_uln: 1.2 },
    });
  });

  it('never fires when disabled', () => {
    expect(evaluateHysLaw(liver(1000, 1000, 10), 'M', ranges, without('hys_law'))).toBeNull();
  });

  it('takes its factors from the rule’s params', () => {
    const strict: SafetyRuleConfig[] = [
      {
        id: 'hys_law',
        params: { alt_uln_factor: 2, ast_uln_factor: 2, bilirubine_uln_factor: 1.5 },
        is_enabled: true,
      },
    ];
    expect(evaluateHysLaw(liver(120, null, 1.9), 'M', ranges, strict)).not.toBeNull();
    expect(evaluateHysLaw(liver(120, null, 1.9), 'M', ranges, rules)).toBeNull();
  });

  it('cannot fire without a range to compare with', () => {
    expect(evaluateHysLaw(liver(1000, 1000, 10), 'M', [], rules)).toBeNull();
  });
});

describe('QTcF rules', () => {
  it('fires qtcf_500 above 500 ms only', () => {
    expect(evaluateQtcf(500, null, rules)).toEqual([]);
    expect(evaluateQtcf(501, null, rules)).toEqual([
      { rule: 'qtcf_500', details: { qtcfra: 501, limit_ms: 500 } },
    ]);
  });

  it('fires qtcf_delta_60 more than 60 ms above the baseline only', () => {
    expect(evaluateQtcf(460, 400, rules)).toEqual([]);
    expect(evaluateQtcf(461, 400, rules)).toEqual([
      {
        rule: 'qtcf_delta_60',
        details: { qtcfra: 461, baseline_qtcfra: 400, delta_ms: 61, limit_ms: 60 },
      },
    ]);
  });

  it('fires both at once, and neither without a QTcF or a baseline', () => {
    expect(evaluateQtcf(520, 440, rules).map((f) => f.rule)).toEqual(['qtcf_500', 'qtcf_delta_60']);
    expect(evaluateQtcf(null, 300, rules)).toEqual([]);
    expect(evaluateQtcf(470, null, rules)).toEqual([]);
  });

  it('never fires a disabled rule', () => {
    expect(evaluateQtcf(600, 400, without('qtcf_500')).map((f) => f.rule)).toEqual([
      'qtcf_delta_60',
    ]);
    expect(evaluateQtcf(600, 400, without('qtcf_delta_60')).map((f) => f.rule)).toEqual([
      'qtcf_500',
    ]);
    expect(evaluateQtcf(600, 400, [])).toEqual([]);
  });
});
