import type { Visit } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, visits } from '../../db/schema.js';
import { withStoredVersion } from '../../test/versions.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { readyPatient, registerPatient } from '../../test/patients-fixture.js';

/*
 * GET /api/visits without a date (paged) and the visit's notes (ADR 038). Visits are written
 * straight into the table (past and future days alike; booking is booking.test.ts's).
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let colleague: ReadyDoctor;
let other: ReadyDoctor;
let unitA: number;
let unitB: number;
/** Every visit written here, by unit. */
const written: { id: number; unit: number; doctor: number; date: string; start: string }[] = [];

type Page = { data: Visit[]; total: number; total_kind: string };

async function visit(who: ReadyDoctor, patientId: number, date: string, start: string) {
  const end = `${start.slice(0, 3)}${start.slice(3, 5) === '00' ? '30' : '59'}:00`;
  const [row] = await t.db
    .insert(visits)
    .values({
      patient_id: patientId,
      unit_id: who.doctor.unit_id,
      doctor_id: who.doctor.id,
      date,
      started_at: `${start}:00`,
      ended_at: end,
    })
    .returning({ id: visits.id });
  written.push({ id: row!.id, unit: who.doctor.unit_id, doctor: who.doctor.id, date, start });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unitA = (await t.unit()).id;
  unitB = (await t.unit()).id;
  doctor = await t.readyDoctor(unitA);
  colleague = await t.readyDoctor(unitA);
  other = await t.readyDoctor(unitB);
  const p1 = await registerPatient(t, doctor, { surname: 'Lista' });
  const p2 = await registerPatient(t, colleague, { surname: 'Kolega' });
  const p3 = await registerPatient(t, other, { surname: 'Obcy' });
  // Written out of order on purpose: the answer sorts them.
  await visit(doctor, p1.id, '2026-03-02', '10:00');
  await visit(doctor, p1.id, '2025-12-01', '09:00');
  await visit(colleague, p2.id, '2026-03-02', '09:00');
  await visit(doctor, p1.id, '2026-03-02', '08:00');
  await visit(colleague, p2.id, '2026-06-15', '11:00');
  await visit(other, p3.id, '2026-03-02', '08:00');
  await visit(other, p3.id, '2026-01-05', '12:00');
  // A cancelled visit is never listed.
  const cancelled = await visit(doctor, p1.id, '2026-04-01', '10:00');
  await t.db.update(visits).set({ cancelled_at: new Date() }).where(eq(visits.id, cancelled));
  written.pop();
});
afterAll(() => t?.close());

const as = (who: { session: { token: string } }) => ({ token: who.session.token });
const notesOf = (id: number) => `/api/visits/${id}/notes`;

async function list(who: { session: { token: string } }, query: Record<string, string> = {}) {
  const res = await t.request('GET', '/api/visits', { ...as(who), query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}

/** The expected ids: oldest first by date, then start, then id. */
function expected(filter: (v: (typeof written)[number]) => boolean) {
  return written
    .filter(filter)
    .sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start) || a.id - b.id)
    .map((v) => v.id);
}

