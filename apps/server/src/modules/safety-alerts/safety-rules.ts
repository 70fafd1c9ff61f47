import { rangeFor, upperLimitOfNormal } from '@portal/shared';
import type { ReferenceRangeRow, SafetyRule, Sex } from '@portal/shared';

/**
 * The safety rules of docs/product-rules.md "Safety alerts" as pure functions (ADR 030): the
 * numbers come from the
 * `safety_rules` table (`params`) and the limits from `reference_ranges`, so a study can change
 * both without code. A disabled rule never fires. What fires is returned with the values and
 * limits that made it fire (the alert's `details`); nothing here touches the database.
 */

export interface SafetyRuleConfig {
  id: SafetyRule;
  params: Record<string, number>;
  is_enabled: boolean;
}

export interface Firing {
  rule: SafetyRule;
  details: Record<string, number>;
}

export interface LiverResults {
  alt: number | null;
  ast: number | null;
  bilirubine: number | null;
}

function enabled(rules: readonly SafetyRuleConfig[], id: SafetyRule): SafetyRuleConfig | null {
  const rule = rules.find((candidate) => candidate.id === id);
  return rule?.is_enabled ? rule : null;
}

/** A parameter of a rule, or its shipped default when the row lacks it (an edited study row). */
function param(rule: SafetyRuleConfig, name: string, fallback: number): number {
  const value = rule.params[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * Hy's law in one sample: (ALT > a × ULN(ALT) or AST > b × ULN(AST)) and bilirubin >
 * c × ULN(bilirubin), with the ULN of the patient's sex. A missing value or range cannot fire.
 */
export function evaluateHysLaw(
  results: LiverResults,
  sex: Sex,
  ranges: readonly ReferenceRangeRow[],
  rules: readonly SafetyRuleConfig[],
): Firing | null {
  const rule = enabled(rules, 'hys_law');
  if (!rule) return null;
  const uln = (analyte: keyof LiverResults) =>
    upperLimitOfNormal(rangeFor(ranges, 'biochemistry', analyte, sex));
  const altUln = uln('alt');
  const astUln = uln('ast');
  const biliUln = uln('bilirubine');
  const above = (value: number | null, limit: number | null, factor: number) =>
    value !== null && limit !== null && value > factor * limit;

  const altHigh = above(results.alt, altUln, param(rule, 'alt_uln_factor', 3));
  const astHigh = above(results.ast, astUln, param(rule, 'ast_uln_factor', 3));
  const biliHigh = above(results.bilirubine, biliUln, param(rule, 'bilirubine_uln_factor', 2));
  if (!(altHigh || astHigh) || !biliHigh) return null;

  const details: Record<string, number> = {};
  for (const [key, value] of [
    ['alt', results.alt],
    ['alt_uln', altUln],
    ['ast', results.ast],
    ['ast_uln', astUln],
    ['bilirubine', results.bilirubine],
    ['bilirubine_uln', biliUln],
  ] as const) {
    if (value !== null) details[key] = value;
  }
  return { rule: 'hys_law', details };
}

/**
 * QTcF rules for one recorded ECG: above the absolute limit (`qtcf_500`), and more than the
 * allowed increase over the patient's baseline, the QTcF of the first earlier visit with an ECG
 * (`qtcf_delta_60`; no baseline, no comparison).
 */
export function evaluateQtcf(
  qtcfra: number | null,
  baseline: number | null,
  rules: readonly SafetyRuleConfig[],
): Firing[] {
  if (qtcfra === null) return [];
  const fired: Firing[] = [];
  const absolute = enabled(rules, 'qtcf_500');
  if (absolute) {
    const limit = param(absolute, 'limit_ms', 500);
    if (qtcfra > limit) fired.push({ rule: 'qtcf_500', details: { qtcfra, limit_ms: limit } });
  }
  const delta = enabled(rules, 'qtcf_delta_60');
  if (delta && baseline !== null) {
    const limit = param(delta, 'delta_ms', 60);
    if (qtcfra - baseline > limit) {
      fired.push({
        rule: 'qtcf_delta_60',
        details: {
          qtcfra,
          baseline_qtcfra: baseline,
          delta_ms: qtcfra - baseline,
          limit_ms: limit,
        },
      });
    }
  }
  return fired;
}
