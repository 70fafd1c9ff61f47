import { Worker } from 'node:worker_threads';
import { addDays, calendarWeekday, warsawDay } from '@portal/shared';
import type { SqlExecutor } from '../db/client.js';
import type { BookingOrder, BookingResult } from './booking-worker.js';
import { get, measureCase } from './cases.js';
import type { CaseResult, Client } from './cases.js';
import type { BenchDatabase } from './databases.js';
import { percentile, timeRounds } from './stats.js';
import type { Rounds, Timing } from './stats.js';

/**
 * Issue 9's performance targets, measured (nothing asserted; ADR 029):
 * - `GET /api/units/{id}/slots` for a unit with 50 calendar rules and a day with booked visits,
 *   through the API and as the raw statements it sends (the ratio should stay within 2×);
 * - booking p95 with 16 concurrent clients, each booking distinct free slots for distinct
 *   patients (no refusals, so every request does the whole booking transaction).
 * The fixture is its own two units, written by SQL beside whatever the database holds.
 */
export const BOOKING_CLIENTS = 16;
const BOOKINGS_PER_CLIENT = 20;
/** Untimed bookings per client before the timed ones (booking-worker.ts `warmup`). */
const WARMUP_PER_CLIENT = 2;
const RULES = 50;
/** The default grid: 8:00–16:00 in 30-minute slots. */
const SLOTS_PER_DAY = 16;

export interface VisitsFixture {
  slotsUnitId: number;
  /** A weekday a few weeks ahead: 2 own rules, 3 global rules of its weekday, 8 visits. */
  slotsDate: string;
  bookingUnitId: number;
  /** Patients of the booking unit, none with a visit yet (a first visit has no window). */
  bookingPatients: number[];
  /** Weekdays ahead on which the booking unit has no rule and no visit. */
  bookingDays: string[];
}

export interface VisitsBenchResult {
  slots: CaseResult;
  /** API time over the replayed statements' time, at p50 and p95. */
  slotsRatio: { p50: number; p95: number } | null;
  /** GET /api/health over the same HTTP client: the floor every request pays (no database). */
  floor: Timing;
  booking: {
    /** The warm-up bookings, one at a time: a booking's own time, without queueing. */
    alone: { p50: number; p95: number };
    clients: number;
    bookings: number;
    p50: number;
    p95: number;
    max: number;
    perSecond: number;
    statuses: Record<string, number>;
  };
}

const clockOfMinutes = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The weekdays from `from` on, `count` of them. */
export function weekdaysFrom(from: string, count: number): string[] {
  const days: string[] = [];
  for (let day = from; days.length < count; day = addDays(day, 1)) {
    if (calendarWeekday(day) <= 5) days.push(day);
  }
  return days;
}

async function ids(db: SqlExecutor, text: string, params: unknown[] = []): Promise<number[]> {
  return (await db.executeSql(text, params)).rows.map((row) => Number(row.id));
}

/** A unit with one doctor and `patients` patients; PESELs of a month no birth date has. */
export async function unitWithPatients(
  db: SqlExecutor,
  name: string,
  patients: number,
  tag: number,
) {
  const [unitId] = await ids(
    db,
    `insert into units (name, street, building_nr, postcode, city)
     values ($1, 'ul. Szpitalna', '1', '00-001', 'Warszawa') returning id`,
    [name],
  );
  const [doctorId] = await ids(
    db,
    `with account as (
       insert into users (login, password_hash, role, changed_password_at)
       values ($1, 'x', 'doctor', now()) returning id)
     insert into doctors (user_id, firstname, surname, email, phone_number, unit_id)
     select id, 'Jan', 'Wizytowy', $1, '600100200', $2 from account returning id`,
    [`wizyty${tag}.${Date.now()}@bench.example.pl`, unitId],
  );
  const patientIds = await ids(
    db,
    `with accounts as (
       insert into users (login, password_hash, role)
       select 'wizyty' || $3 || '.' || g, 'x', 'patient' from generate_series(1, $1::int) g
       returning id, login)
     insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                           acceptance, doctor_id, unit_id)
     select a.id, 'Anna', 'Terminowa', '009' || $3 || lpad(substring(a.login from '[0-9]+$'), 7, '0'),
            'K', date '1960-01-01', '600100200', true, $2, $4
     from accounts a returning id`,
    [patients, doctorId, String(tag), unitId],
  );
  return { unitId: unitId!, doctorId: doctorId!, patientIds: patientIds.sort((a, b) => a - b) };
}

