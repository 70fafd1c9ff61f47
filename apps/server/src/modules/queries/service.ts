import { UNRESOLVED_QUERY_STATUSES } from '@portal/shared';
import type {
  DataQuery,
  MonitoredRecordType,
  MonitoringFacts,
  QueryListQuery,
  VerificationMark,
} from '@portal/shared';
import type { queryBody } from '@portal/shared';
import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { queries, queryMessages, verifications } from '../../db/schema.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import { peopleOf, personFrom } from '../../lib/people.js';
import { findReachableRecord } from '../../policies/records.js';
import { reachesUnit, unitCondition, unitsInReach } from '../../policies/units.js';
import { can } from '../../plugins/policy.js';
import type { Actor } from '../../plugins/policy.js';
import { QUERY_FIELDS } from './fields.js';
import { enqueueNotification } from '../notifications/index.js';

type QueryRow = typeof queries.$inferSelect;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Unresolved: open (waiting for the site) or answered (waiting for the monitor). */
const unresolved = ne(queries.status, 'closed');

/** What the actor may do with a query (ADR 045): the same rules the writes apply. */
function queryAbilities(actor: Actor, row: Pick<QueryRow, 'status'>) {
  const mayWrite = can(actor, 'monitor.queries') || can(actor, 'queries.answer');
  return {
    answer: mayWrite && row.status !== 'closed',
    close: can(actor, 'monitor.queries') && row.status !== 'closed',
    reopen: can(actor, 'monitor.queries') && row.status === 'closed',
  };
}

