import { and, desc, eq, sql } from 'drizzle-orm';
import type { RetentionPreview, RetentionPreviewQuery, RetentionRun } from '@portal/shared';
import { inTransaction, markAuditSource } from '../../db/client.js';
import type { Database, Queryable, Transaction } from '../../db/client.js';
import type { SQL } from 'drizzle-orm';
import { retentionRuns } from '../../db/schema.js';
import { AppError, conflict, isUniqueViolation } from '../../lib/errors.js';
import { announceWrite } from '../../lib/list-totals-channel.js';
import { isStudyLocked, STUDY_LOCKED, studyLocked } from '../../lib/study-lock.js';
import type { Actor } from '../../plugins/policy.js';
import { readSettingValue } from '../settings/index.js';

/**
 * Retention (ADR 059). A patient whose participation ended more than the `retention` setting's
 * years ago loses the identity: names, PESEL, birth day and month, contacts and address on the
 * patient, the copies of them on samples and kit orders, the names a laboratory sent with
 * unmatched results, and the patient's own files. The clinical data stays. The changes are
 * audited with the source `retention` (the trigger keeps no old value in clear for it), and the
 * patient's earlier audit entries lose their identity values through the database function
 * portal_blank_identity_audit (migration 0032), the only path that changes an audit entry.
 */

/** What the identity becomes: the schema's checks still hold, nothing points at a person. */
const ANONYMOUS = { firstname: 'Anonimizowany', surname: 'Pacjent', dash: '-' } as const;

/** Refusals of a preview or a run. */
export const retentionNotSet = () => new AppError(422, 'retention_not_set');
export const retentionRunning = () => conflict('retention_running');

/** Both drivers answer { rows }; the shared Database type leaves execute()'s result unknown. */
async function select<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** The `retention` setting's years; null while not set. */
export async function retentionYears(db: Queryable): Promise<number | null> {
  return (await readSettingValue(db, 'retention')).years;
}

/**
 * The patients due now: finished, not yet anonymised, and their participation ended before the
 * cut-off. It ended when the patient was last marked finished (the audit trail's is_finished
 * change), or at the record's last change when the trail holds none (data from before the
 * trail); a visit after that day moves it later.
 */
function dueSql(cutoff: string) {
  return sql`
    with ended as (
      select p.id, p.project_number, p.unit_id, u.name as unit_name,
             greatest(
               coalesce(
                 (select max(a.updated_at) from audit_entries a
                   where a.patient_id = p.id and a.entity_name = 'patients'
                     and a.column_name = 'is_finished' and a.new_value = 'true'),
                 p.updated_at),
               (select max(v.date)::timestamptz from visits v where v.patient_id = p.id)
             ) as ended_at
        from patients p join units u on u.id = p.unit_id
       where p.is_finished and p.anonymised_at is null
    )
    select id, project_number, unit_id, unit_name, ended_at from ended
     where ended_at < ${cutoff}::date`;
}

/** The first day whose end of participation is NOT yet due: today minus the years (Warsaw). */
export async function cutoffDay(db: Queryable, years: number): Promise<string> {
  const [row] = await select<{ day: string }>(
    db,
    sql`select ((now() at time zone 'Europe/Warsaw')::date - make_interval(years => ${years}))::date::text as day`,
  );
  return row!.day;
}

interface DueRow {
  id: number;
  project_number: string | null;
  unit_id: number;
  unit_name: string;
  ended_at: string | Date;
}

async function dueRows(db: Queryable, cutoff: string, page?: RetentionPreviewQuery) {
  const limit = page
    ? sql` order by ended_at, id limit ${page.limit} offset ${page.offset}`
    : sql` order by id`;
  return select<DueRow>(db, sql`${dueSql(cutoff)}${limit}`);
}

/** `GET /api/retention/preview`: the dry run, a page of who a run would anonymise now. */
export async function previewRetention(
  db: Database,
  query: RetentionPreviewQuery,
): Promise<RetentionPreview> {
  const years = await retentionYears(db);
  if (years === null) throw retentionNotSet();
  const cutoff = await cutoffDay(db, years);
  const [rows, counted, locked] = [
    await dueRows(db, cutoff, query),
    await select<{ n: number }>(db, sql`select count(*)::int as n from (${dueSql(cutoff)}) due`),
    await isStudyLocked(db),
  ];
  return {
    years,
    cutoff,
    study_locked: locked,
    total: Number(counted[0]?.n ?? 0),
    data: rows.map((row) => ({
      id: Number(row.id),
      project_number: row.project_number,
      unit_id: Number(row.unit_id),
      unit_name: row.unit_name,
      ended_at: new Date(row.ended_at).toISOString(),
    })),
  };
}

function runView(row: typeof retentionRuns.$inferSelect): RetentionRun {
  return {
    id: row.id,
    status: row.status,
    years: row.years,
    requested_at: row.requested_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    total: row.total,
    done: row.done,
    error: row.error,
  };
}

/**
 * `POST /api/retention/run`: records a queued run (one at a time: the database's unique index
 * refuses a second) for the background job. Refused without the setting and while locked.
 */
