import {
  SETTING_DEFAULTS,
  lastBookableDay,
  slotRefusal,
  visitWindowOf,
  warsawDay,
} from '@portal/shared';
import type {
  NextVisitWindow,
  SlotRule,
  Visit,
  VisitBody,
  VisitUpdateBody,
  VisitsValue,
} from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { asActor, inTransaction, preparedStatement } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { doctors, patients, visits } from '../../db/schema.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient, findReachablePatient } from '../../policies/patients.js';
import { unitScope } from '../../policies/units.js';
import { assertVisitMovable, findReachableVisit, visitAbilities } from '../../policies/visits.js';
import type { VisitRow } from '../../policies/visits.js';
import { liveVisit } from '../../lib/live-visit.js';
import { loadVisit, presentVisit } from './queries.js';
import {
  rulesForDay,
  visitSettingQuery,
  visitSettings,
  visitSettingsFrom,
} from './slots-service.js';

/**
 * A closed, taken, weekend, past, off-grid or beyond-the-horizon slot (ADRs 027 and 038): one
 * word for every reason.
 */
export const notAvailable = () => conflict('not_available');

/**
 * The slot indexes are the real guard (docs/product-rules.md "Slot grid", ADR 027): whatever was
 * checked before, two bookings of one slot at the same moment meet here, and the loser hears
 * `not_available`.
 */
async function slotGuarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      isUniqueViolation(error, 'visits_unit_slot_key') ||
      isUniqueViolation(error, 'visits_patient_slot_key')
    )
      throw notAvailable();
    throw error;
  }
}

/** The patient as booking needs it; null when missing or out of the actor's reach. */
interface BookingPatient {
  id: number;
  unit_id: number;
  doctor_id: number;
  firstname: string;
  surname: string;
  sex: 'M' | 'K';
  deleted: boolean;
}

/** Everything a booking decides on, read in one statement. */
interface BookingContext {
  patient: BookingPatient | null;
  setting: VisitsValue;
  rules: SlotRule[];
  /** The patient's live visits before the slot (the visit being moved left out). */
  before: number;
  /** The date of the patient's first live visit (the visit being moved left out). */
  first: string | null;
  /** The visit's doctor and the unit the doctor works in; null when there is no such doctor. */
  doctor: { firstname: string; surname: string; unit_id: number; deleted: boolean } | null;
}

/** What the deciding statement is asked: values, or placeholders for the prepared form. */
interface ContextParams {
  patientId: unknown;
  /** The actor's unit, or null when the actor reaches every unit (patientScope). */
  scopeUnit: unknown;
  date: unknown;
  startedAt: unknown;
  /** The visit being moved (left out of the patient's visits), or 0. */
  except: unknown;
  /** The doctor the body names, or null for the patient's own. */
  doctorId: unknown;
}

/**
 * One round trip instead of six (ADR 027, measured by `npm run bench`): the patient within the
 * actor's reach, the `visits` setting, the patient's unit's rules of the day, the patient's
 * visits before the slot and the doctor (the named one, else the patient's). Booking is what
 * sixteen coordinators do at once; every round trip costs the server a socket write and a read.
 */
function contextStatement(q: Queryable, p: ContextParams): SQL {
  return sql`
    with booking_patient as (
      select id, unit_id, doctor_id, firstname, surname, sex, deleted_at is not null as deleted
      from ${patients}
      where id = ${p.patientId}::integer
        and (${p.scopeUnit}::integer is null or unit_id = ${p.scopeUnit}::integer)
    )
    select
      (select row_to_json(booking_patient) from booking_patient) as patient,
      (${visitSettingQuery(q)}) as setting,
      (select coalesce(json_agg(r), '[]'::json)
        from (${rulesForDay(q, sql`(select unit_id from booking_patient)`, p.date as string)}) r
      ) as rules,
      (select json_build_object(
          'before', count(*) filter (
            where (v.date, v.started_at) < (${p.date}::date, ${p.startedAt}::time)),
          'first', min(v.date))
        from ${visits} v
        where v.patient_id = ${p.patientId}::integer and v.cancelled_at is null
          and v.id <> ${p.except}::integer) as history,
      (select json_build_object('firstname', d.firstname, 'surname', d.surname,
          'unit_id', d.unit_id, 'deleted', d.deleted_at is not null)
        from ${doctors} d
        where d.id = coalesce(${p.doctorId}::integer,
          (select doctor_id from booking_patient))) as doctor`;
}

/** The deciding statement of a new booking, compiled once and prepared per connection. */
const bookingContextPrepared = preparedStatement('booking_context', (db) =>
  contextStatement(db, {
    patientId: sql.placeholder('patientId'),
    scopeUnit: sql.placeholder('scopeUnit'),
    date: sql.placeholder('date'),
    startedAt: sql.placeholder('startedAt'),
    except: sql.placeholder('except'),
    doctorId: sql.placeholder('doctorId'),
  }),
);

