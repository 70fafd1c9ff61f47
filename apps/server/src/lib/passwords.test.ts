import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMinimalHashCostInTests } from './passwords.js';

describe('password hashing cost', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('refuses the minimal test cost outside Vitest', () => {
    vi.stubEnv('VITEST', '');
    expect(() => useMinimalHashCostInTests()).toThrow(/tests only/);
  });
});
