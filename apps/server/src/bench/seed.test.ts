import { isValidPesel, parsePesel } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';
import { QueryCapture, replay } from './capture.js';
import { feminine, surnamePool } from './names.js';
import { seedStudy } from './seed.js';

// The bench's seed at a small scale: the same SQL that loads 100,000 patients for `npm run bench`.
describe('bench seed', () => {
  let database: TestDatabase;
  const rows = async (text: string) => (await database.handle.executeSql(text)).rows;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('writes patients with valid unique PESELs, inclusions, 1–3 medicines and their audit trail', async () => {
    const admin = await rows(
      "insert into users (login, password_hash, role) values ('bench-seed-admin', 'x', 'admin') returning id",
    );
    const adminId = Number(admin[0]!.id);
    const result = await seedStudy(database.handle, adminId, () => undefined, 300);
    expect(result.patients).toBe(300);

    const patients = await rows(
      'select pesel, sex, birth_date::text as born, surname from patients',
    );
    expect(new Set(patients.map((p) => p.pesel)).size).toBe(300);
    for (const p of patients) {
      expect(isValidPesel(String(p.pesel))).toBe(true);
      expect(parsePesel(String(p.pesel))).toEqual({ birthDate: p.born, sex: p.sex });
    }
    const perPatient = await rows(`
      select count(distinct i.patient_id)::int as included,
             min(m.n)::int as fewest, max(m.n)::int as most
      from patient_inclusions i
      join (select patient_id, count(*) as n from patient_medicines group by 1) m using (patient_id)`);
    expect(perPatient[0]).toEqual({ included: 300, fewest: 1, most: 3 });

    // Written by the triggers, in the administrator's name, one entry per filled column.
    const audit = await rows(`
      select entity_name, count(*)::int as n, count(distinct user_id)::int as actors,
             min(user_id) as actor
      from audit_entries group by 1 order by 1`);
    expect(audit.map((a) => a.entity_name)).toEqual(
      expect.arrayContaining(['patients', 'patient_inclusions', 'patient_medicines']),
    );
    expect(audit.every((a) => a.actors === 1 && Number(a.actor) === adminId)).toBe(true);
    expect(result.auditEntries / 300).toBeGreaterThan(30);
  });

  it('gives "kowal" about 1% of the surnames, in both genders', () => {
    const pool = surnamePool();
    const share = pool.filter(([m]) => m.toLowerCase().includes('kowal')).length / pool.length;
    expect(share).toBeGreaterThan(0.005);
    expect(share).toBeLessThan(0.02);
    expect(feminine('Kowalski')).toBe('Kowalska');
    expect(feminine('Zawadzki')).toBe('Zawadzka');
    expect(feminine('Nowak')).toBe('Nowak');
  });

  it('captures the statements a request sends and replays them with their parameters', async () => {
    const capture = new QueryCapture();
    const batches = await capture.during(() => {
      capture.logQuery('select count(*)::int as n from patients where id > $1', [0]);
      capture.logQuery('select 1 as one', []);
      return Promise.resolve();
    });
    expect(batches.flat()).toHaveLength(2);
    await expect(replay(database.handle, batches)).resolves.toBeUndefined();
    // Outside `during` nothing is kept.
    capture.logQuery('select 2', []);
    expect(await capture.during(() => Promise.resolve())).toEqual([]);
  });
});