/** A new visit, written as its booking's actor in one prepared statement (no BEGIN/COMMIT). */
const insertVisitPrepared = preparedStatement('booking_insert', () => {
  const p = (name: string) => sql.placeholder(name);
  return asActor(
    p('actor'),
    sql`insert into ${visits} (patient_id, unit_id, doctor_id, date, started_at, ended_at,
        out_of_window, window_reason, created_by)
      select ${p('patient_id')}::integer, ${p('unit_id')}::integer, ${p('doctor_id')}::integer,
        ${p('date')}::date, ${p('started_at')}::time, ${p('ended_at')}::time,
        ${p('out_of_window')}::boolean, ${p('window_reason')}::text, ${p('actor')}::integer
      from audit_actor
      returning id, version`,
  );
});

/** The one row of the deciding statement, typed. */
function contextOf(row: Record<string, unknown> | undefined): BookingContext {
  const history = row?.history as { before: number; first: string | null };
  return {
    patient: (row?.patient ?? null) as BookingPatient | null,
    setting: visitSettingsFrom(row?.setting),
    rules: row?.rules as SlotRule[],
    before: Number(history.before),
    first: history.first,
    doctor: (row?.doctor ?? null) as BookingContext['doctor'],
  };
}

/**
 * The context of a booking: prepared on the database for a new booking, built for a move, which
 * reads it inside its transaction.
 */
async function bookingContext(
  db: Database | { tx: Queryable },
  actor: Actor,
  patientId: number,
  slot: { date: string; started_at: string },
  doctorId: number | null,
  except: number | null,
): Promise<BookingContext> {
  const params: ContextParams = {
    patientId,
    scopeUnit: unitScope(actor),
    date: slot.date,
    startedAt: slot.started_at,
    except: except ?? 0,
    doctorId,
  };
  if (!('tx' in db)) {
    const [row] = await bookingContextPrepared(db, params as unknown as Record<string, unknown>);
    return contextOf(row);
  }
  const result: unknown = await db.tx.execute(contextStatement(db.tx, params));
  // Both drivers answer { rows } and parse json columns; execute() leaves the result unknown.
  return contextOf((result as { rows: Record<string, unknown>[] }).rows[0]);
}

/**
 * The reachable (404), not deleted (409 `patient_deleted`) patient of a booking's context, as
 * findChangeablePatient decides it for every other write.
 */
function changeablePatient(context: BookingContext): BookingPatient {
  if (!context.patient) throw notFound();
  if (context.patient.deleted) throw new AppError(409, 'patient_deleted');
  return context.patient;
}

/** What booking and rescheduling share: the doctor, the slot, the window; nothing is written. */
function decideBooking(
  context: BookingContext,
  patient: BookingPatient,
  body: VisitBody,
  doctorId: number,
  now: Date,
) {
  const { setting, doctor } = context;
  // A doctor the body names must be a current doctor of the patient's unit (422 on
  // `doctor_id`); the patient's own doctor stays the default even after leaving the unit.
  const named = body.doctor_id != null;
  if (named && (!doctor || doctor.deleted || doctor.unit_id !== patient.unit_id))
    throw invalid({ doctor_id: ['doctor_not_in_unit'] });
  const refusal = slotRefusal(body, setting, context.rules, now);
  if (refusal === 'invalid') throw invalid({ started_at: ['invalid_time'] });
  if (refusal) throw notAvailable();
  // Visit windows (docs/product-rules.md "Visit windows"): the visit's number is 1 + the live
  // visits before it; number 1 and numbers the schedule does not list have no window.
  const number = context.before + 1;
  const window =
    number === 1 || !context.first ? null : visitWindowOf(setting.schedule, context.first, number);
  const outside = window !== null && (body.date < window.from || body.date > window.to);
  const reason = body.window_reason?.trim() ? body.window_reason : null;
  if (outside && !reason) throw invalid({ window_reason: ['window_reason_required'] });
  const length = setting.meeting_length_minutes;
  const [hours, minutes] = body.started_at.split(':').map(Number);
  const end = (hours ?? 0) * 60 + (minutes ?? 0) + length;
  const values = {
    patient_id: patient.id,
    unit_id: patient.unit_id,
    doctor_id: doctorId,
    date: body.date,
    started_at: body.started_at,
    ended_at: `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}:00`,
    out_of_window: outside,
    window_reason: outside ? reason : null,
  };
  return { values, ordinal: number, doctor };
}

async function answer(db: Database, actor: Actor, id: number): Promise<Visit> {
  const visit = await loadVisit(db, actor, id);
  // The visit was written a moment ago; only a cancel racing this answer could hide it.
  if (!visit) throw notAvailable();
  return visit;
}