export async function seedVisitsBench(db: SqlExecutor): Promise<VisitsFixture> {
  const today = warsawDay();
  const slotsDate = weekdaysFrom(addDays(today, 21), 1)[0]!;
  const slotsUnit = await unitWithPatients(db, 'Poradnia bench: 50 reguł', 8, 1);

  // 50 rules: on the day an extra early hour and a lunch break, 3 global rules of its weekday
  // (dated on earlier same weekdays), the rest on other days of the month around it.
  const rules: [string, string, string, string, boolean][] = [
    [slotsDate, '07:00', '08:00', 'enabled', false],
    [slotsDate, '12:00', '12:30', 'disabled', false],
    [addDays(slotsDate, -7), '16:00', '17:00', 'enabled', true],
    [addDays(slotsDate, -14), '07:30', '08:00', 'enabled', true],
    [addDays(slotsDate, -21), '15:30', '16:00', 'disabled', true],
  ];
  for (let i = 0; rules.length < RULES; i++) {
    // One rule per other day, 22 days either side: none repeats another.
    const date = addDays(slotsDate, i < 22 ? i - 22 : i - 21);
    const from = 8 * 60 + ((i * 7) % 14) * 30;
    rules.push([
      date,
      i % 9 === 0 ? '00:00' : clockOfMinutes(from),
      i % 9 === 0 ? '23:59' : clockOfMinutes(from + 30 + (i % 3) * 30),
      i % 2 === 0 ? 'disabled' : 'enabled',
      false,
    ]);
  }
  for (const [date, from, to, type, global] of rules) {
    await db.executeSql(
      `insert into unit_calendar_rules (unit_id, date, started_at, ended_at, type, is_global)
       values ($1, $2, $3, $4, $5, $6)`,
      [slotsUnit.unitId, date, from, to, type, global],
    );
  }
  // Every other slot of the morning and afternoon booked (not the lunch break).
  for (const [i, patientId] of slotsUnit.patientIds.entries()) {
    const start = 8 * 60 + i * 60 + (i >= 4 ? 60 : 0);
    await db.executeSql(
      `insert into visits (patient_id, unit_id, doctor_id, date, started_at, ended_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [
        patientId,
        slotsUnit.unitId,
        slotsUnit.doctorId,
        slotsDate,
        clockOfMinutes(start),
        clockOfMinutes(start + 30),
      ],
    );
  }

  // The one-by-one bookings, the concurrent warm-up and the timed bookings, each its own slot.
  const bookings = BOOKING_CLIENTS * (1 + WARMUP_PER_CLIENT + BOOKINGS_PER_CLIENT);
  const bookingUnit = await unitWithPatients(db, 'Poradnia bench: rezerwacje', bookings, 2);
  return {
    slotsUnitId: slotsUnit.unitId,
    slotsDate,
    bookingUnitId: bookingUnit.unitId,
    bookingPatients: bookingUnit.patientIds,
    bookingDays: weekdaysFrom(addDays(today, 7), Math.ceil(bookings / SLOTS_PER_DAY)),
  };
}

/** Booking k: patient k in slot k of the free days, so no two bookings meet. */
function bookingBody(fixture: VisitsFixture, k: number) {
  return {
    patient_id: fixture.bookingPatients[k],
    date: fixture.bookingDays[Math.floor(k / SLOTS_PER_DAY)],
    started_at: clockOfMinutes(8 * 60 + (k % SLOTS_PER_DAY) * 30),
  };
}

export async function runBookings(order: BookingOrder): Promise<BookingResult> {
  const worker = new Worker(new URL('./booking-worker.js', import.meta.url), { workerData: order });
  try {
    return await new Promise<BookingResult>((resolve, reject) => {
      worker.once('message', (result: BookingResult) => resolve(result));
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

export async function measureVisits(
  db: BenchDatabase,
  client: Client,
  fixture: VisitsFixture,
  rounds: Rounds,
): Promise<VisitsBenchResult> {
  const slots = await measureCase(
    db,
    client,
    {
      name: 'slots: 50 rules, 8 booked',
      url: `/api/units/${fixture.slotsUnitId}/slots?date=${fixture.slotsDate}`,
    },
    rounds,
  );
  const slotsRatio =
    slots.api && slots.sql
      ? { p50: slots.api.p50 / slots.sql.p50, p95: slots.api.p95 / slots.sql.p95 }
      : null;

  const floor = await timeRounds(rounds, async () => {
    await get(client, '/api/health');
  });

  // The first BOOKING_CLIENTS bookings warm the path, one by one; then every client books its own.
  const alone = await runBookings({
    baseUrl: client.baseUrl,
    headers: client.headers,
    bodies: [Array.from({ length: BOOKING_CLIENTS }, (_, k) => bookingBody(fixture, k))],
  });
  const warmup = order(fixture, client, BOOKING_CLIENTS, BOOKING_CLIENTS, WARMUP_PER_CLIENT);
  const timed = order(
    fixture,
    client,
    BOOKING_CLIENTS * (1 + WARMUP_PER_CLIENT),
    BOOKING_CLIENTS,
    BOOKINGS_PER_CLIENT,
  );
  const result = await runBookings({ ...timed, warmup: warmup.bodies });
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const aloneSorted = alone.latencies.slice(3).sort((a, b) => a - b);
  return {
    slots,
    slotsRatio,
    floor,
    booking: {
      alone: { p50: percentile(aloneSorted, 50), p95: percentile(aloneSorted, 95) },
      clients: BOOKING_CLIENTS,
      bookings: sorted.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.at(-1) ?? NaN,
      perSecond: sorted.length / result.seconds,
      statuses: result.statuses,
    },
  };
}

/** Client i books `perClient` visits starting from booking `first + i * perClient`. */
function order(
  fixture: VisitsFixture,
  client: Client,
  first: number,
  clients: number,
  perClient: number,
) {
  const bodies = Array.from({ length: clients }, (_, i) =>
    Array.from({ length: perClient }, (_, j) => bookingBody(fixture, first + i * perClient + j)),
  );
  return { baseUrl: client.baseUrl, headers: client.headers, bodies } satisfies BookingOrder;
}

/** The lines `npm run bench` prints for one database. */
export function formatVisits(label: string, result: VisitsBenchResult): string[] {
  const s = result.slots;
  const ms = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} ms`);
  const b = result.booking;
  return [
    `${label}: slots (50 rules, 8 booked) ${s.status}: API p50 ${ms(s.api?.p50)} / p95 ${ms(s.api?.p95)}, ` +
      `SQL (${s.statements} statements) p50 ${ms(s.sql?.p50)} / p95 ${ms(s.sql?.p95)}, ratio ` +
      (result.slotsRatio
        ? `${result.slotsRatio.p50.toFixed(2)}× (p50) / ${result.slotsRatio.p95.toFixed(2)}× (p95)`
        : 'n/a') +
      `; HTTP floor (GET /api/health) p50 ${ms(result.floor.p50)} / p95 ${ms(result.floor.p95)}`,
    `${label}: booking alone (one at a time, after 3): p50 ${ms(b.alone.p50)}, p95 ${ms(b.alone.p95)}`,
    `${label}: booking at ${b.clients} clients: p50 ${ms(b.p50)}, p95 ${ms(b.p95)}, max ${ms(b.max)}, ` +
      `${b.perSecond.toFixed(0)} bookings/s, answers ${JSON.stringify(b.statuses)}`,
  ];
}
