import { warsawDayEnd, warsawDayStart } from '@portal/shared';
import type { AuditEntry, AuditQuery, ReasonCode } from '@portal/shared';
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditEntries, doctors, patients, users } from '../../db/schema.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import type { ListTotal, TotalPlan } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import { namesOf, visibleEntries } from './names.js';
import { invalid, notFound } from '../../lib/errors.js';
import { hidesIdentity } from '../../policies/identity.js';
import { patientScope } from '../../policies/patients.js';
import type { Actor } from '../../plugins/policy.js';

/**
 * The longest a writing transaction is assumed to last. An entry's `updated_at` is its
 * transaction's start (now()) while its id is drawn when the row is written, so ids follow time
 * only up to this slack; the id bounds of a day range below are widened by it (ADR 022).
 */
export const AUDIT_TRANSACTION_SLACK_MS = 60 * 60 * 1000;

/**
 * Up to this many patients or doctors, each one's newest entries are read from its own index
 * range and merged (a few index probes); a longer list is filtered as a whole.
 */
const MAX_MERGED_KEYS = 100;

interface IdBounds {
  /** Every matching entry has an id above this one. */
  after?: number;
  /** Every matching entry has an id below this one. */
  before?: number;
}

/**
 * Translates a day range into an id range through the `updated_at` index (two index probes),
 * because ids grow with time: an entry written before `from - slack` was drawn its id before any
 * entry of the range, one stamped after `to + slack` after all of them. The exact `updated_at`
 * condition stays in the query; the id range only tells PostgreSQL where to walk the primary key
 * (newest first), so that a narrow old range does not walk years of newer entries and a wide
 * recent one is not sorted as a whole.
 */
async function idBounds(db: Database, from: Date | undefined, to: Date | undefined) {
  const bounds: IdBounds = {};
  const [below, above] = await Promise.all([
    from
      ? db
          .select({ id: auditEntries.id })
          .from(auditEntries)
          .where(lt(auditEntries.updated_at, new Date(from.getTime() - AUDIT_TRANSACTION_SLACK_MS)))
          .orderBy(desc(auditEntries.updated_at))
          .limit(1)
      : [],
    to
      ? db
          .select({ id: auditEntries.id })
          .from(auditEntries)
          .where(gte(auditEntries.updated_at, new Date(to.getTime() + AUDIT_TRANSACTION_SLACK_MS)))
          .orderBy(asc(auditEntries.updated_at))
          .limit(1)
      : [],
  ]);
  if (below[0]) bounds.after = below[0].id;
  if (above[0]) bounds.before = above[0].id;
  return bounds;
}

interface AuditFilter {
  patientIds?: number[];
  /** The doctors' user ids (entries name the acting user). */
  userIds?: number[];
  from?: Date;
  to?: Date;
  /** A reason code, or 'any' for entries with a reason (ADR 048). */
  reason?: ReasonCode | 'any';
  bounds: IdBounds;
}

function unique(ids: number[] | undefined): number[] | undefined {
  return ids ? [...new Set(ids)].sort((a, b) => a - b) : undefined;
}

/** The conditions of the filter except `skip`, which the caller matches per key instead. */
function conditions(filter: AuditFilter, skip?: 'patientIds' | 'userIds'): SQL | undefined {
  return and(
    visibleEntries,
    filter.patientIds && skip !== 'patientIds'
      ? inArray(auditEntries.patient_id, filter.patientIds)
      : undefined,
    filter.userIds && skip !== 'userIds'
      ? inArray(auditEntries.user_id, filter.userIds)
      : undefined,
    filter.bounds.after !== undefined ? gt(auditEntries.id, filter.bounds.after) : undefined,
    filter.bounds.before !== undefined ? lt(auditEntries.id, filter.bounds.before) : undefined,
    filter.from ? gte(auditEntries.updated_at, filter.from) : undefined,
    filter.to ? lt(auditEntries.updated_at, filter.to) : undefined,
    filter.reason === 'any'
      ? isNotNull(auditEntries.reason_code)
      : filter.reason
        ? eq(auditEntries.reason_code, filter.reason)
        : undefined,
  );
}

