import type { Sex } from './pesel.js';

/**
 * The ECG of a visit (docs/product-rules.md "Recording a visit"): QT, RR, PQ and QRS in
 * milliseconds as the doctor reads them, QTcB (Bazett) and QTcF (Fridericia) computed from QT and
 * RR, and the flags of values outside the reference ranges of `data/reference-ranges.json`.
 */

export const ECG_MEASURED = ['qt', 'rr', 'pq', 'qrs'] as const;
export type EcgMeasured = (typeof ECG_MEASURED)[number];
export const ECG_COMPUTED = ['qtcb', 'qtcfra'] as const;
export type EcgParameter = EcgMeasured | (typeof ECG_COMPUTED)[number];
export const ECG_PARAMETERS: readonly EcgParameter[] = [...ECG_MEASURED, ...ECG_COMPUTED];

/**
 * What a human heart can show, in ms: a value outside is a typing slip (QT 5000), refused with
 * `implausible_value` instead of being stored and flagged. Wide on purpose: a long PQ in a
 * heart block or a slow RR in bradycardia is a finding, not an error.
 */
export const ECG_PLAUSIBLE: Record<EcgMeasured, { min: number; max: number }> = {
  qt: { min: 100, max: 1000 },
  rr: { min: 200, max: 3000 },
  pq: { min: 40, max: 1000 },
  qrs: { min: 20, max: 400 },
};

interface Limits {
  min?: number;
  max?: number;
}

/** The ECG rows of `data/reference-ranges.json` (AHA/ACCF/HRS 2009; Mason 2007). */
const REFERENCE: Record<EcgParameter, Limits | { M: Limits; K: Limits }> = {
  qt: {},
  pq: { min: 120, max: 200 },
  qrs: { max: 110 },
  qtcb: { M: { max: 450 }, K: { max: 460 } },
  qtcfra: { max: 450 },
  rr: { min: 600, max: 1000 },
};

/** The reference range of a parameter for the patient's sex (empty when none applies). */
export function ecgReference(parameter: EcgParameter, sex: Sex): Limits {
  const range = REFERENCE[parameter];
  return 'M' in range ? range[sex] : range;
}

/** QTc by Bazett, QT/√RR with RR in seconds, rounded to whole ms. */
export function qtcBazett(qt: number, rr: number): number {
  return Math.round(qt / Math.sqrt(rr / 1000));
}

/** QTc by Fridericia, QT/∛RR with RR in seconds, rounded to whole ms. */
export function qtcFridericia(qt: number, rr: number): number {
  return Math.round(qt / Math.cbrt(rr / 1000));
}

export interface EcgResults {
  qt: number | null;
  rr: number | null;
  pq: number | null;
  qrs: number | null;
  qtcb: number | null;
  qtcfra: number | null;
}

/** The measured values with both corrections computed (null while QT or RR is missing). */
export function withCorrections(measured: Record<EcgMeasured, number | null>): EcgResults {
  const { qt, rr } = measured;
  const both = qt !== null && rr !== null;
  return {
    ...measured,
    qtcb: both ? qtcBazett(qt, rr) : null,
    qtcfra: both ? qtcFridericia(qt, rr) : null,
  };
}

/** The parameters whose value lies outside its reference range, in `ECG_PARAMETERS` order. */
export function ecgOutOfNorm(results: EcgResults, sex: Sex): EcgParameter[] {
  return ECG_PARAMETERS.filter((parameter) => {
    const value = results[parameter];
    if (value === null) return false;
    const { min, max } = ecgReference(parameter, sex);
    return (min !== undefined && value < min) || (max !== undefined && value > max);
  });
}