async function present(
  db: Queryable,
  actor: Actor,
  rows: QueryRow[],
  now = Date.now(),
): Promise<DataQuery[]> {
  if (rows.length === 0) return [];
  const messages = await db
    .select()
    .from(queryMessages)
    .where(
      inArray(
        queryMessages.query_id,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(queryMessages.id));
  const people = await peopleOf(db, [
    ...rows.map((row) => row.opened_by),
    ...messages.map((message) => message.author_id),
  ]);
  return rows.map((row) => ({
    id: row.id,
    record_type: row.record_type,
    record_id: row.record_id,
    patient_id: row.patient_id,
    unit_id: row.unit_id,
    field: row.field,
    status: row.status,
    opened_by: personFrom(people, row.opened_by),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    closed_at: row.closed_at?.toISOString() ?? null,
    age_days: Math.max(0, Math.floor((now - row.created_at.getTime()) / DAY_MS)),
    messages: messages
      .filter((message) => message.query_id === row.id)
      .map((message) => ({
        id: message.id,
        author: personFrom(people, message.author_id),
        text: message.text,
        created_at: message.created_at.toISOString(),
      })),
    abilities: queryAbilities(actor, row),
  }));
}

/**
 * A query the actor reaches: by the unit it was opened in (the per-unit list's unit) or, after
 * the patient moved, by the record itself. Another unit's and a missing one answer 404.
 */
async function findReachableQuery(db: Queryable, actor: Actor, id: number): Promise<QueryRow> {
  const [row] = await db.select().from(queries).where(eq(queries.id, id));
  if (!row) throw notFound();
  if (!reachesUnit(actor, row.unit_id)) {
    await findReachableRecord(db, actor, row.record_type, row.record_id);
  }
  return row;
}

/**
 * POST /api/queries (a monitor, ADR 051): a query on a reachable record, or one of its fields
 * (QUERY_FIELDS; another name 422 `invalid_field`), with its first message. Audited by the
 * tables' triggers.
 */
export async function openQuery(
  db: Database,
  actor: Actor,
  body: z.output<typeof queryBody>,
): Promise<DataQuery> {
  const field = body.field ?? null;
  if (field !== null && !QUERY_FIELDS[body.record_type].has(field)) {
    throw invalid({ field: ['invalid_field'] });
  }
  return inTransaction(db, actor.userId, async (tx) => {
    const record = await findReachableRecord(tx, actor, body.record_type, body.record_id);
    const [row] = await tx
      .insert(queries)
      .values({
        record_type: body.record_type,
        record_id: body.record_id,
        patient_id: record.patientId,
        unit_id: record.unitId,
        field,
        opened_by: actor.userId,
      })
      .returning();
    await tx.insert(queryMessages).values({
      query_id: row!.id,
      patient_id: record.patientId,
      author_id: actor.userId,
      text: body.text,
    });
    // The site hears of it in the same transaction: a query is never opened unannounced (ADR 061).
    await enqueueNotification(tx, {
      type: 'query_opened',
      query_id: row!.id,
      patient_id: record.patientId,
    });
    const [shown] = await present(tx, actor, [row!]);
    return shown!;
  });
}

/**
 * A message in a query's thread. The site's message (queries.answer: a doctor, an administrator)
 * answers it (`answered`); a monitor's follow-up on an answered query waits for the site again
 * (`open`). A closed query takes no message (409 `query_closed`): the monitor reopens it first.
 */
export async function addMessage(
  db: Database,
  actor: Actor,
  id: number,
  text: string,
): Promise<DataQuery> {
  const monitor = can(actor, 'monitor.queries');
  if (!monitor && !can(actor, 'queries.answer')) throw forbidden();
  return inTransaction(db, actor.userId, async (tx) => {
    const current = await findReachableQuery(tx, actor, id);
    const next = monitor ? 'open' : 'answered';
    // The row's lock orders parallel messages, close and reopen; a closed query stays closed.
    const [row] = await tx
      .update(queries)
      .set({
        status: next,
        version: sql`${queries.version} + 1`,
        updated_at: new Date(),
      })
      .where(and(eq(queries.id, current.id), unresolved))
      .returning();
    if (!row) throw conflict('query_closed');
    await tx.insert(queryMessages).values({
      query_id: row.id,
      patient_id: row.patient_id,
      author_id: actor.userId,
      text,
    });
    const [shown] = await present(tx, actor, [row]);
    return shown!;
  });
}

/** POST /api/queries/{id}/close and /reopen (a monitor): 409 when it already is so. */
export async function setClosed(
  db: Database,
  actor: Actor,
  id: number,
  closed: boolean,
): Promise<DataQuery> {
  return inTransaction(db, actor.userId, async (tx) => {
    const current = await findReachableQuery(tx, actor, id);
    const [row] = await tx
      .update(queries)
      .set({
        status: closed ? 'closed' : 'open',
        closed_at: closed ? new Date() : null,
        version: sql`${queries.version} + 1`,
        updated_at: new Date(),
      })
      .where(and(eq(queries.id, current.id), closed ? unresolved : eq(queries.status, 'closed')))
      .returning();
    if (!row) throw conflict(closed ? 'query_closed' : 'query_not_closed');
    const [shown] = await present(tx, actor, [row]);
    return shown!;
  });
}

/**
 * GET /api/queries: the queries of the units within reach (the unit a query was opened in),
 * newest first, narrowed by status (one or several), unit, record and patient; paged with the list pattern's
 * total (ADR 021). A unit beyond reach answers 404; a record beyond reach is checked too.
 */
export async function listQueries(db: Database, actor: Actor, query: QueryListQuery) {
  if (query.unit_id !== undefined && !reachesUnit(actor, query.unit_id)) throw notFound();
  if (query.record_type !== undefined && query.record_id !== undefined) {
    await findReachableRecord(db, actor, query.record_type, query.record_id);
  }
  const where: SQL | undefined = and(
    unitCondition(actor, queries.unit_id),
    query.status ? inArray(queries.status, query.status) : undefined,
    query.unit_id ? eq(queries.unit_id, query.unit_id) : undefined,
    query.record_type ? eq(queries.record_type, query.record_type) : undefined,
    query.record_id ? eq(queries.record_id, query.record_id) : undefined,
    query.patient_id ? eq(queries.patient_id, query.patient_id) : undefined,
  );
  const direction = query.order_direction === 'asc' ? asc : desc;
  const [pageRows, total] = await Promise.all([
    db
      .select({ id: queries.id })
      .from(queries)
      .where(where)
      .orderBy(direction(queries.id))
      .limit(query.limit)
      .offset(offsetOf(query.page, query.limit)),
    listTotal(db, {
      key: totalKey('queries', {
        scope: unitsInReach(actor)?.join(',') ?? 'all',
        status: query.status?.join(','),
        unit: query.unit_id,
        type: query.record_type,
        record: query.record_id,
        patient: query.patient_id,
      }),
      rows: () => db.select({ id: queries.id }).from(queries).where(where),
    }),
  ]);
  const ids = pageRows.map((row) => row.id);
  const rows = ids.length ? await db.select().from(queries).where(inArray(queries.id, ids)) : [];
  return pagedAnswer(
    await present(
      db,
      actor,
      inOrderOf(ids, rows, (row) => row.id),
    ),
    total,
  );
}

/**
 * Unresolved (open or answered) queries per unit, for the dashboard: one index range per unit
 * (queries_unit_status_idx). Units without any are left out; `unitIds` narrows to those units.
 */
export async function countOpenQueriesByUnit(
  db: Queryable,
  unitIds?: readonly number[],
): Promise<Map<number, number>> {
  const rows = await db
    .select({ unitId: queries.unit_id, open: count() })
    .from(queries)
    .where(
      and(
        inArray(queries.status, [...UNRESOLVED_QUERY_STATUSES]),
        unitIds ? inArray(queries.unit_id, [...unitIds]) : undefined,
      ),
    )
    .groupBy(queries.unit_id);
  return new Map(rows.map((row) => [row.unitId, row.open]));
}

async function verificationOf(db: Queryable, type: MonitoredRecordType, id: number) {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.record_type, type), eq(verifications.record_id, id)))
    .orderBy(desc(verifications.id))
    .limit(1);
  return row ?? null;
}