describe('GET /api/visits without a date', () => {
  it("answers a doctor the own unit's live visits, oldest first, in the visit's shape", async () => {
    const page = await list(doctor);
    const mine = expected((v) => v.unit === unitA);
    expect(page.data.map((v) => v.id)).toEqual(mine);
    expect(page).toMatchObject({ total: mine.length, total_kind: 'exact' });
    const first = page.data[0]!;
    expect(first).toMatchObject({
      date: '2025-12-01',
      started_at: '09:00:00',
      ordinal: 1,
      patient: { surname: 'Lista' },
      doctor: { firstname: doctor.doctor.firstname, surname: doctor.doctor.surname },
      unit_id: unitA,
      isDone: false,
      notes: null,
      results: { qt: null, rr: null, pq: null, qrs: null, qtcb: null, qtcfra: null },
      out_of_norm: [],
      files: [],
      probes: [],
    });
  });

  it('answers an administrator every unit, or the one named', async () => {
    const all = await list(admin, { limit: '100' });
    const ours = new Set(written.map((v) => v.id));
    // Other test files' visits live in other databases: this one holds only ours.
    expect(all.data.map((v) => v.id).filter((id) => ours.has(id))).toEqual(expected(() => true));
    const b = await list(admin, { unit_id: String(unitB) });
    expect(b.data.map((v) => v.id)).toEqual(expected((v) => v.unit === unitB));
    expect(b.total).toBe(2);
  });

  it('filters by doctor and by an inclusive date range', async () => {
    const byColleague = await list(doctor, { doctor_id: String(colleague.doctor.id) });
    expect(byColleague.data.map((v) => v.id)).toEqual(
      expected((v) => v.doctor === colleague.doctor.id),
    );
    const march = await list(admin, { from: '2026-03-02', to: '2026-03-02' });
    expect(march.data.map((v) => v.id)).toEqual(expected((v) => v.date === '2026-03-02'));
    expect(march.data.map((v) => v.started_at)).toEqual([
      '08:00:00',
      '08:00:00',
      '09:00:00',
      '10:00:00',
    ]);
    const from = await list(doctor, { from: '2026-03-03' });
    expect(from.data.map((v) => v.date)).toEqual(['2026-06-15']);
    const to = await list(doctor, { to: '2025-12-31' });
    expect(to.data.map((v) => v.date)).toEqual(['2025-12-01']);
    expect((await list(doctor, { from: '2030-01-01' })).data).toEqual([]);
  });

  it('pages by limit and page, the total staying whole', async () => {
    const mine = expected((v) => v.unit === unitA);
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const answer = await list(doctor, { limit: '2', page: String(page) });
      expect(answer.total).toBe(mine.length);
      seen.push(...answer.data.map((v) => v.id));
    }
    expect(seen).toEqual(mine);
    expect((await list(doctor, { limit: '2', page: '9' })).data).toEqual([]);
  });

  it('refuses invalid filters with 422 and the field named', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ from: '2026-02-30' }, 'from', 'To pole musi być poprawną datą'],
      [{ to: 'jutro' }, 'to', 'To pole musi być poprawną datą'],
      [
        { from: '2026-03-02', to: '2026-03-01' },
        'to',
        'Data końcowa nie może być wcześniejsza niż data początkowa',
      ],
      [{ limit: '0' }, 'limit', 'To pole musi być liczbą'],
      [{ limit: '101' }, 'limit', 'To pole musi być liczbą'],
      [{ page: '0' }, 'page', 'To pole musi być liczbą'],
      [{ page: 'x' }, 'page', 'To pole musi być liczbą'],
      [{ doctor_id: 'abc' }, 'doctor_id', 'Niektóre pola są nieprawidłowe'],
    ];
    for (const [query, field, message] of cases) {
      const res = await t.request('GET', '/api/visits', { ...as(admin), query });
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
      expect(res.json(), JSON.stringify(query)).toEqual({
        status: 'validation_error',
        errors: { [field]: [message] },
      });
    }
  });

  it("answers 404 to a doctor naming another unit, 401 without a token, 403 to a patient's", async () => {
    const res = await t.request('GET', '/api/visits', {
      ...as(doctor),
      query: { unit_id: String(unitB) },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'not_found' });
    // Another unit's doctor as the filter: nothing of that unit shows.
    expect((await list(doctor, { doctor_id: String(other.doctor.id) })).data).toEqual([]);
    expect((await t.request('GET', '/api/visits')).statusCode).toBe(401);
    const patient = await readyPatient(t, doctor);
    const refused = await t.request('GET', '/api/visits', as(patient));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ status: 'forbidden' });
  });

  it("keeps answering a day's visits with date, all of them and without a total", async () => {
    const day = await list(doctor, { date: '2026-03-02', limit: '1' });
    expect(day).toEqual({
      data: expect.any(Array) as unknown,
    });
    expect(day.data.map((v) => v.id)).toEqual(
      expected((v) => v.unit === unitA && v.date === '2026-03-02'),
    );
    const colleagueDay = await list(doctor, {
      date: '2026-03-02',
      doctor_id: String(colleague.doctor.id),
    });
    expect(colleagueDay.data.map((v) => v.doctor_id)).toEqual([colleague.doctor.id]);
  });
});

