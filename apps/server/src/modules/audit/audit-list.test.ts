import fc from 'fast-check';
import { COUNT_CAP, auditQuery, warsawDayEnd, warsawDayStart } from '@portal/shared';
import { and, count, desc, gte, inArray, lt, ne } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, doctors } from '../../db/schema.js';
import { forgetListTotals } from '../../lib/list-totals.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';
import { listAudit } from './service.js';

let t: TestApp;
let admin: ReadyAdmin;
/** The doctors that the seeded entries name as acting users. */
let seededDoctors: { id: number; userId: number }[];
const PATIENTS = [900_001, 900_002, 900_003, 900_004, 900_005, 900_006];
const CROWDED_PATIENT = 800_000;

/**
 * Runs SQL as the database's owner: on PostgreSQL the tests may connect as the app role, which
 * may neither write audit entries directly nor ANALYZE.
 */
async function asOwner(statement: string) {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl || !t.databaseName) {
    await t.handle.executeSql(statement);
    return;
  }
  const url = new URL(ownerUrl);
  url.pathname = `/${t.databaseName}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  const unit = await t.unit();
  for (let i = 0; i < 3; i++) await t.doctor(unit.id);
  seededDoctors = (await t.db.select({ id: doctors.id, userId: doctors.user_id }).from(doctors))
    .map((row) => ({ id: row.id, userId: row.userId }))
    .sort((a, b) => a.id - b.id);
  const users = seededDoctors.map((doctor) => doctor.userId);
  // First (ids grow with time): more entries of one patient than a filtered total counts.
  await asOwner(`
    insert into audit_entries (updated_at, user_id, patient_id, entity_name, entity_id, operation, column_name, new_value)
    select timestamptz '2000-06-01 12:00+02', null, ${CROWDED_PATIENT}, 'patients', '1', 'update', 'weight', g::text
    from generate_series(1, ${COUNT_CAP + 5}) g`);
  // 1,000 entries over two weeks of March 2001, 20 minutes apart, across Warsaw midnights. Ids
  // grow with time, but every odd entry is stamped 25 minutes early, every even one 25 minutes
  // late (a transaction's start), so that id order and time order disagree at every boundary, as they may in real life.
  await asOwner(`
    insert into audit_entries (updated_at, user_id, patient_id, entity_name, entity_id, operation, column_name, old_value, new_value)
    select timestamptz '2001-03-01 00:00+01' + g * interval '20 minutes' + (25 - 50 * (g % 2)) * interval '1 minute',
           (array[${users.join(',')}, null])[1 + g % 4],
           (array[${PATIENTS.join(',')}])[1 + g % 6],
           'patients', g::text, 'update',
           -- Every 7th a version bump, which the list hides (ADR 042).
           case when g % 7 = 0 then 'version' else 'weight' end, (g - 1)::text, g::text
    from generate_series(1, 1000) g`);
});
afterAll(() => t?.close());

/** The query as a naive reading of the filter would run it: the reference for the fast path. */
async function naive(query: ReturnType<typeof auditQuery.parse>) {
  const where = and(
    ne(auditEntries.column_name, 'version'),
    query.patientIds ? inArray(auditEntries.patient_id, query.patientIds) : undefined,
    query.doctorIds
      ? inArray(
          auditEntries.user_id,
          t.db
            .select({ id: doctors.user_id })
            .from(doctors)
            .where(inArray(doctors.id, query.doctorIds)),
        )
      : undefined,
    query.from_date ? gte(auditEntries.updated_at, warsawDayStart(query.from_date)) : undefined,
    query.to_date ? lt(auditEntries.updated_at, warsawDayEnd(query.to_date)) : undefined,
  );
  const [ids, [total]] = await Promise.all([
    t.db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    t.db.select({ n: count() }).from(auditEntries).where(where),
  ]);
  return { ids: ids.map((row) => row.id), total: total!.n };
}

const day = fc
  .integer({ min: 0, max: 20 })
  .map((n) => new Date(Date.UTC(2001, 1, 26 + n)).toISOString().slice(0, 10));

describe('the audit list', () => {
  it('answers the same page and total as a naive query, for any filters', async () => {
    const doctorIds = [...seededDoctors.map((doctor) => doctor.id), 999_999];
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            patientIds: fc.subarray([...PATIENTS, 999_999], { minLength: 1 }),
            doctorIds: fc.subarray(doctorIds, { minLength: 1 }),
            from_date: day,
            to_date: day,
          },
          { requiredKeys: [] },
        ),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 40 }),
        async (filters, page, limit) => {
          const query = auditQuery.parse({
            ...(filters.patientIds ? { patientIds: filters.patientIds.join(',') } : {}),
            ...(filters.doctorIds ? { doctorIds: filters.doctorIds.join(',') } : {}),
            ...(filters.from_date ? { from_date: filters.from_date } : {}),
            ...(filters.to_date ? { to_date: filters.to_date } : {}),
            page: String(page),
            limit: String(limit),
          });
          forgetListTotals(t.db);
          const [fast, reference] = await Promise.all([listAudit(t.db, query), naive(query)]);
          expect(fast.data.map((entry) => entry.id)).toEqual(reference.ids);
          const unfiltered = Object.keys(filters).length === 0;
          if (reference.total > COUNT_CAP && !unfiltered) {
            expect(fast).toMatchObject({ total: COUNT_CAP, total_kind: 'at_least' });
          } else {
            expect(fast).toMatchObject({ total: reference.total, total_kind: 'exact' });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pages by key: after and before answer the pages that page answers, for any filters', async () => {
    const doctorIds = [...seededDoctors.map((doctor) => doctor.id), 999_999];
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            // Up to 100 patients each one's index is merged; more are filtered as a whole.
            patientIds: fc.oneof(
              fc.subarray([...PATIENTS, CROWDED_PATIENT], { minLength: 1 }),
              fc.constant([...PATIENTS, ...Array.from({ length: 100 }, (_, i) => 700_000 + i)]),
            ),
            doctorIds: fc.subarray(doctorIds, { minLength: 1 }),
            from_date: day,
            to_date: day,
            reason: fc.constant('any' as const),
          },
          { requiredKeys: [] },
        ),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 40 }),
        async (filters, page, limit) => {
          const base = {
            ...(filters.patientIds ? { patientIds: filters.patientIds.join(',') } : {}),
            ...(filters.doctorIds ? { doctorIds: filters.doctorIds.join(',') } : {}),
            ...(filters.from_date ? { from_date: filters.from_date } : {}),
            ...(filters.to_date ? { to_date: filters.to_date } : {}),
            ...(filters.reason ? { reason: filters.reason } : {}),
            limit: String(limit),
          };
          const ids = async (extra: Record<string, string>) =>
            (await listAudit(t.db, auditQuery.parse({ ...base, ...extra }))).data.map(
              (entry) => entry.id,
            );
          const [previous, current, next] = await Promise.all([
            ids({ page: String(page - 1) }),
            ids({ page: String(page) }),
            ids({ page: String(page + 1) }),
          ]);
          if (previous.length > 0) {
            expect(await ids({ after: String(previous.at(-1)) })).toEqual(current);
          }
          if (next.length > 0) {
            expect(await ids({ before: String(next[0]) })).toEqual(current);
          }
          if (current.length > 0) {
            // Back from the page: the previous one again, and on from it the next one.
            expect(await ids({ before: String(current[0]) })).toEqual(previous);
            expect(await ids({ after: String(current.at(-1)) })).toEqual(next);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pages by key over HTTP, with the cursors in the OpenAPI', async () => {
    const get = (query: Record<string, string>) =>
      t.request('GET', '/api/audit_trial', { token: admin.session.token, query });
    const first = (await get({ limit: '5' })).json<{ data: { id: number }[] }>().data;
    const second = (await get({ limit: '5', page: '2' })).json<{ data: { id: number }[] }>().data;
    const keyed = await get({ limit: '5', after: String(first.at(-1)!.id) });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.json<{ data: { id: number }[] }>().data).toEqual(second);
    const back = await get({ limit: '5', before: String(second[0]!.id) });
    expect(back.json<{ data: { id: number }[] }>().data).toEqual(first);
    expect((await get({ after: 'x' })).statusCode).toBe(422);
    expect((await get({ before: '-1' })).statusCode).toBe(422);
    const openapi = (await t.request('GET', '/api/docs/json')).json<{
      paths: Record<string, { get: { parameters: { name: string }[] } }>;
    }>();
    const names = openapi.paths['/api/audit_trial']!.get.parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['after', 'before', 'page', 'limit']));
    const logNames = openapi.paths['/api/access_log']!.get.parameters.map((p) => p.name);
    expect(logNames).toEqual(expect.arrayContaining(['after', 'before', 'page', 'limit']));
  });

  it('counts a filter exactly, stops at the cap, and estimates the whole trail when told to', async () => {
    const one = await t.request('GET', '/api/audit_trial', {
      token: admin.session.token,
      query: { patientIds: String(PATIENTS[0]) },
    });
    // 166 entries, of which the 23 version bumps (every 42nd) are hidden.
    expect(one.json()).toMatchObject({ total: 143, total_kind: 'exact' });

    const crowded = await t.request('GET', '/api/audit_trial', {
      token: admin.session.token,
      query: { patientIds: String(CROWDED_PATIENT), page: '501', limit: '20' },
    });
    expect(crowded.json()).toMatchObject({ total: COUNT_CAP, total_kind: 'at_least' });
    expect(crowded.json<{ data: unknown[] }>().data).toHaveLength(5);

    const [all] = await t.db
      .select({ n: count() })
      .from(auditEntries)
      .where(ne(auditEntries.column_name, 'version'));
    forgetListTotals(t.db);
    expect(await listAudit(t.db, auditQuery.parse({}))).toMatchObject({
      total: all!.n,
      total_kind: 'exact',
    });
    // A whole trail of a million entries is estimated from the statistics; the decision is the
    // same at any threshold, so the test lowers it instead of writing a million rows.
    await asOwner('analyze audit_entries');
    forgetListTotals(t.db);
    const estimated = await listAudit(t.db, auditQuery.parse({}), { estimateFrom: 1 });
    expect(estimated.total_kind).toBe('estimate');
    expect(Math.abs(estimated.total - all!.n) / all!.n).toBeLessThan(0.2);
    expect(estimated.data).toHaveLength(20);
  });

  it('answers a page past the end empty with the total, and refuses malformed filters with 422', async () => {
    const get = (query: Record<string, string>) =>
      t.request('GET', '/api/audit_trial', { token: admin.session.token, query });
    const past = await get({ patientIds: String(PATIENTS[1]), page: '100' });
    expect(past.statusCode).toBe(200);
    // 167 entries less 24 hidden version bumps.
    expect(past.json()).toEqual({ data: [], total: 143, total_kind: 'exact' });
    // Far past the end of an exact total: empty at once, the index is not walked to the offset.
    const far = await get({ page: String(Number.MAX_SAFE_INTEGER) });
    expect(far.statusCode).toBe(200);
    expect(far.json<{ data: unknown[] }>().data).toEqual([]);

    const malformed: Record<string, string>[] = [
      { patientIds: '1,%' },
      { patientIds: '_' },
      { doctorIds: '\\' },
      { patientIds: 'ł' },
      { from_date: '2001-02-30' },
      { to_date: 'x'.repeat(1000) },
      { page: '0' },
      { limit: '100000' },
    ];
    for (const query of malformed) {
      const res = await get(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
    }
    // An id that no row can have (more than 10 digits) is a clear 404, as everywhere else.
    expect((await get({ doctorIds: '1'.repeat(1000) })).statusCode).toBe(404);
  });
});