export async function requestRetentionRun(db: Database, actor: Actor): Promise<RetentionRun> {
  const years = await retentionYears(db);
  if (years === null) throw retentionNotSet();
  if (await isStudyLocked(db)) throw studyLocked();
  try {
    const [row] = await inTransaction(db, actor.userId, (tx) =>
      tx.insert(retentionRuns).values({ years, requested_by: actor.userId }).returning(),
    );
    return runView(row!);
  } catch (error) {
    if (isUniqueViolation(error, 'retention_runs_one_active_key')) throw retentionRunning();
    throw error;
  }
}

/** `GET /api/retention/runs/latest`: the last run's progress; null before the first. */
export async function latestRetentionRun(db: Database): Promise<RetentionRun | null> {
  const [row] = await db.select().from(retentionRuns).orderBy(desc(retentionRuns.id)).limit(1);
  return row ? runView(row) : null;
}

/**
 * Removes one patient's identity in the caller's transaction; false when the patient is not (or
 * no longer) finished and un-anonymised. The actor is the administrator who asked for the run.
 */
export async function anonymisePatient(tx: Transaction, patientId: number): Promise<boolean> {
  await markAuditSource(tx, 'retention');
  const changed = await select<{ user_id: number }>(
    tx,
    sql`
    update patients set
      firstname = ${ANONYMOUS.firstname}, surname = ${ANONYMOUS.surname},
      -- 11 digits with month 00: the schema's check holds and no real PESEL can equal it
      pesel = '0000' || lpad(id::text, 7, '0'),
      birth_date = date_trunc('year', birth_date)::date,
      phone_number = '000000000', email = null,
      address_street = null, address_building = null, address_apartment = null,
      address_postcode = null, address_city = null,
      anonymised_at = now(), updated_at = now(), version = version + 1
    where id = ${patientId} and is_finished and anonymised_at is null
    returning user_id`,
  );
  const userId = changed[0]?.user_id;
  if (userId === undefined) return false;
  await tx.execute(sql`
    update probes set patient_firstname = ${ANONYMOUS.firstname},
      patient_surname = ${ANONYMOUS.surname}, patient_address_street = ${ANONYMOUS.dash},
      patient_address_building = ${ANONYMOUS.dash}, patient_address_postcode = ${ANONYMOUS.dash},
      patient_address_city = ${ANONYMOUS.dash}
    where patient_id = ${patientId}`);
  await tx.execute(sql`
    update probe_sets set street = ${ANONYMOUS.dash}, building = ${ANONYMOUS.dash},
      postcode = ${ANONYMOUS.dash}, city = ${ANONYMOUS.dash}
    where patient_id = ${patientId}`);
  await tx.execute(sql`
    update unmatched_results set patient_firstname = null, patient_surname = null,
      patient_birth_date = date_trunc('year', patient_birth_date)::date,
      raw = '{"anonymised": true}'::jsonb
    where patient_id = ${patientId}`);
  // The patient's own documents (consents, letters) identify; ECG files of visits are clinical.
  await tx.execute(sql`delete from files where patient_id = ${patientId} and ref_type = 'patient'`);
  // The account can no longer sign in; its sessions end.
  await tx.execute(sql`update users set deleted_at = now() where id = ${userId}`);
  await tx.execute(
    sql`update sessions set revoked_at = now() where user_id = ${userId} and revoked_at is null`,
  );
  await tx.execute(sql`select portal_blank_identity_audit(${patientId}::integer)`);
  return true;
}

async function updateRun(
  db: Database,
  id: number,
  set: Partial<typeof retentionRuns.$inferInsert>,
) {
  await inTransaction(db, null, (tx) =>
    tx.update(retentionRuns).set(set).where(eq(retentionRuns.id, id)),
  );
}

/**
 * The background job's work (pg-boss `retention.run`): anonymises every patient due at its
 * start, one transaction each (a crash keeps what is done; a new run takes the rest), counting
 * progress on the run. It stops when the study gets locked or the setting removed meanwhile.
 */
export async function executeRetentionRun(db: Database, runId: number): Promise<RetentionRun> {
  const [run] = await db
    .select()
    .from(retentionRuns)
    .where(and(eq(retentionRuns.id, runId), sql`${retentionRuns.status} in ('queued', 'running')`));
  if (!run) {
    const [any] = await db.select().from(retentionRuns).where(eq(retentionRuns.id, runId));
    if (!any) throw new Error(`retention run ${runId} does not exist`);
    return runView(any);
  }
  const cutoff = await cutoffDay(db, run.years);
  const due = await dueRows(db, cutoff);
  await updateRun(db, runId, {
    status: 'running',
    started_at: new Date(),
    total: due.length,
    done: 0,
  });
  let done = 0;
  for (const patient of due) {
    if ((await isStudyLocked(db)) || (await retentionYears(db)) === null) {
      await updateRun(db, runId, {
        status: 'failed',
        finished_at: new Date(),
        error: (await isStudyLocked(db)) ? STUDY_LOCKED : 'retention_not_set',
      });
      return (await latestRetentionRun(db))!;
    }
    await inTransaction(db, run.requested_by, async (tx) => {
      await anonymisePatient(tx, Number(patient.id));
      done += 1;
      await tx.update(retentionRuns).set({ done }).where(eq(retentionRuns.id, runId));
    });
    // A background job, not a request: it tells the nodes itself that the patient's sessions
    // ended and the lists changed (ADR 057).
    await announceWrite(db);
  }
  await updateRun(db, runId, { status: 'done', finished_at: new Date(), done });
  const [finished] = await db.select().from(retentionRuns).where(eq(retentionRuns.id, runId));
  return runView(finished!);
}
