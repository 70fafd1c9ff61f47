import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../jobs/queue.js';
import { appServerUrl, createTestApp, openTestDatabase } from '../test/harness.js';
import { databaseUrl, withServer } from '../test/server-database.js';
import type { ReadyDoctor, TestApp } from '../test/harness.js';
import { registerPatient } from '../test/patients-fixture.js';
import { openDatabase, runMigrations } from './client.js';
import { auditTrailRisks, currentRole, migrateDatabase } from './roles.js';
import { auditEntries } from './schema.js';
import { dropDatabase } from './drop-database.js';

function pgErrorOf(error: unknown): { code?: unknown; message?: string } {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code, message: String(message) };
}

// PGlite is one embedded user who owns everything; on PostgreSQL without TEST_DATABASE_APP_URL
// the app connects as the owner. Either way there is no restricted role to test.
describe.skipIf(!appServerUrl)(
  'the app database role (PostgreSQL with TEST_DATABASE_APP_URL only; PGlite has one user)',
  () => {
    let t: TestApp;
    let doctor: ReadyDoctor;

    beforeAll(async () => {
      t = await createTestApp();
      doctor = await t.readyDoctor((await t.unit()).id);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('is not the owner of the tables and cannot write the audit trail', async () => {
      const { rows } = await t.handle.executeSql(
        `select pg_get_userbyid(relowner) as owner from pg_class where oid = 'audit_entries'::regclass`,
      );
      const role = await currentRole(t.handle);
      expect(role).not.toBe(rows[0]?.owner);
      expect(await auditTrailRisks(t.handle)).toEqual([]);
    });

    it.each([
      'alter table audit_entries disable trigger audit_entries_no_change',
      'alter table audit_entries disable trigger all',
      'alter table patients disable trigger patients_audit',
      'drop trigger patients_audit on patients',
      'drop trigger audit_entries_no_change on audit_entries',
      'delete from audit_entries',
      "update audit_entries set new_value = 'x'",
      `insert into audit_entries (user_id, entity_name, operation, column_name, new_value)
         values (1, 'patients', 'update', 'surname', 'forged')`,
      'truncate audit_entries',
      'truncate patients cascade',
      'alter table patients add column forged integer',
      'alter table audit_entries owner to current_user',
      'drop table audit_entries',
      'create or replace function audit_row() returns trigger language plpgsql as $$ begin return null; end $$',
      "select nextval(pg_get_serial_sequence('audit_entries', 'id'))",
      "set session_replication_role = 'replica'",
      'create table public.forged (id integer)',
      'create schema forged',
    ])('refuses: %s', async (statement) => {
      const error = await t.handle.executeSql(statement).then(
        () => null,
        (e: unknown) => pgErrorOf(e),
      );
      // 42501 insufficient_privilege: refused by a privilege, not by the immutability trigger.
      expect(error).toMatchObject({ code: '42501' });
      expect(error?.message).toMatch(/permission denied|must be owner/);
    });

    it('still writes the audit entries of a change through the app, naming the actor', async () => {
      const patient = await registerPatient(t, doctor, { surname: 'Audytowany' });
      const entries = await t.db
        .select({ userId: auditEntries.user_id, newValue: auditEntries.new_value })
        .from(auditEntries)
        .where(
          and(
            eq(auditEntries.patient_id, patient.id),
            eq(auditEntries.entity_name, 'patients'),
            eq(auditEntries.column_name, 'surname'),
          ),
        );
      expect(entries).toEqual([{ userId: doctor.session.user.id, newValue: 'Audytowany' }]);
    });

    it('runs background jobs in pg-boss schema it owns', async () => {
      const database = await openTestDatabase();
      const queue = new JobQueue(
        { db: database.handle, pollingIntervalSeconds: 0.5 },
        { error: (details, message) => console.error(message, details) },
      );
      try {
        const done = new Promise<unknown>((resolve) => {
          queue.handle('role-check', (data) => {
            resolve(data);
            return Promise.resolve();
          });
        });
        await queue.start();
        await queue.send('role-check', { ok: 1 });
        await expect(done).resolves.toEqual({ ok: 1 });
      } finally {
        await queue.stop();
        await database.close();
      }
    }, 60_000);

    it('takes over a database that the owner used to run alone, pending jobs included', async () => {
      // Before the split: one role migrated, ran the queue and owns pg-boss's tables.
      const serverUrl = process.env.TEST_DATABASE_URL!;
      const name = `t_${randomBytes(8).toString('hex')}`;
      await withServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
      const log = { error: (details: object, message: string) => console.error(message, details) };
      try {
        const before = await openDatabase({ kind: 'postgres', url: databaseUrl(serverUrl, name) });
        try {
          await runMigrations(before);
          const queue = new JobQueue({ db: before }, log);
          await queue.start();
          await queue.send('left-over', { n: 7 });
          await queue.stop();
        } finally {
          await before.close();
        }

        const after = await openDatabase({
          kind: 'postgres',
          url: databaseUrl(appServerUrl!, name),
        });
        try {
          expect(await migrateDatabase(after, databaseUrl(serverUrl, name))).toEqual([]);
          const queue = new JobQueue({ db: after, pollingIntervalSeconds: 0.5 }, log);
          const done = new Promise<unknown>((resolve) => {
            queue.handle('left-over', (data) => {
              resolve(data);
              return Promise.resolve();
            });
          });
          try {
            await queue.start();
            await expect(done).resolves.toEqual({ n: 7 });
          } finally {
            await queue.stop();
          }
        } finally {
          await after.close();
        }
      } finally {
        await withServer(serverUrl, (client) => dropDatabase(client, name));
      }
    }, 120_000);
  },
);
