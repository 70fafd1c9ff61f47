import fc from 'fast-check';
import type { AccessLogList } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetListTotals } from '../../lib/list-totals.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';

/**
 * The read log's pages by key (ADR 052) against its pages by offset, for any filters, on PGlite
 * and, with TEST_DATABASE_URL, on PostgreSQL as the app's role.
 */
let t: TestApp;
let iod: ReadyAdmin;
let userIds: number[];
const PATIENTS = [910_001, 910_002, 910_003, 910_004, 910_005];

beforeAll(async () => {
  t = await createTestApp();
  iod = await t.readyIod();
  const unit = await t.unit();
  const doctors = [await t.readyDoctor(unit.id), await t.readyDoctor(unit.id)];
  userIds = [iod.session.user.id, ...doctors.map((doctor) => doctor.session.user.id)];
  // 600 entries over ten days of March 2001, 24 minutes apart, each naming one or two patients.
  await t.handle.executeSql(`
    insert into access_log (user_id, at, address, kind, patient_ids)
    select (array[${userIds.join(',')}])[1 + g % ${userIds.length}],
           timestamptz '2001-03-01 00:00+01' + g * interval '24 minutes',
           '10.0.0.' || (g % 7), 'patient_card',
           case when g % 3 = 0
             then array[(array[${PATIENTS.join(',')}])[1 + g % 5], (array[${PATIENTS.join(',')}])[1 + (g + 1) % 5]]
             else array[(array[${PATIENTS.join(',')}])[1 + g % 5]] end
    from generate_series(1, 600) g`);
});
afterAll(() => t?.close());

const day = fc
  .integer({ min: 0, max: 12 })
  .map((n) => new Date(Date.UTC(2001, 1, 27 + n)).toISOString().slice(0, 10));

async function ids(query: Record<string, string>): Promise<number[]> {
  const res = await t.request('GET', '/api/access_log', { token: iod.session.token, query });
  expect(res.statusCode).toBe(200);
  return res.json<AccessLogList>().data.map((entry) => entry.id);
}

describe('the read log paged by key', () => {
  it('answers with after and before the pages that page answers, for any filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            patientIds: fc.subarray([...PATIENTS, 999_999], { minLength: 1 }),
            userIds: fc.subarray([...userIds, 999_999], { minLength: 1 }),
            from: day,
            to: day,
          },
          { requiredKeys: [] },
        ),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 40 }),
        async (filters, page, limit) => {
          const base: Record<string, string> = { limit: String(limit) };
          if (filters.patientIds) base.patientIds = filters.patientIds.join(',');
          if (filters.userIds) base.userIds = filters.userIds.join(',');
          if (filters.from) base.from = filters.from;
          if (filters.to) base.to = filters.to;
          forgetListTotals(t.db);
          const [previous, current, next] = await Promise.all([
            ids({ ...base, page: String(page - 1) }),
            ids({ ...base, page: String(page) }),
            ids({ ...base, page: String(page + 1) }),
          ]);
          if (previous.length > 0) {
            expect(await ids({ ...base, after: String(previous.at(-1)) })).toEqual(current);
          }
          if (next.length > 0) {
            expect(await ids({ ...base, before: String(next[0]) })).toEqual(current);
          }
          if (current.length > 0) {
            expect(await ids({ ...base, before: String(current[0]) })).toEqual(previous);
            expect(await ids({ ...base, after: String(current.at(-1)) })).toEqual(next);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('counts the entries written since a total was remembered (reads forget no totals)', async () => {
    const total = async () =>
      (
        await t.request('GET', '/api/access_log', {
          token: iod.session.token,
          query: { patientIds: String(PATIENTS[0]) },
        })
      ).json<AccessLogList>().total;
    const before = await total();
    await t.handle.executeSql(
      `insert into access_log (user_id, address, kind, patient_ids) values (${userIds[0]}, '10.0.0.9', 'patient_card', array[${PATIENTS[0]}])`,
    );
    expect(await total()).toBe(before + 1);
  });

  it('refuses a malformed cursor with 422', async () => {
    const malformed: Record<string, string>[] = [
      { after: 'x' },
      { before: '-1' },
      { after: '1.5' },
      { before: '' },
    ];
    for (const query of malformed) {
      const res = await t.request('GET', '/api/access_log', { token: iod.session.token, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
    }
  });
});
