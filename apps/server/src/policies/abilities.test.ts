import { addDays, isoWeekday, warsawToday } from '@portal/shared';
import type {
  Announcement,
  Note,
  PatientDetail,
  PatientListItem,
  PatientMessage,
  Visit,
} from '@portal/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../db/client.js';
import { messages, visits } from '../db/schema.js';
import { createTestApp } from '../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../test/harness.js';
import { readyPatient, registerPatient } from '../test/patients-fixture.js';
import { putWithReason } from '../test/versions.js';

/*
 * ADR 045: every record answers the signed-in user's abilities, and each one says what the
 * server then does with the write it names: true, the write is accepted; false, it is refused.
 * Each write runs on a fresh record in the same state, so one write never changes another's.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
/** A second doctor of the same unit: reaches the records, does not own them. */
let colleague: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  const unit = await t.unit();
  doctor = await t.readyDoctor(unit.id);
  colleague = await t.readyDoctor(unit.id);
});
afterAll(() => t?.close());

type Who = { session: { token: string } };
interface Answer {
  statusCode: number;
  body: string;
}

/** The ability and the server's answer to its write agree: accepted (2xx) exactly when true. */
function expectHolds(label: string, ability: boolean, res: Answer) {
  expect(
    res.statusCode < 300,
    `${label}: ability ${ability}, answer ${res.statusCode} ${res.body}`,
  ).toBe(ability);
  // A refusal is a business answer, never a crash.
  expect(res.statusCode).toBeLessThan(500);
}

