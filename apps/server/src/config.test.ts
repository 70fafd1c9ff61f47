import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('database configuration', () => {
  const app = 'postgres://portal_app:x@db:5432/portal';
  const owner = 'postgres://portal_owner:y@db:5432/portal';

  it('takes the migration role apart from the app role', () => {
    expect(loadConfig({ DATABASE_URL: app, DATABASE_MIGRATION_URL: owner }, null).database).toEqual(
      { kind: 'postgres', url: app, migrationUrl: owner },
    );
  });

  it('migrates as the app role when no migration URL is given (main.ts warns)', () => {
    expect(loadConfig({ DATABASE_URL: app }, null).database).toEqual({
      kind: 'postgres',
      url: app,
      migrationUrl: null,
    });
  });

  it('refuses a migration URL for the embedded database, which has one user', () => {
    expect(() => loadConfig({ DATABASE_MIGRATION_URL: owner }, null)).toThrow(
      /DATABASE_MIGRATION_URL needs DATABASE_URL/,
    );
  });
});

describe('laboratory simulator configuration', () => {
  it('is off by default, every minute, 20 samples a run, to its own address', () => {
    expect(loadConfig({}, null).labSimulator).toEqual({
      enabled: false,
      cron: '* * * * *',
      batch: 20,
      url: null,
    });
    expect(
      loadConfig(
        {
          LAB_SIMULATOR: 'on',
          LAB_SIMULATOR_CRON: '*/2 * * * *',
          LAB_SIMULATOR_BATCH: '5',
          LAB_SIMULATOR_URL: 'http://10.0.0.5:3000/',
        },
        null,
      ).labSimulator,
    ).toEqual({ enabled: true, cron: '*/2 * * * *', batch: 5, url: 'http://10.0.0.5:3000' });
  });

  it('refuses to start with NODE_ENV=production unless forced', () => {
    expect(() => loadConfig({ LAB_SIMULATOR: 'on', NODE_ENV: 'production' }, null)).toThrow(
      /LAB_SIMULATOR_FORCE=yes/,
    );
    expect(
      loadConfig({ LAB_SIMULATOR: 'on', NODE_ENV: 'production', LAB_SIMULATOR_FORCE: 'yes' }, null)
        .labSimulator.enabled,
    ).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }, null).labSimulator.enabled).toBe(false);
    expect(() => loadConfig({ LAB_SIMULATOR: 'yes' }, null)).toThrow(/LAB_SIMULATOR/);
    expect(() => loadConfig({ LAB_SIMULATOR_BATCH: '0' }, null)).toThrow(/LAB_SIMULATOR_BATCH/);
  });
});
