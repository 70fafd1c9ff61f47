import { addDays, warsawDay } from '@portal/shared';
import type { PatientCard, PatientListItem } from '@portal/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientInclusions, visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { readyPatient, registerPatient } from '../../test/patients-fixture.js';

/** GET /api/patients/cards: the patients list's page, shaped for cards (ADR 038). */

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorA2: ReadyDoctor;
let doctorB: ReadyDoctor;
const today = warsawDay();
let visited: number;
let ungrouped: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  const unitA = (await t.unit()).id;
  const unitB = (await t.unit()).id;
  doctorA = await t.readyDoctor(unitA);
  doctorA2 = await t.readyDoctor(unitA);
  doctorB = await t.readyDoctor(unitB);
  const names = ['Kowalska', 'Łęcka', 'Nowak', 'Kowalczyk', 'Żak', 'Lis'];
  for (const [i, surname] of names.entries()) {
    await registerPatient(t, i % 2 ? doctorA2 : doctorA, { surname, firstname: 'Anna' });
    await registerPatient(t, doctorB, { surname, firstname: 'Ewa' });
  }
  visited = (await registerPatient(t, doctorA, { surname: 'Wizytowa', firstname: 'Ola' })).id;
  const [past, next, later] = [addDays(today, -40), addDays(today, 3), addDays(today, 60)];
  for (const [date, cancelled] of [
    [addDays(today, -90), false],
    [past, false],
    [next, false],
    [later, false],
    // A cancelled visit counts for neither.
    [addDays(today, 1), true],
  ] as const) {
    await t.db.insert(visits).values({
      patient_id: visited,
      unit_id: doctorA.doctor.unit_id,
      doctor_id: doctorA.doctor.id,
      date,
      started_at: '09:00:00',
      ended_at: '09:30:00',
      cancelled_at: cancelled ? new Date() : null,
    });
  }
  ungrouped = (await registerPatient(t, doctorA, { surname: 'Bezgrupy', firstname: 'Jan' })).id;
  await t.db.delete(patientInclusions).where(eq(patientInclusions.patient_id, ungrouped));
});
afterAll(() => t?.close());

type Page<T> = { data: T[]; total_count: number; total_kind: string };

async function get<T>(url: string, token: string, query: Record<string, string>) {
  const res = await t.request('GET', url, { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page<T>>();
}

describe('GET /api/patients/cards', () => {
  it("answers the list's page for the same query: ids, order, totals", async () => {
    const queries: Record<string, string>[] = [
      {},
      { search: 'kowal' },
      { search: 'lecka' },
      { order_by: 'surname', order_direction: 'desc', limit: '3', offset: '2' },
      { order_by: 'group', limit: '5' },
      { order_by: 'pesel', order_direction: 'asc' },
      { doctors: String(doctorA2.doctor.id) },
      { groups: '1', is_finished: '0' },
      { offset: '1000' },
    ];
    for (const who of [admin, doctorA]) {
      for (const query of queries) {
        const list = await get<PatientListItem>('/api/patients', who.session.token, query);
        const cards = await get<PatientCard>('/api/patients/cards', who.session.token, query);
        const what = `${who === admin ? 'admin' : 'doctor'} ${JSON.stringify(query)}`;
        expect(
          cards.data.map((c) => c.id),
          what,
        ).toEqual(list.data.map((p) => p.id));
        expect(cards.total_count, what).toBe(list.total_count);
        expect(cards.total_kind, what).toBe(list.total_kind);
        // The card's fields are the list row's.
        for (const [i, card] of cards.data.entries()) {
          const row = list.data[i]!;
          expect(card, what).toEqual({
            id: row.id,
            firstname: row.firstname,
            surname: row.surname,
            pesel: row.pesel,
            group: row.group,
            last_visit_date: row.past_visit_date,
            next_visit_date: row.next_visit_date,
          });
        }
      }
    }
  });

  it('shows the group as the list does, and the last and next live visit', async () => {
    const cards = await get<PatientCard>('/api/patients/cards', doctorA.session.token, {
      search: 'Wizytowa',
    });
    expect(cards.data).toHaveLength(1);
    const card = cards.data[0]!;
    expect(Object.keys(card).sort()).toEqual(
      ['firstname', 'group', 'id', 'last_visit_date', 'next_visit_date', 'pesel', 'surname'].sort(),
    );
    expect(card).toMatchObject({
      id: visited,
      surname: 'Wizytowa',
      last_visit_date: addDays(today, -40),
      next_visit_date: addDays(today, 3),
    });
    expect(card.group).toEqual({
      id: 1,
      nr: expect.any(Number) as unknown,
      name: expect.any(String) as unknown,
    });
    const none = await get<PatientCard>('/api/patients/cards', doctorA.session.token, {
      search: 'Bezgrupy',
    });
    expect(none.data[0]).toMatchObject({
      id: ungrouped,
      group: null,
      last_visit_date: null,
      next_visit_date: null,
    });
  });

  it("never shows a doctor another unit's patients", async () => {
    const mine = await get<PatientCard>('/api/patients/cards', doctorA.session.token, {
      limit: '100',
    });
    const theirs = await get<PatientCard>('/api/patients/cards', doctorB.session.token, {
      limit: '100',
    });
    expect(mine.data.some((c) => c.firstname === 'Ewa')).toBe(false);
    expect(theirs.data.every((c) => c.firstname === 'Ewa')).toBe(true);
    expect(theirs.total_count).toBe(6);
    // Naming the other unit's doctor as a filter, or searching their names, finds nothing.
    expect(
      await get<PatientCard>('/api/patients/cards', doctorA.session.token, {
        doctors: String(doctorB.doctor.id),
        search: 'Ewa',
      }),
    ).toEqual({ data: [], total_count: 0, total_kind: 'exact' });
  });

  it('answers 401 without a token, 403 to a patient, 422 to the list query it refuses', async () => {
    expect((await t.request('GET', '/api/patients/cards')).statusCode).toBe(401);
    const patient = await readyPatient(t, doctorA);
    const refused = await t.request('GET', '/api/patients/cards', {
      token: patient.session.token,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ status: 'forbidden' });
    const badQueries: Record<string, string>[] = [
      { order_by: 'password' },
      { limit: '101' },
      { offset: '-1' },
      { groups: 'a,b' },
      { search: 'x'.repeat(1000) },
    ];
    for (const query of badQueries) {
      const list = await t.request('GET', '/api/patients', { token: admin.session.token, query });
      const cards = await t.request('GET', '/api/patients/cards', {
        token: admin.session.token,
        query,
      });
      expect(cards.statusCode, JSON.stringify(query).slice(0, 40)).toBe(422);
      expect(cards.json()).toEqual(list.json());
    }
  });
});