describe('visit abilities', () => {
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;

  /**
   * A visit written straight into the table (booking refuses today's begun slots and past days).
   * Its start is a second of 00:00, and a visit has begun when its start's minute is at or before
   * the current one (policies/visits.ts): one of today has begun at any time of the day, midnight
   * included. The slots of a unit's day are unique by start, so each visit takes its own second.
   */
  let second = 0;
  async function insertVisit(patientId: number, date: string, isDone = false): Promise<number> {
    if (second >= 59)
      throw new Error('the seconds of 00:00 are used up: give the visits another unit');
    const startedAt = `00:00:${String(second).padStart(2, '0')}`;
    second += 1;
    const [row] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
      tx
        .insert(visits)
        .values({
          patient_id: patientId,
          unit_id: doctor.doctor.unit_id,
          doctor_id: doctor.doctor.id,
          date,
          started_at: startedAt,
          ended_at: '00:01:00',
          is_done: isDone,
        })
        .returning({ id: visits.id }),
    );
    return row!.id;
  }

  /** Free slots of the grid: Mondays from two weeks ahead, 08:00-15:30 (the default hours). */
  let slotSerial = 0;
  function freeSlot(): { date: string; started_at: string } {
    let monday = addDays(warsawToday(), 14);
    while (isoWeekday(monday) !== 1) monday = addDays(monday, 1);
    const n = slotSerial++;
    return {
      date: addDays(monday, 7 * Math.floor(n / 16)),
      started_at: clock(8 * 60 + 30 * (n % 16)),
    };
  }

  async function bookUpcoming(): Promise<number> {
    const patient = await registerPatient(t, doctor);
    const res = await t.request('POST', '/api/visits', {
      token: doctor.session.token,
      body: { patient_id: patient.id, ...freeSlot() },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ visit: Visit }>().visit.id;
  }

  /** The visit's abilities, the same through every answer that lists it. */
  async function abilitiesOf(id: number, who: Who = doctor): Promise<Visit['abilities']> {
    const token = who.session.token;
    const one = await t.request('GET', `/api/visits/${id}`, { token });
    expect(one.statusCode, one.body).toBe(200);
    const visit = one.json<Visit>();
    const ofPatient = (
      await t.request('GET', `/api/patients/${visit.patient_id}/visits`, { token })
    ).json<{ data: Visit[] }>();
    const ofDay = (
      await t.request('GET', '/api/visits', { token, query: { date: visit.date } })
    ).json<{ data: Visit[] }>();
    const paged = (
      await t.request('GET', '/api/visits', {
        token,
        query: { from: visit.date, to: visit.date, limit: '100' },
      })
    ).json<{ data: Visit[] }>();
    // The paged list leaves out deleted patients' visits, as the dashboard counts them (ADR 060).
    const lists = [ofPatient.data, ofDay.data, paged.data];
    for (const list of lists) {
      const row = list.find((v) => v.id === id);
      if (row || list !== paged.data) expect(row?.abilities).toEqual(visit.abilities);
    }
    return visit.abilities;
  }

  type VisitKey = keyof Visit['abilities'];
  const writes: Record<VisitKey, (id: number, who: Who) => Promise<Answer>> = {
    edit: async (id, who) => {
      const visit = (
        await t.request('GET', `/api/visits/${id}`, { token: who.session.token })
      ).json<Visit>();
      return t.request('PUT', `/api/visits/${id}`, {
        token: who.session.token,
        body: { patient_id: visit.patient_id, ...freeSlot(), version: visit.version },
      });
    },
    cancel: (id, who) => t.request('DELETE', `/api/visits/${id}`, { token: who.session.token }),
    delete: (id, who) => t.request('DELETE', `/api/visits/${id}`, { token: who.session.token }),
    record: (id, who) =>
      putWithReason(t, `/api/visits/${id}/results`, {
        token: who.session.token,
        body: { isDone: true, comment: '', results: { qt: 400, rr: 800, pq: 160, qrs: 90 } },
      }),
    notes: (id, who) =>
      t.request('PUT', `/api/visits/${id}/notes`, {
        token: who.session.token,
        body: { notes: '<p>Przygotować elektrody.</p>' },
      }),
  };
  const KEYS = Object.keys(writes) as VisitKey[];

  /** For each ability: a fresh visit from `make`, its abilities, then the write it names. */
  async function checkScenario(
    label: string,
    make: () => Promise<number>,
    expected: Visit['abilities'],
    who: Who = doctor,
  ) {
    for (const key of KEYS) {
      const id = await make();
      const abilities = await abilitiesOf(id, who);
      expect(abilities, label).toEqual(expected);
      expectHolds(`${label}, ${key}`, abilities[key], await writes[key](id, who));
    }
  }

  it('an upcoming visit: moved, cancelled, noted; not recorded before its day', async () => {
    await checkScenario('upcoming', bookUpcoming, {
      edit: true,
      cancel: true,
      delete: true,
      record: false,
      notes: true,
    });
  });

  it('a visit under way (today, begun): recorded and noted, neither moved nor cancelled', async () => {
    const patient = await registerPatient(t, doctor);
    const expected = { edit: false, cancel: false, delete: false, record: true, notes: true };
    await checkScenario('under way', () => insertVisit(patient.id, warsawToday()), expected);
    // An administrator is told the same, and the server answers the same.
    await checkScenario(
      'under way, admin',
      () => insertVisit(patient.id, warsawToday()),
      expected,
      admin,
    );
    const refused = await writes.cancel(await insertVisit(patient.id, warsawToday()), doctor);
    expect(JSON.parse(refused.body)).toEqual({ status: 'visit_past' });
  });

  it('a recorded visit of today: corrected, never moved or cancelled, and no longer the next one', async () => {
    const patient = await registerPatient(t, doctor);
    await checkScenario('recorded', () => insertVisit(patient.id, warsawToday(), true), {
      edit: false,
      cancel: false,
      delete: false,
      record: true,
      notes: true,
    });
    const detail = (
      await t.request('GET', `/api/patients/${patient.id}`, { token: doctor.session.token })
    ).json<PatientDetail>();
    expect(detail.next_visit_date).toBeNull();
    expect(detail.past_visit_date).toBe(warsawToday());
  });

  it('a past visit not recorded: recorded late, never moved', async () => {
    const patient = await registerPatient(t, doctor);
    await checkScenario('past', () => insertVisit(patient.id, addDays(warsawToday(), -3)), {
      edit: false,
      cancel: false,
      delete: false,
      record: true,
      notes: true,
    });
  });

  it("a deleted patient's visit: read-only", async () => {
    const make = async () => {
      const patient = await registerPatient(t, doctor);
      const id = await insertVisit(patient.id, addDays(warsawToday(), 1));
      const res = await t.request('DELETE', `/api/patients/${patient.id}`, {
        token: doctor.session.token,
      });
      expect(res.statusCode).toBe(200);
      return id;
    };
    await checkScenario('deleted patient', make, {
      edit: false,
      cancel: false,
      delete: false,
      record: false,
      notes: false,
    });
  });

  it('a patient reads the own visits with no ability and may write none', async () => {
    const patient = await readyPatient(t, doctor);
    const id = await insertVisit(patient.id, warsawToday());
    const own = await t.request('GET', '/api/me/visits', { token: patient.session.token });
    expect(own.statusCode, own.body).toBe(200);
    const abilities = own.json<{ data: Visit[] }>().data.find((v) => v.id === id)?.abilities;
    expect(abilities).toEqual({
      edit: false,
      cancel: false,
      delete: false,
      record: false,
      notes: false,
    });
    for (const key of KEYS) expectHolds(`patient, ${key}`, false, await writes[key](id, patient));
  });
});