/**
 * Books a slot of the patient's unit (POST /api/visits). The patient must be reachable (404)
 * and not deleted (409 `patient_deleted`); the doctor defaults to the patient's.
 */
export async function bookVisit(
  db: Database,
  actor: Actor,
  body: VisitBody,
  now: Date = new Date(),
): Promise<Visit> {
  const context = await bookingContext(
    db,
    actor,
    body.patient_id,
    body,
    body.doctor_id ?? null,
    null,
  );
  const patient = changeablePatient(context);
  const doctorId = body.doctor_id ?? patient.doctor_id;
  const { values, ordinal, doctor } = decideBooking(context, patient, body, doctorId, now);
  // One statement, its own transaction, the actor named inside it (asActor): the slot indexes
  // decide between simultaneous bookings, whatever was read a moment before.
  const [row] = await slotGuarded(() =>
    insertVisitPrepared(db, { ...values, actor: actor.userId }),
  );
  const inserted: VisitRow = {
    ...values,
    id: Number(row!.id),
    version: Number(row!.version),
    is_done: false,
    comment: null,
    notes: null,
    qt: null,
    rr: null,
    pq: null,
    qrs: null,
    qtcb: null,
    qtcfra: null,
    cancelled_at: null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  };
  // Everything the answer shows is at hand: a new visit has no files yet.
  return presentVisit(inserted, {
    ordinal,
    patient,
    doctor,
    files: [],
    probes: [],
    abilities: visitAbilities(actor, inserted, { deleted_at: null }, now),
  });
}

/**
 * Moves an upcoming visit to another slot (PUT /api/visits/{id}). A done or begun visit answers
 * 409; a stale `version` 409 `conflict`. The doctor stays unless the body names another.
 */
export async function rescheduleVisit(
  db: Database,
  actor: Actor,
  id: number,
  body: VisitUpdateBody,
  now: Date = new Date(),
): Promise<Visit> {
  const existing = await findReachableVisit(db, actor, id);
  // The visit belongs to its patient: moving it to another patient is a new booking.
  if (body.patient_id !== existing.patient_id) throw invalid({ patient_id: ['invalid'] });
  await slotGuarded(() =>
    inTransaction(db, actor.userId, async (tx) => {
      const context = await bookingContext(
        { tx },
        actor,
        existing.patient_id,
        body,
        body.doctor_id ?? existing.doctor_id ?? null,
        id,
      );
      const patient = changeablePatient(context);
      assertVisitMovable(existing, now);
      const doctorId = body.doctor_id ?? existing.doctor_id ?? patient.doctor_id;
      const { values } = decideBooking(context, patient, body, doctorId, now);
      // Changed (or cancelled, or marked done) since it was read: 409 conflict.
      await claimVersion(tx, visits, id, body.version, {
        set: { ...values, updated_at: new Date() },
        state: { where: and(liveVisit, eq(visits.is_done, false))!, refused: 'conflict' },
      });
    }),
  );
  return answer(db, actor, id);
}

/**
 * Cancels an upcoming visit (DELETE /api/visits/{id}): the row stays with `cancelled_at`, so its
 * history and audit entries stay whole and its slot is free again.
 */
export async function cancelVisit(
  db: Database,
  actor: Actor,
  id: number,
  now: Date = new Date(),
): Promise<void> {
  const existing = await findReachableVisit(db, actor, id);
  await findChangeablePatient(db, actor, existing.patient_id);
  assertVisitMovable(existing, now);
  await inTransaction(db, actor.userId, async (tx) => {
    // Cancelled or recorded meanwhile: 409 `conflict`, as a stale edit (ADR 018).
    await claimVersion(tx, visits, id, undefined, {
      set: { cancelled_at: now, updated_at: now },
      state: { where: and(liveVisit, eq(visits.is_done, false))!, refused: 'conflict' },
    });
  });
}

/**
 * The window of the patient's next booking (GET /api/patients/{id}/visit_window): the number
 * after the patient's live visits, counted from the first one; null before any visit and past
 * the schedule's end. With it the last bookable day, so the booking calendar offers no later one.
 */
export async function nextVisitWindow(
  db: Database,
  actor: Actor,
  patientId: number,
  now: Date = new Date(),
): Promise<NextVisitWindow> {
  await findReachablePatient(db, actor, patientId);
  const [setting, [row]] = await Promise.all([
    visitSettings(db),
    db
      .select({
        count: sql<number>`count(*)::int`,
        first: sql<string | null>`min(${visits.date})::text`,
      })
      .from(visits)
      .where(and(eq(visits.patient_id, patientId), liveVisit)),
  ]);
  const bookable_until =
    lastBookableDay(setting, warsawDay(now)) ??
    lastBookableDay(SETTING_DEFAULTS.visits, warsawDay(now))!;
  if (!row?.first) return { data: null, bookable_until };
  return { data: visitWindowOf(setting.schedule, row.first, row.count + 1), bookable_until };
}
