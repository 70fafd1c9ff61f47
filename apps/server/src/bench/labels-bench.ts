import { performance } from 'node:perf_hooks';
import { labelPdf, labelZpl } from '../modules/probes/index.js';
import type { LabelFacts } from '../modules/probes/index.js';
import { timeRounds } from './stats.js';

const FACTS: LabelFacts = {
  code: 'KZP0107003',
  type_of_material: 'venous',
  collect_place: 'clinic',
};

/**
 * A 10-label PDF for one sample, in-process (no HTTP, no database: the work is the drawing):
 * p50/p95 over 50 runs after warm-up, and the first call (which loads pdfkit and bwip-js).
 */
export async function measureLabels(): Promise<string> {
  const coldStarted = performance.now();
  await labelPdf(FACTS, 10);
  const cold = performance.now() - coldStarted;
  const pdf = await timeRounds({ max: 50, min: 50, budgetMs: 0 }, async () => {
    await labelPdf(FACTS, 10);
  });
  const zpl = await timeRounds({ max: 200, min: 200, budgetMs: 0 }, () => {
    labelZpl(FACTS, 10);
    return Promise.resolve();
  });
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return (
    `labels: 10-label PDF p50 ${ms(pdf.p50)}, p95 ${ms(pdf.p95)} over ${pdf.n} runs, ` +
    `first call ${ms(cold)} (target < 200 ms); ZPL p95 ${zpl.p95.toFixed(3)} ms`
  );
}