describe('patient abilities', () => {
  const read = async (id: number, who: Who = doctor) => {
    const res = await t.request('GET', `/api/patients/${id}`, { token: who.session.token });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<PatientDetail>();
    const list = await t.request('GET', '/api/patients', {
      token: who.session.token,
      query: { search: detail.pesel },
    });
    const row = list.json<{ data: PatientListItem[] }>().data.find((p) => p.id === id);
    expect(row?.abilities).toEqual(detail.abilities);
    return detail;
  };

  const editBody = (p: PatientDetail) => ({
    personal: {
      firstname: p.firstname,
      surname: 'Zmieniony',
      pesel: p.pesel,
      phone_number: p.phone_number,
      doctor_id: p.doctor_id,
      unit_id: p.unit_id,
    },
    exclusion: {
      is_above_18: p.is_above_18,
      exclusion_criteria_id: p.exclusion_criteria_id,
      is_classified: p.is_classified,
    },
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [],
    additional_medicines: [],
    version: p.version,
  });

  let mondaySerial = 0;
  const writes: Record<keyof PatientDetail['abilities'], (p: PatientDetail) => Promise<Answer>> = {
    edit: (p) =>
      putWithReason(t, `/api/patients/${p.id}`, {
        token: doctor.session.token,
        body: editBody(p),
      }),
    delete: (p) => t.request('DELETE', `/api/patients/${p.id}`, { token: doctor.session.token }),
    restore: (p) =>
      t.request('PUT', `/api/patients/restore/${p.id}`, { token: doctor.session.token }),
    book: (p) => {
      let day = addDays(warsawToday(), 300 + 7 * mondaySerial++);
      while (isoWeekday(day) !== 1) day = addDays(day, 1);
      return t.request('POST', '/api/visits', {
        token: doctor.session.token,
        body: { patient_id: p.id, date: day, started_at: '09:00:00' },
      });
    },
    verify: (p) =>
      t.request('POST', '/api/verifications', {
        token: doctor.session.token,
        body: { record_type: 'patient', record_id: p.id },
      }),
  };

  it('an active patient: edited, deleted and booked; nothing to restore', async () => {
    for (const key of ['edit', 'delete', 'book', 'verify'] as const) {
      const patient = await read((await registerPatient(t, doctor)).id);
      expect(patient.abilities).toEqual({
        edit: true,
        delete: true,
        restore: false,
        book: true,
        verify: false,
      });
      expectHolds(`active, ${key}`, patient.abilities[key], await writes[key](patient));
    }
  });

  it('a deleted patient: restored only; edits and bookings are refused', async () => {
    for (const key of ['edit', 'restore', 'book'] as const) {
      const { id } = await registerPatient(t, doctor);
      await t.request('DELETE', `/api/patients/${id}`, { token: doctor.session.token });
      const patient = await read(id);
      expect(patient.abilities).toEqual({
        edit: false,
        delete: false,
        restore: true,
        book: false,
        verify: false,
      });
      expectHolds(`deleted, ${key}`, patient.abilities[key], await writes[key](patient));
    }
    // An administrator is told the same.
    const { id } = await registerPatient(t, doctor);
    await t.request('DELETE', `/api/patients/${id}`, { token: doctor.session.token });
    expect((await read(id, admin)).abilities).toEqual({
      edit: false,
      delete: false,
      restore: true,
      book: false,
      verify: false,
    });
  });

  it('a monitor: verifies an active or a deleted patient, and nothing else (ADR 051)', async () => {
    const monitor = await t.readyMonitor([doctor.doctor.unit_id]);
    const active = await registerPatient(t, doctor);
    const deleted = await registerPatient(t, doctor);
    await t.request('DELETE', `/api/patients/${deleted.id}`, { token: doctor.session.token });
    for (const { id } of [active, deleted]) {
      const res = await t.request('GET', `/api/patients/${id}`, { token: monitor.session.token });
      expect(res.statusCode, res.body).toBe(200);
      const { abilities } = res.json<PatientDetail>();
      expect(abilities).toEqual({
        edit: false,
        delete: false,
        restore: false,
        book: false,
        verify: true,
      });
      const verified = await t.request('POST', '/api/verifications', {
        token: monitor.session.token,
        body: { record_type: 'patient', record_id: id },
      });
      expectHolds(`monitor, patient ${id}, verify`, abilities.verify, verified);
    }
  });
});

