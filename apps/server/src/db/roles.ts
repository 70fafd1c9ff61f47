import pg from 'pg';
import { JobQueue } from '../jobs/queue.js';
import { openDatabase, runMigrations } from './client.js';
import type { DatabaseHandle, SqlExecutor } from './client.js';

/**
 * Two database roles on PostgreSQL (ADR 015): the owner runs the migrations and owns the tables
 * and the audit trigger functions; the app connects as a role that reads and writes data but
 * cannot alter tables, disable triggers or write `audit_entries` itself. PGlite is one embedded
 * user, so none of this applies there.
 */

/** The table that only the (SECURITY DEFINER) audit triggers write. */
const AUDIT_TABLE = 'audit_entries';
/** Rows the app adds and may never change or remove (migration 0029). */
const READ_LOG_TABLE = 'access_log';
/** The audit hash chain's head (migration 0027, ADR 049): written only by the audit trigger. */
const CHAIN_HEAD_TABLE = 'audit_chain_head';
/** pg-boss keeps its jobs here and creates a partition per queue at run time (ADR 009). */
const JOB_SCHEMA = 'pgboss';
/** Serialises the grant step of API nodes that start at the same time. */
const GRANT_LOCK = 7_240_015;

export async function currentRole(db: SqlExecutor): Promise<string> {
  const { rows } = await db.executeSql('select current_user as role');
  return String(rows[0]?.role);
}

async function currentDatabase(db: SqlExecutor): Promise<string> {
  const { rows } = await db.executeSql('select current_database() as db');
  return String(rows[0]?.db);
}

/**
 * The owner's idempotent step after the migrations, run at every start: the app role may read
 * and write every table of the portal's schema and use its sequences, but only read the audit
 * trail (not even draw its ids). It owns pg-boss's schema, since pg-boss creates partitions
 * there while it runs; the owner installs or upgrades that schema first, because creating a
 * schema needs a right on the database that the app role must not have.
 *
 * No ALTER DEFAULT PRIVILEGES: every migration is followed by this step, and default privileges
 * would hand full rights to any table created later, an append-only one included.
 *
 * The owner must be a member of the app role (PostgreSQL 15 demands it to give objects to it);
 * it makes itself one when it may, and otherwise the returned warning says what to grant.
 */
export async function grantAppRole(owner: SqlExecutor, appRole: string): Promise<string[]> {
  const app = pg.escapeIdentifier(appRole);
  const { rows } = await owner.executeSql(
    `select pg_get_serial_sequence('${AUDIT_TABLE}', 'id') as seq`,
  );
  const auditSequence = String(rows[0]?.seq);
  // One simple-protocol script is one implicit transaction: all of it or none.
  await owner.executeSql(
    [
      `select pg_advisory_xact_lock(${GRANT_LOCK})`,
      `grant usage on schema public to ${app}`,
      `grant select, insert, update, delete on all tables in schema public to ${app}`,
      `revoke insert, update, delete, truncate, references, trigger on ${AUDIT_TABLE} from ${app}`,
      // The read-access log is written by the app itself, but only ever added to (ADR 052).
      `revoke update, delete, truncate, references, trigger on ${READ_LOG_TABLE} from ${app}`,
      `revoke insert, update, delete, truncate, references, trigger on ${CHAIN_HEAD_TABLE} from ${app}`,
      `grant usage, select on all sequences in schema public to ${app}`,
      `revoke all on sequence ${auditSequence} from ${app}`,
      // /api/health/ready compares the applied migrations with the build's (ADR 056).
      `grant usage on schema drizzle to ${app}`,
      `grant select on drizzle.__drizzle_migrations to ${app}`,
    ].join(';\n'),
  );
  await JobQueue.install(owner);
  const membership = await becomeMember(owner, app);
  if (membership.member) {
    await giveJobSchema(owner, app);
    return [];
  }
  // The queue's existing tables stay usable; a new queue would fail (its partition needs the
  // job table's ownership), so the log says what IT must grant.
  await owner.executeSql(
    [
      `select pg_advisory_xact_lock(${GRANT_LOCK})`,
      `grant usage on schema ${JOB_SCHEMA} to ${app}`,
      `grant select, insert, update, delete on all tables in schema ${JOB_SCHEMA} to ${app}`,
      `grant execute on all functions in schema ${JOB_SCHEMA} to ${app}`,
    ].join(';\n'),
  );
  return [
    `the migration role is not a member of the app role, so the job queue's schema stays its own ` +
      `and new queues cannot be created: GRANT ${app} TO ${membership.owner}`,
  ];
}