function idList(ids: number[]): SQL {
  return sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
}

/**
 * The ids of one page, newest first. With a few patients (or doctors) the page is merged from
 * each one's newest `offset + limit` entries in its `(patient_id, id)` / `(user_id, id)` index,
 * which costs the same however many entries they have; otherwise the primary key is walked
 * backwards from the newest (or the range's last) entry.
 */
async function pageIds(
  db: Database,
  filter: AuditFilter,
  limit: number,
  offset: number,
  oldestFirst = false,
) {
  // Keyset pages towards the newer entries walk up from the cursor and are turned back.
  const order = oldestFirst ? asc : desc;
  const newestFirst = (ids: number[]) => (oldestFirst ? ids.reverse() : ids);
  const key: 'patientIds' | 'userIds' | undefined =
    filter.patientIds && filter.patientIds.length <= MAX_MERGED_KEYS
      ? 'patientIds'
      : filter.userIds && filter.userIds.length <= MAX_MERGED_KEYS
        ? 'userIds'
        : undefined;
  if (!key) {
    const rows = await db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(conditions(filter))
      .orderBy(order(auditEntries.id))
      .limit(limit)
      .offset(offset);
    return newestFirst(rows.map((row) => row.id));
  }
  const keyColumn = key === 'patientIds' ? auditEntries.patient_id : auditEntries.user_id;
  const keys = filter[key]!;
  if (keys.length === 0) return [];
  const newestOfOne = db
    .select({ id: auditEntries.id })
    .from(auditEntries)
    .where(and(sql`${keyColumn} = k.v`, conditions(filter, key)))
    .orderBy(order(auditEntries.id))
    .limit(offset + limit);
  const rows = await db
    .select({ id: sql<number>`page.id`.mapWith(Number) })
    .from(
      sql`unnest(array[${idList(keys)}]::int[]) as k(v) cross join lateral (${newestOfOne}) as page`,
    )
    .orderBy(oldestFirst ? sql`page.id asc` : sql`page.id desc`)
    .limit(limit)
    .offset(offset);
  return newestFirst(rows.map((row) => row.id));
}

/**
 * The page's ids: by key when the query names a cursor (`after`: the entries older than it,
 * `before`: the newer ones, both as id bounds that enter the primary key or each patient's index
 * at the cursor), else by `page`'s offset (ADR 022).
 */
async function keyedOrOffsetPage(
  db: Database,
  filter: AuditFilter,
  query: AuditQuery,
  total: ListTotal,
) {
  if (query.after === undefined && query.before === undefined) {
    const offset = offsetOf(query.page, query.limit);
    return total.total_kind === 'exact' && offset >= total.total
      ? []
      : pageIds(db, filter, query.limit, offset);
  }
  const bounds = { ...filter.bounds };
  if (query.after !== undefined)
    bounds.before = Math.min(bounds.before ?? query.after, query.after);
  if (query.before !== undefined)
    bounds.after = Math.max(bounds.after ?? query.before, query.before);
  return pageIds(db, { ...filter, bounds }, query.limit, 0, query.before !== undefined);
}

