import { afterEach, vi } from 'vitest';

// A console.error during a test is a bug that went unnoticed: fail the test instead.
let errors: unknown[][] = [];
// Without isolation this file runs again for every test file of a worker: wrap the console's
// own function each time, never the previous file's wrapper.
const ORIGINAL = Symbol.for('portal.test.console-error');
const holder = globalThis as { [ORIGINAL]?: typeof console.error };
const original = (holder[ORIGINAL] ??= console.error);
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};
afterEach(() => {
  const seen = errors;
  errors = [];
  vi.restoreAllMocks();
  if (seen.length)
    throw new Error(`console.error was called during the test: ${String(seen[0]?.[0])}`);
});
