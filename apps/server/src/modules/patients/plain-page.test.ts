import { patientList } from '@portal/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyDoctor, TestApp } from '../../test/harness.js';

/**
 * The plain page (ADR 057): a page sorted by a patients column, neither searched nor filtered, is
 * a named statement built once and its answer is written by fast-json-stringify. It answers,
 * byte for byte, what the same page answers through the per-request path (asked for with a
 * filter that every patient passes: all the doctors), and what zod's serializer wrote, for every
 * sort, paging and scope: an administrator, a doctor, monitors of one and of two units.
 */

let t: TestApp;
let doctors: ReadyDoctor[] = [];
const tokens: Record<string, string> = {};
const SEEDED = 60;
/** Names that a serializer could get wrong: quotes, backslash, control characters, emoji. */
const ODD = ['O"Brien\\', 'Żółć\u0007\ttab', '😀 </script>', 'Ünïcödé\u2028'];

beforeAll(async () => {
  t = await createTestApp();
  const units = [(await t.unit()).id, (await t.unit()).id, (await t.unit()).id];
  doctors = [await t.readyDoctor(units[0]!), await t.readyDoctor(units[1]!)];
  doctors.push(await t.readyDoctor(units[2]!));
  tokens.admin = (await t.readyAdmin()).session.token;
  tokens.doctor = doctors[0]!.session.token;
  tokens.monitorOfTwo = (await t.readyMonitor([units[0]!, units[2]!])).session.token;
  tokens.monitorOfOne = (await t.readyMonitor([units[1]!])).session.token;
  const docIds = sql.raw(`array[${doctors.map((d) => d.doctor.id).join(',')}]`);
  const unitIds = sql.raw(`array[${doctors.map((d) => d.doctor.unit_id).join(',')}]`);
  const odd = sql.raw(`array[${ODD.map((n) => `E'${n.replace(/\\/g, '\\\\')}'`).join(',')}]`);
  await t.db.execute(sql`
    with accounts as (
      insert into users (login, password_hash, role)
      select 'zwykla' || lpad(g::text, 4, '0'), 'x', 'patient' from generate_series(1, ${SEEDED}) g
      returning id
    ), numbered as (select id, row_number() over (order by id) as g from accounts)
    insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                          acceptance, doctor_id, unit_id, is_finished, deleted_at, email,
                          address_street, address_city)
    select id, case when g % 5 = 0 then (${odd})[1 + g / 5 % 4] else 'Ola' end,
           (array['Nowak', 'Kowalska', 'Żak', 'Lis'])[1 + g * 7 % 4],
           '6' || lpad((g * 37 % 1000)::text, 10, '0'), 'K', date '1970-01-01', '600100200',
           true, (${docIds})[1 + g % 3], (${unitIds})[1 + g % 3], g % 4 = 0,
           case when g % 9 = 0 then now() end, case when g % 2 = 0 then 'p' || g || '@x.pl' end,
           case when g % 3 = 0 then 'Długa' end, case when g % 3 = 0 then 'Łódź' end
    from numbered`);
  await t.db.execute(sql`
    insert into patient_inclusions (patient_id, group_id, subgroup_id)
    select p.id, s.group_id, s.id from patients p
    cross join lateral (select id, group_id from inclusion_criteria_subgroups
                        order by id offset (p.id * 5 % 8) limit 1) s
    where p.pesel like '6%' and p.id % 7 <> 0`);
  await t.db.execute(sql`
    insert into patient_medicines (patient_id, medicine_id, dose)
    select p.id, 1 + (p.id * 7 + k * 5) % 17, case when k = 2 then null else k * 1.25 end
    from patients p, generate_series(1, p.id % 4) k where p.pesel like '6%'`);
  await t.db.execute(sql`
    insert into visits (patient_id, unit_id, doctor_id, date, started_at, ended_at, is_done)
    select p.id, p.unit_id, p.doctor_id, current_date + (p.id * 13 % 40 - 20),
           make_time(8, 0, 0), make_time(8, 10, 0), p.id % 3 = 0
    from patients p where p.pesel like '6%' and p.id % 5 <> 0`);
});
afterAll(() => t?.close());

const zodWritten = serializerCompiler({ schema: patientList, method: 'GET', url: '/api/patients' });

describe('the plain patients page', () => {
  it('answers byte for byte what the per-request path and zod answered', async () => {
    const allDoctors = doctors.map((d) => d.doctor.id).join(',');
    let seenRows = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('admin', 'doctor', 'monitorOfTwo', 'monitorOfOne'),
        fc.constantFrom('id', 'surname', 'pesel'),
        fc.constantFrom('asc', 'desc', 'DESC'),
        fc.integer({ min: 0, max: 65 }),
        fc.integer({ min: 1, max: 30 }),
        async (who, orderBy, direction, offset, limit) => {
          const query = {
            order_by: orderBy,
            order_direction: direction,
            offset: String(offset),
            limit: String(limit),
          };
          const [plain, filtered] = await Promise.all([
            t.request('GET', '/api/patients', { token: tokens[who]!, query }),
            t.request('GET', '/api/patients', {
              token: tokens[who]!,
              query: { ...query, doctors: allDoctors },
            }),
          ]);
          expect(plain.statusCode, plain.body).toBe(200);
          expect(filtered.statusCode, filtered.body).toBe(200);
          expect(plain.body).toBe(filtered.body);
          expect(zodWritten(JSON.parse(plain.body))).toBe(plain.body);
          seenRows += plain.json<{ data: unknown[] }>().data.length;
        },
      ),
      { numRuns: 60 },
    );
    expect(seenRows).toBeGreaterThan(100);
  }, 180_000);

  it('shows the odd names, deleted patients and masked PESELs it was seeded with', async () => {
    const page = async (who: string) =>
      (
        await t.request('GET', '/api/patients', {
          token: tokens[who]!,
          query: { limit: '100' },
        })
      ).json<{ data: { firstname: string; pesel: string; deleted_at: string | null }[] }>().data;
    const admin = await page('admin');
    expect(admin).toHaveLength(SEEDED);
    for (const name of ODD) expect(admin.map((row) => row.firstname)).toContain(name);
    expect(admin.some((row) => row.deleted_at !== null)).toBe(true);
    const monitor = await page('monitorOfTwo');
    expect(monitor.length).toBeGreaterThan(0);
    expect(monitor.length).toBeLessThan(SEEDED);
    expect(monitor.every((row) => !/[0-9]/.test(row.pesel))).toBe(true);
    const doctor = await page('doctor');
    expect(doctor.length).toBe(SEEDED / 3);
  });
});
