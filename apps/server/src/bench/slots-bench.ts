import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { SETTING_DEFAULTS, monthSlots } from '@portal/shared';
import type { SlotRule } from '@portal/shared';
import { percentile } from './stats.js';

/**
 * The slots of a month for one unit with 50 rules (issue 9: under 5 ms), computed by the shared
 * slot function alone, without the database: part of `npm run bench`, or alone after a build,
 * `node dist/bench/slots-bench.js`.
 * Prints the timings; nothing is asserted (ADR 024).
 */
const RULES = 50;
const SAMPLES = 2_000;

/** 50 rules of a busy unit in March 2027: weekly breaks, extra hours and blocked days. */
function rulesOfMonth(): SlotRule[] {
  const rules: SlotRule[] = [];
  const time = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
  for (let i = 0; rules.length < RULES; i++) {
    const day = (i % 31) + 1;
    const date = `2027-03-${String(day).padStart(2, '0')}`;
    const from = 6 * 60 + ((i * 37) % 10) * 60;
    if (i % 10 === 0)
      rules.push({
        date,
        started_at: '00:00:00',
        ended_at: '23:59:00',
        type: 'disabled',
        is_global: false,
      });
    else
      rules.push({
        date,
        started_at: time(from),
        ended_at: time(from + 30 + (i % 4) * 30),
        type: i % 3 === 0 ? 'enabled' : 'disabled',
        is_global: i % 5 === 0,
      });
  }
  return rules;
}

/** Times the month's slots and answers the line `npm run bench` prints. */
export function measureMonthSlots(): string {
  const rules = rulesOfMonth();
  const settings = SETTING_DEFAULTS.visits;
  // Early in the month, so "today" and past days are part of the work.
  const now = new Date('2027-03-03T09:10:00Z');

  let slots = 0;
  const coldStarted = performance.now();
  monthSlots(2027, 3, settings, rules, now);
  const cold = performance.now() - coldStarted;
  for (let i = 0; i < 50; i++) monthSlots(2027, 3, settings, rules, now);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const month = monthSlots(2027, 3, settings, rules, now);
    samples.push(performance.now() - started);
    slots = month.reduce((sum, day) => sum + day.slots.length, 0);
  }
  samples.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  return (
    `slots of a month, one unit, ${rules.length} rules (${slots} slots): ` +
    `p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, ` +
    `max ${ms(samples[samples.length - 1] ?? NaN)} over ${SAMPLES} runs, first call ${ms(cold)} (target < 5 ms)`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${measureMonthSlots()}\n`);
}