describe('the visit notes (PUT /api/visits/:id/notes)', () => {
  it('stores sanitised rich text, answers it on the visit and audits it', async () => {
    const id = written.find((v) => v.unit === unitA)!.id;
    const before = (await t.request('GET', `/api/visits/${id}`, as(doctor))).json<Visit>();
    const res = await t.request('PUT', notesOf(id), {
      ...as(doctor),
      body: {
        notes:
          '<p onclick="x()">Pacjent <strong>zgłasza</strong> kołatanie<script>alert(1)</script></p><img src=x onerror=alert(1)><a href="javascript:alert(1)">link</a>',
        version: before.version,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<{ status: string; visit: Visit }>();
    expect(saved.status).toBe('ok');
    expect(saved.visit.notes).toBe(
      '<p>Pacjent <strong>zgłasza</strong> kołatanie</p><a target="_blank" rel="noopener noreferrer nofollow">link</a>',
    );
    expect(saved.visit.version).toBe(before.version + 1);
    const read = (await t.request('GET', `/api/visits/${id}`, as(colleague))).json<Visit>();
    expect(read.notes).toBe(saved.visit.notes);
    // Nothing else of the visit moved.
    expect({ ...read, notes: null, version: 0 }).toEqual({ ...before, notes: null, version: 0 });

    const entries = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'visits'),
          eq(auditEntries.entity_id, String(id)),
          eq(auditEntries.column_name, 'notes'),
        ),
      );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      user_id: doctor.session.user.id,
      operation: 'update',
      old_value: null,
      new_value: saved.visit.notes,
    });

    // A stale version is a conflict and changes nothing; blank clears.
    const stale = await t.request('PUT', notesOf(id), {
      ...as(admin),
      body: { notes: '<p>Stara</p>', version: before.version },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    for (const blank of ['', '<p> </p>', null]) {
      const cleared = await t.request('PUT', notesOf(id), {
        ...as(admin),
        body: await withStoredVersion(t.db, visits, id, { notes: blank }),
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json<{ visit: Visit }>().visit.notes).toBeNull();
    }
  });

  it('refuses a bad body with 422, another unit with 404, no token 401, a patient 403', async () => {
    const mine = written.find((v) => v.unit === unitA)!.id;
    const theirs = written.find((v) => v.unit === unitB)!.id;
    for (const [body, errors] of [
      [{}, { notes: ['Niektóre pola są nieprawidłowe'] }],
      [{ notes: 5 }, { notes: ['Niektóre pola są nieprawidłowe'] }],
      [{ notes: 'x'.repeat(100_001) }, { notes: ['Wartość tego pola jest za długa'] }],
      [{ notes: 'a\u0000b' }, { notes: ['Niektóre pola są nieprawidłowe'] }],
    ] as const) {
      const res = await t.request('PUT', notesOf(mine), {
        ...as(doctor),
        body: { ...body, version: 1 },
      });
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect(res.json()).toEqual({ status: 'validation_error', errors });
    }
    const reach = await t.request('PUT', notesOf(theirs), {
      ...as(doctor),
      body: { notes: '<p>Cudza</p>', version: 1 },
    });
    expect(reach.statusCode).toBe(404);
    expect(reach.json()).toEqual({ status: 'not_found' });
    const [row] = await t.db.select().from(visits).where(eq(visits.id, theirs));
    expect(row!.notes).toBeNull();
    expect((await t.request('PUT', notesOf(mine), { body: { notes: 'x' } })).statusCode).toBe(401);
    const patient = await readyPatient(t, doctor);
    const refused = await t.request('PUT', notesOf(mine), {
      ...as(patient),
      body: { notes: '<p>Pacjent pisze</p>', version: 1 },
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (
        await t.request('PUT', notesOf(999_999), {
          ...as(admin),
          body: { notes: 'x', version: 1 },
        })
      ).statusCode,
    ).toBe(404);
    // Multi-line text keeps its newlines.
    const lines = await t.request('PUT', notesOf(mine), {
      ...as(doctor),
      body: await withStoredVersion(t.db, visits, mine, { notes: '<p>Pierwsza\nDruga</p>' }),
    });
    expect(lines.json<{ visit: Visit }>().visit.notes).toBe('<p>Pierwsza\nDruga</p>');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('lets one of two simultaneous notes edits of the same version win; the other gets 409', async () => {
    const id = written.find((v) => v.unit === unitB)!.id;
    const { version } = (await t.request('GET', `/api/visits/${id}`, as(other))).json<Visit>();
    const answers = await Promise.all(
      ['<p>Pierwszy</p>', '<p>Drugi</p>', '<p>Trzeci</p>'].map((notes) =>
        t.request('PUT', notesOf(id), { ...as(other), body: { notes, version } }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json<{ visit: Visit }>().visit;
    const [row] = await t.db.select().from(visits).where(eq(visits.id, id));
    expect(row).toMatchObject({ notes: winner.notes, version: version + 1 });
  });
});
