import { warsawDayEnd, warsawDayStart } from '@portal/shared';
import type { AccessLogEntry, AccessLogQuery, PatientIdentity } from '@portal/shared';
import { and, asc, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { accessLog, doctors, users } from '../../db/schema.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import type { ListTotal } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import { findReachablePatient } from '../../policies/patients.js';
import type { Actor } from '../../plugins/policy.js';

/**
 * An entry's `at` is its INSERT's transaction start and its id is drawn a moment later, within
 * one statement (ADR 052): ids follow time up to this slack, so a date range becomes an id range.
 */
const INSERT_SLACK_MS = 60 * 1000;

interface Filter {
  patientIds?: number[];
  userIds?: number[];
  from?: Date;
  to?: Date;
  /** Every matching entry's id lies above `above` and below `below` (from the date range). */
  above?: number;
  below?: number;
}

/** A bound of the query: a Warsaw calendar day (whole, `to` inclusive) or an exact instant. */
function instant(value: string, edge: 'start' | 'end'): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return edge === 'start' ? warsawDayStart(value) : warsawDayEnd(value);
  }
  return new Date(value);
}

/** The date range as an id range, through the `at` index (two index probes). */
async function idRange(db: Database, from?: Date, to?: Date) {
  const [below, above] = await Promise.all([
    from
      ? db
          .select({ id: accessLog.id })
          .from(accessLog)
          .where(lt(accessLog.at, new Date(from.getTime() - INSERT_SLACK_MS)))
          .orderBy(desc(accessLog.at))
          .limit(1)
      : [],
    to
      ? db
          .select({ id: accessLog.id })
          .from(accessLog)
          .where(gte(accessLog.at, new Date(to.getTime() + INSERT_SLACK_MS)))
          .orderBy(asc(accessLog.at))
          .limit(1)
      : [],
  ]);
  return { above: below[0]?.id, below: above[0]?.id };
}

function conditions(filter: Filter): SQL | undefined {
  return and(
    filter.patientIds
      ? sql`${accessLog.patient_ids} && ${sql.raw(`array[${filter.patientIds.join(',')}]`)}::int[]`
      : undefined,
    filter.userIds ? inArray(accessLog.user_id, filter.userIds) : undefined,
    filter.from ? gte(accessLog.at, filter.from) : undefined,
    filter.to ? lt(accessLog.at, filter.to) : undefined,
    filter.above !== undefined ? gt(accessLog.id, filter.above) : undefined,
    filter.below !== undefined ? lt(accessLog.id, filter.below) : undefined,
  );
}

/**
 * One page of ids, newest first. `after`/`before` page by key (ADR 052): the primary key is
 * entered at the cursor, so page 50 000 costs what page 1 does; `page` alone is an offset.
 */
async function pageIds(db: Database, filter: Filter, query: AccessLogQuery, total: ListTotal) {
  const base = and(
    conditions(filter),
    query.after !== undefined ? lt(accessLog.id, query.after) : undefined,
  );
  if (query.before !== undefined) {
    const rows = await db
      .select({ id: accessLog.id })
      .from(accessLog)
      .where(and(base, gt(accessLog.id, query.before)))
      .orderBy(asc(accessLog.id))
      .limit(query.limit);
    return rows.map((row) => row.id).reverse();
  }
  const offset = query.after !== undefined ? 0 : offsetOf(query.page, query.limit);
  if (total.total_kind === 'exact' && offset >= total.total) return [];
  const rows = await db
    .select({ id: accessLog.id })
    .from(accessLog)
    .where(base)
    .orderBy(desc(accessLog.id))
    .limit(query.limit)
    .offset(offset);
  return rows.map((row) => row.id);
}

function unique(ids: number[] | undefined) {
  return ids ? [...new Set(ids)].sort((a, b) => a - b) : undefined;
}

/** GET /api/access_log: who read which patients' data, newest first (ADR 052). */
export async function listAccessLog(db: Database, query: AccessLogQuery) {
  const from = query.from ? instant(query.from, 'start') : undefined;
  const to = query.to ? instant(query.to, 'end') : undefined;
  const patientIds = unique(query.patientIds);
  const userIds = unique(query.userIds);
  const filter: Filter = {
    ...(patientIds ? { patientIds } : {}),
    ...(userIds ? { userIds } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const range = await idRange(db, from, to);
  if (range.above !== undefined) filter.above = range.above;
  if (range.below !== undefined) filter.below = range.below;
  if ((patientIds && patientIds.length === 0) || (userIds && userIds.length === 0)) {
    return pagedAnswer([], { total: 0, total_kind: 'exact' });
  }
  const unfiltered = !patientIds && !userIds && !from && !to;
  // Every read adds entries without being a write that forgets remembered totals (ADR 021): the
  // newest id in the key keeps a total only while the log has not grown (one index probe).
  const [newest] = await db
    .select({ id: sql<number | null>`max(${accessLog.id})` })
    .from(accessLog);
  const total = await listTotal(db, {
    key: totalKey('access_log', {
      patientIds,
      userIds,
      from: query.from,
      to: query.to,
      newest: newest?.id ?? 0,
    }),
    rows: () => db.select({ id: accessLog.id }).from(accessLog).where(conditions(filter)),
    ...(unfiltered ? { unfilteredTable: 'access_log' } : {}),
  });
  const ids = await pageIds(db, filter, query, total);
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({
            entry: accessLog,
            login: users.login,
            role: users.role,
            firstname: doctors.firstname,
            surname: doctors.surname,
          })
          .from(accessLog)
          .innerJoin(users, eq(users.id, accessLog.user_id))
          .leftJoin(doctors, eq(doctors.user_id, users.id))
          .where(inArray(accessLog.id, ids));
  const data: AccessLogEntry[] = inOrderOf(ids, rows, (row) => row.entry.id).map(
    ({ entry, login, role, firstname, surname }) => ({
      id: entry.id,
      user: { id: entry.user_id, login, firstname, surname, role },
      at: entry.at.toISOString(),
      address: entry.address,
      kind: entry.kind,
      patient_ids: entry.patient_ids,
    }),
  );
  return pagedAnswer(data, total);
}

/** GET /api/patients/{id}/identity: what a masked answer hides, of a reachable patient. */
export async function patientIdentity(
  db: Database,
  actor: Actor,
  id: number,
): Promise<PatientIdentity> {
  const row = await findReachablePatient(db, actor, id);
  return { pesel: row.pesel, email: row.email, phone_number: row.phone_number };
}