async function auditFilter(db: Database, query: AuditQuery): Promise<AuditFilter> {
  const doctorIds = unique(query.doctorIds);
  const userIds = doctorIds
    ? doctorIds.length === 0
      ? []
      : (
          await db
            .select({ id: doctors.user_id })
            .from(doctors)
            .where(inArray(doctors.id, doctorIds))
        )
          .map((row) => row.id)
          .sort((a, b) => a - b)
    : undefined;
  // Dates in filters are calendar days in Warsaw, whatever the server's time zone.
  const from = query.from_date ? warsawDayStart(query.from_date) : undefined;
  const to = query.to_date ? warsawDayEnd(query.to_date) : undefined;
  return {
    ...(query.patientIds ? { patientIds: unique(query.patientIds)! } : {}),
    ...(userIds ? { userIds } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(query.reason ? { reason: query.reason } : {}),
    bounds: await idBounds(db, from, to),
  };
}

export interface AuditListOptions {
  /** Tests only: the table size from which the unfiltered total is estimated. */
  estimateFrom?: number;
}

export async function listAudit(db: Database, query: AuditQuery, options: AuditListOptions = {}) {
  const filter = await auditFilter(db, query);
  const unfiltered =
    !query.patientIds && !query.doctorIds && !filter.from && !filter.to && !filter.reason;
  const plan: TotalPlan = {
    key: totalKey('audit', {
      patientIds: filter.patientIds,
      userIds: filter.userIds,
      from: query.from_date,
      to: query.to_date,
      reason: query.reason,
    }),
    rows: () => db.select({ id: auditEntries.id }).from(auditEntries).where(conditions(filter)),
    ...(unfiltered ? { unfilteredTable: 'audit_entries' } : {}),
    ...(options.estimateFrom !== undefined ? { estimateFrom: options.estimateFrom } : {}),
  };
  // The total first (remembered while paging): a page past an exact total is known to be empty
  // without walking the index up to its offset.
  const total = await listTotal(db, plan);
  const ids = await keyedOrOffsetPage(db, filter, query, total);
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({
            entry: auditEntries,
            login: users.login,
            patientId: patients.id,
            firstname: patients.firstname,
            surname: patients.surname,
          })
          .from(auditEntries)
          .leftJoin(users, eq(users.id, auditEntries.user_id))
          .leftJoin(patients, eq(patients.id, auditEntries.patient_id))
          .where(inArray(auditEntries.id, ids));
  const ordered = inOrderOf(ids, rows, (row) => row.entry.id);
  const names = await namesOf(
    db,
    ordered.map((row) => row.entry),
  );
  const data: AuditEntry[] = ordered.map(
    ({ entry, login, patientId, firstname, surname }, index) => ({
      id: entry.id,
      updated_at: entry.updated_at.toISOString(),
      user: { login, name: names[index]!.user },
      source: entry.source,
      record: names[index]!.record,
      patient: patientId
        ? { id: patientId, firstname: firstname ?? '', surname: surname ?? '' }
        : null,
      entity_name: entry.entity_name,
      column_name: entry.column_name,
      old_value: entry.old_value,
      new_value: entry.new_value,
      old_name: names[index]!.old_name,
      new_name: names[index]!.new_name,
      operation: entry.operation,
      reason: entry.reason_code ? { code: entry.reason_code, text: entry.reason_text } : null,
    }),
  );
  return pagedAnswer(data, total);
}

/** Columns whose values a reader without the patient's identity never sees (ADR 051). */
const IDENTITY_COLUMNS = new Set([
  'pesel',
  'email',
  'phone_number',
  'address_street',
  'address_building',
  'address_apartment',
  'address_postcode',
  'address_city',
]);

/**
 * The trail as the actor may read it. A monitor (ADR 051) reads the trail of reachable patients
 * only, named in `patientIds` (without them 422; another unit's patient 404, as everywhere), with
 * the values of identity and contact columns hidden; everyone else reads listAudit as it is.
 */
export async function listAuditFor(
  db: Database,
  actor: Actor,
  query: AuditQuery,
  options: AuditListOptions = {},
) {
  if (!hidesIdentity(actor)) return listAudit(db, query, options);
  const wanted = [...new Set(query.patientIds ?? [])];
  if (wanted.length === 0) throw invalid({ patientIds: ['required'] });
  const reached = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(inArray(patients.id, wanted), patientScope(actor)));
  if (reached.length !== wanted.length) throw notFound();
  const answer = await listAudit(db, { ...query, patientIds: wanted }, options);
  return {
    ...answer,
    data: answer.data.map((entry) =>
      entry.entity_name === 'patients' && IDENTITY_COLUMNS.has(entry.column_name)
        ? { ...entry, old_value: null, new_value: null, old_name: null, new_name: null }
        : entry,
    ),
  };
}
