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