describe('message, note and announcement abilities', () => {
  const sendMessage = async (userId: number) => {
    const res = await t.request('POST', '/api/notifications', {
      token: doctor.session.token,
      body: { content: '<p>Proszę przyjść na czczo.</p>', receiver_user_id: userId },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: PatientMessage }>().data;
  };
  const messagesOf = async (userId: number, who: Who) =>
    (
      await t.request('GET', '/api/notifications', {
        token: who.session.token,
        query: { user_id: String(userId) },
      })
    ).json<{ data: PatientMessage[] }>().data;
  const messageWrites = {
    edit: (m: PatientMessage, who: Who) =>
      t.request('PUT', `/api/notifications/${m.id}`, {
        token: who.session.token,
        body: { content: '<p>Poprawione.</p>', version: m.version },
      }),
    delete: (m: PatientMessage, who: Who) =>
      t.request('DELETE', `/api/notifications/${m.id}`, { token: who.session.token }),
  };

  it('messages: the sender and administrators change unread ones; nobody a read one', async () => {
    const patient = await registerPatient(t, doctor);
    for (const key of ['edit', 'delete'] as const) {
      for (const [label, who, expected] of [
        ['sender', doctor, true],
        ['colleague', colleague, false],
        ['administrator', admin, true],
      ] as const) {
        const sent = await sendMessage(patient.userId);
        expect(sent.abilities).toEqual({ edit: true, delete: true });
        const seen = (await messagesOf(patient.userId, who)).find((m) => m.id === sent.id)!;
        expect(seen.abilities, label).toEqual({ edit: expected, delete: expected });
        expectHolds(
          `message, ${label}, ${key}`,
          seen.abilities[key],
          await messageWrites[key](seen, who),
        );
      }
      // Read by the patient: history, for everyone.
      const sent = await sendMessage(patient.userId);
      await t.db.update(messages).set({ read_at: new Date() }).where(eq(messages.id, sent.id));
      const read = (await messagesOf(patient.userId, doctor)).find((m) => m.id === sent.id)!;
      expect(read.abilities).toEqual({ edit: false, delete: false });
      expectHolds(`message read, ${key}`, false, await messageWrites[key](read, doctor));
    }
  });

  it('notes: deleted by the author and administrators, never edited', async () => {
    const patient = await registerPatient(t, doctor);
    const addNote = async () => {
      const res = await t.request('POST', '/api/patients/notes', {
        token: doctor.session.token,
        body: { content: '<p>Pacjent zgłasza kołatania.</p>', ref_id: patient.id },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ note: Note }>().note;
    };
    for (const [label, who, expected] of [
      ['author', doctor, true],
      ['colleague', colleague, false],
      ['administrator', admin, true],
    ] as const) {
      const note = await addNote();
      const listed = (
        await t.request('GET', '/api/patients/notes', {
          token: who.session.token,
          query: { ref_id: String(patient.id) },
        })
      ).json<{ data: Note[] }>().data;
      const abilities = listed.find((n) => n.id === note.id)!.abilities;
      expect(abilities, label).toEqual({ edit: false, delete: expected });
      const res = await t.request('DELETE', `/api/patients/notes/${note.id}`, {
        token: who.session.token,
      });
      expectHolds(`note, ${label}, delete`, abilities.delete, res);
    }
  });

  it('announcements: the sender and administrators edit and delete', async () => {
    const send = async () => {
      const res = await t.request('POST', '/api/notifications/global', {
        token: doctor.session.token,
        body: { content: '<p>Przerwa świąteczna.</p>' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ data: Announcement }>().data;
    };
    const announcementWrites = {
      edit: (a: Announcement, who: Who) =>
        t.request('PUT', `/api/notifications/global/${a.id}`, {
          token: who.session.token,
          body: { content: '<p>Zmiana.</p>', version: a.version },
        }),
      delete: (a: Announcement, who: Who) =>
        t.request('DELETE', `/api/notifications/global/${a.id}`, { token: who.session.token }),
    };
    for (const key of ['edit', 'delete'] as const) {
      for (const [label, who, expected] of [
        ['sender', doctor, true],
        ['colleague', colleague, false],
        ['administrator', admin, true],
      ] as const) {
        const sent = await send();
        const listed = (
          await t.request('GET', '/api/notifications/global', { token: who.session.token })
        ).json<{ data: Announcement[] }>().data;
        const seen = listed.find((a) => a.id === sent.id)!;
        expect(seen.abilities, label).toEqual({ edit: expected, delete: expected });
        expectHolds(
          `announcement, ${label}, ${key}`,
          seen.abilities[key],
          await announcementWrites[key](seen, who),
        );
      }
    }
  });
});