/**
 * Makes the owner a member of the app role if it is not yet (possible when it may create roles,
 * e.g. on a managed server where it created the app role).
 */
async function becomeMember(
  owner: SqlExecutor,
  app: string,
): Promise<{ member: boolean; owner: string }> {
  const { rows } = await owner.executeSql(
    `select pg_has_role(current_user, $1::regrole, 'member') as member, current_user as owner`,
    [app],
  );
  const ownerRole = pg.escapeIdentifier(String(rows[0]?.owner));
  if (rows[0]?.member === true) return { member: true, owner: ownerRole };
  try {
    await owner.executeSql(`grant ${app} to current_user`);
    return { member: true, owner: ownerRole };
  } catch {
    return { member: false, owner: ownerRole };
  }
}

/** Hands pg-boss's schema and everything in it to the app role (after an install or upgrade). */
async function giveJobSchema(owner: SqlExecutor, app: string): Promise<void> {
  // regclass, regtype and regprocedure print names quoted as needed.
  const { rows } = await owner.executeSql(
    `select format('alter table %s owner to ', c.oid::regclass) as stmt
       from pg_class c
      where c.relnamespace = '${JOB_SCHEMA}'::regnamespace and c.relkind in ('r', 'p')
        and c.relowner <> $1::regrole
     union all
     select format('alter type %s owner to ', t.oid::regtype)
       from pg_type t
      where t.typnamespace = '${JOB_SCHEMA}'::regnamespace and t.typtype = 'e'
        and t.typowner <> $1::regrole
     union all
     select format('alter function %s owner to ', p.oid::regprocedure)
       from pg_proc p
      where p.pronamespace = '${JOB_SCHEMA}'::regnamespace
        and p.proowner <> $1::regrole`,
    [app],
  );
  const statements = [
    `select pg_advisory_xact_lock(${GRANT_LOCK})`,
    `alter schema ${JOB_SCHEMA} owner to ${app}`,
    ...rows.map((row) => `${String(row.stmt)}${app}`),
  ];
  await owner.executeSql(statements.join(';\n'));
}

/**
 * What the app's own role could still do to the audit trail, as warnings for the log: empty when
 * it cannot write audit entries nor alter the table (a superuser or a member of the owner can).
 */
export async function auditTrailRisks(app: SqlExecutor): Promise<string[]> {
  const { rows } = await app.executeSql(
    `select r.rolsuper as superuser,
            pg_has_role(current_user, c.relowner, 'usage') as owner,
            has_table_privilege('${AUDIT_TABLE}', 'insert, update, delete, truncate') as write
       from pg_roles r, pg_class c
      where r.rolname = current_user and c.oid = '${AUDIT_TABLE}'::regclass`,
  );
  const row = rows[0] ?? {};
  const risks: string[] = [];
  if (row.superuser) risks.push('the app database role is a superuser');
  else if (row.owner) risks.push('the app database role owns the tables');
  else if (row.write) risks.push('the app database role may write audit_entries');
  return risks;
}

/**
 * Migrates the app's database, as main.ts does at every start. On PostgreSQL with a migration
 * URL of another role, that role migrates and then grants the app role its rights; without one
 * the app's own role migrates (and owns everything), which is reported. Returns warnings for the
 * log.
 */
export async function migrateDatabase(
  app: DatabaseHandle,
  migrationUrl: string | null,
): Promise<string[]> {
  if (app.kind === 'pglite') {
    await runMigrations(app);
    return [];
  }
  if (!migrationUrl) {
    await runMigrations(app);
    return [
      'DATABASE_MIGRATION_URL is not set: migrations run as the role of DATABASE_URL, ' +
        'which then owns the tables and could alter the audit trail',
    ];
  }
  const warnings: string[] = [];
  const owner = await openDatabase({ kind: 'postgres', url: migrationUrl, max: 1 });
  try {
    const [ownerRole, appRole, ownerDb, appDb] = await Promise.all([
      currentRole(owner),
      currentRole(app),
      currentDatabase(owner),
      currentDatabase(app),
    ]);
    if (ownerDb !== appDb) {
      throw new Error(
        `DATABASE_MIGRATION_URL names database ${ownerDb}, DATABASE_URL names ${appDb}`,
      );
    }
    await runMigrations(owner);
    if (ownerRole !== appRole) warnings.push(...(await grantAppRole(owner, appRole)));
  } finally {
    await owner.close();
  }
  for (const risk of await auditTrailRisks(app)) {
    warnings.push(`${risk}: it could alter the audit trail`);
  }
  return warnings;
}
