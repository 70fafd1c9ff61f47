import { performance } from 'node:perf_hooks';

export interface Timing {
  n: number;
  p50: number;
  p95: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface Rounds {
  /** Most samples taken. */
  max: number;
  /** Fewest samples taken, however long they take. */
  min: number;
  /** Stops after this many milliseconds once `min` samples are in. */
  budgetMs: number;
}

/**
 * Times `run` after three warm-up calls: up to `max` samples, fewer for slow cases once the
 * time budget is spent (the whole bench must stay under 10 minutes on 2 cores).
 */
export async function timeRounds(rounds: Rounds, run: () => Promise<void>): Promise<Timing> {
  for (let i = 0; i < 3; i++) await run();
  const samples: number[] = [];
  const started = performance.now();
  while (
    samples.length < rounds.max &&
    (samples.length < rounds.min || performance.now() - started < rounds.budgetMs)
  ) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { n: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}
