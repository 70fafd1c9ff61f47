#!/usr/bin/env node
// Adds up the JSON reports of the CI's test lanes (Vitest's json reporter, Playwright's json
// reporter) and prints, as its last line, `N passed, N failed` (`, N skipped` when any were).
//
//   node scripts/ci-summary.mjs LANE=path/to/report.json ...
//
// A lane whose report is missing or unreadable did not finish: it counts as one failure, so a
// crashed runner can never look green. Exits 1 when anything failed or no test ran at all.
import { readFileSync } from 'node:fs';

/** Vitest (Jest-shaped): one entry per file with its assertions. */
function fromVitest(report) {
  const totals = { passed: 0, failed: 0, skipped: 0, notes: [] };
  for (const file of report.testResults ?? []) {
    let failedHere = 0;
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') totals.passed += 1;
      else if (test.status === 'failed') failedHere += 1;
      else totals.skipped += 1; // pending, skipped, todo, disabled
    }
    // A file that failed outside its tests (import error, failing hook) counts once.
    if (file.status === 'failed' && failedHere === 0) {
      failedHere = 1;
      totals.notes.push(`file failed outside its tests: ${file.name}`);
    }
    totals.failed += failedHere;
  }
  return totals;
}

/** Playwright: `stats` counts tests by outcome; `errors` holds failures outside any test. */
function fromPlaywright(report) {
  const s = report.stats ?? {};
  const totals = {
    passed: (s.expected ?? 0) + (s.flaky ?? 0),
    failed: s.unexpected ?? 0,
    skipped: s.skipped ?? 0,
    notes: [],
  };
  if (s.flaky) totals.notes.push(`${s.flaky} flaky (passed on retry)`);
  const errors = report.errors ?? [];
  if (errors.length && totals.failed === 0) {
    totals.failed = 1;
    totals.notes.push(
      `run failed outside its tests: ${String(errors[0]?.message ?? '').split('\n')[0]}`,
    );
  }
  return totals;
}

function readLane(argument) {
  const eq = argument.indexOf('=');
  const [lane, file] =
    eq > 0 ? [argument.slice(0, eq), argument.slice(eq + 1)] : [argument, argument];
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const totals =
      'stats' in report && 'suites' in report ? fromPlaywright(report) : fromVitest(report);
    return { lane, ...totals };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { lane, passed: 0, failed: 1, skipped: 0, notes: [`no usable report (${reason})`] };
  }
}

const lanes = process.argv.slice(2).map(readLane);
const sum = { passed: 0, failed: 0, skipped: 0 };
for (const l of lanes) {
  sum.passed += l.passed;
  sum.failed += l.failed;
  sum.skipped += l.skipped;
  const skipped = l.skipped ? `, ${l.skipped} skipped` : '';
  console.log(`  ${l.lane.padEnd(10)} ${l.passed} passed, ${l.failed} failed${skipped}`);
  for (const note of l.notes) console.log(`             ${note}`);
}
console.log(
  `${sum.passed} passed, ${sum.failed} failed${sum.skipped ? `, ${sum.skipped} skipped` : ''}`,
);
process.exitCode = sum.failed > 0 || sum.passed === 0 ? 1 : 0;