async function presentMark(
  db: Queryable,
  row: typeof verifications.$inferSelect | null,
): Promise<VerificationMark> {
  if (!row || row.cleared_at) return null;
  const people = await peopleOf(db, [row.verified_by]);
  const person = personFrom(people, row.verified_by);
  const by = { id: person.id, firstname: person.firstname, surname: person.surname };
  return { by, at: row.verified_at.toISOString() };
}

/**
 * What a record's detail adds (ADR 051): its verification mark (null when none now), when a change
 * cleared the last one (null when verified or never verified), and its unresolved queries (for a
 * patient: those of any of its records).
 */
export async function monitoringFactsOf(
  db: Queryable,
  type: MonitoredRecordType,
  id: number,
): Promise<MonitoringFacts> {
  const [latest, [open]] = await Promise.all([
    verificationOf(db, type, id),
    db
      .select({ open: count() })
      .from(queries)
      .where(
        and(
          unresolved,
          type === 'patient'
            ? eq(queries.patient_id, id)
            : and(eq(queries.record_type, type), eq(queries.record_id, id)),
        ),
      ),
  ]);
  return {
    verified: await presentMark(db, latest),
    changed_after_verification_at: latest?.cleared_at?.toISOString() ?? null,
    open_queries: open?.open ?? 0,
  };
}

/**
 * POST /api/verifications (a monitor): marks a reachable record verified as it is now. Marking a
 * record that is already verified keeps the mark (the unique index of current marks decides,
 * also in parallel). A change to the record later clears it (migration 0028's trigger).
 */
export async function verify(
  db: Database,
  actor: Actor,
  type: MonitoredRecordType,
  id: number,
): Promise<VerificationMark> {
  return inTransaction(db, actor.userId, async (tx) => {
    const record = await findReachableRecord(tx, actor, type, id);
    await tx
      .insert(verifications)
      .values({
        record_type: type,
        record_id: id,
        patient_id: record.patientId,
        verified_by: actor.userId,
      })
      .onConflictDoNothing();
    return presentMark(tx, await verificationOf(tx, type, id));
  });
}
