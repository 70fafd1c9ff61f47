import { formatWarsawTime, slotRefusal, visitWindowOf, warsawDay } from '@portal/shared';
import type { Visit, VisitBody, VisitWindowView } from '@portal/shared';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { doctors, visits } from '../../db/schema.js';
import { AppError, conflict, invalid, isUniqueViolation } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient, findReachablePatient } from '../../policies/patients.js';
import type { PatientRow } from '../../policies/patients.js';
import { findReachableVisit } from '../../policies/visits.js';
import type { VisitRow } from '../../policies/visits.js';
import { liveVisit, loadVisit } from './queries.js';
import { rulesForDay, visitSettings } from './slots-service.js';

/** A closed, taken, weekend, past or off-grid slot (design §3): one word for every reason. */
export const notAvailable = () => conflict('not_available');

/**
 * The slot indexes are the real guard (design §5, ADR 027): whatever was checked before, two
 * bookings of one slot at the same moment meet here, and the loser hears `not_available`.
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

/**
 * Whether a visit has begun by Warsaw's wall clock (its day is over, or today its start is at
 * or before the current minute): such a visit is history and is neither moved nor cancelled.
 */
export function visitHasBegun(visit: { date: string; started_at: string }, now: Date): boolean {
  const today = warsawDay(now);
  if (visit.date !== today) return visit.date < today;
  return visit.started_at.slice(0, 5) <= formatWarsawTime(now);
}

/** A done or begun visit stays as it is: 409 `visit_done` / `visit_past`. */
function assertVisitMovable(visit: VisitRow, now: Date): void {
  if (visit.is_done) throw new AppError(409, 'visit_done');
  if (visitHasBegun(visit, now)) throw new AppError(409, 'visit_past');
}

/** The doctor must be a current doctor of the patient's unit (422 on `doctor_id`). */
async function assertDoctorOfUnit(db: Queryable, doctorId: number, unitId: number): Promise<void> {
  const [doctor] = await db
    .select({ unit_id: doctors.unit_id })
    .from(doctors)
    .where(and(eq(doctors.id, doctorId), isNull(doctors.deleted_at)));
  if (!doctor || doctor.unit_id !== unitId) throw invalid({ doctor_id: ['doctor_not_in_unit'] });
}

/**
 * The window of the visit a booking on `date`/`started_at` would be (design §5 "Visit windows"):
 * its number is 1 + the patient's live visits before it (`except` leaves out the visit being
 * moved); number 1 and numbers the schedule does not list have none.
 */
async function windowOfBooking(
  db: Queryable,
  patientId: number,
  slot: { date: string; started_at: string },
  schedule: Parameters<typeof visitWindowOf>[0],
  except: number | null,
): Promise<VisitWindowView | null> {
  const [row] = await db
    .select({
      before: sql<number>`count(*) filter (where (${visits.date}, ${visits.started_at}) < (${slot.date}::date, ${slot.started_at}::time))::int`,
      first: sql<string | null>`min(${visits.date})::text`,
    })
    .from(visits)
    .where(
      and(
        eq(visits.patient_id, patientId),
        liveVisit,
        except === null ? undefined : ne(visits.id, except),
      ),
    );
  const number = 1 + (row?.before ?? 0);
  if (number === 1 || !row?.first) return null;
  return visitWindowOf(schedule, row.first, number);
}

/** What booking and rescheduling share: the slot check, the doctor, the window. */
async function checkedBooking(
  tx: Queryable,
  patient: PatientRow,
  body: VisitBody,
  doctorId: number,
  except: number | null,
  now: Date,
) {
  const [setting, rules] = await Promise.all([
    visitSettings(tx),
    rulesForDay(tx, patient.unit_id, body.date),
  ]);
  const refusal = slotRefusal(body, setting, rules, now);
  if (refusal === 'invalid') throw invalid({ started_at: ['invalid_time'] });
  if (refusal) throw notAvailable();
  const window = await windowOfBooking(tx, patient.id, body, setting.schedule, except);
  const outside = window !== null && (body.date < window.from || body.date > window.to);
  const reason = body.window_reason?.trim() ? body.window_reason : null;
  if (outside && !reason) throw invalid({ window_reason: ['window_reason_required'] });
  const length = setting.meeting_length_minutes;
  const [hours, minutes] = body.started_at.split(':').map(Number);
  const end = (hours ?? 0) * 60 + (minutes ?? 0) + length;
  return {
    patient_id: patient.id,
    unit_id: patient.unit_id,
    doctor_id: doctorId,
    date: body.date,
    started_at: body.started_at,
    ended_at: `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}:00`,
    out_of_window: outside,
    window_reason: outside ? reason : null,
  };
}

async function answer(db: Database, id: number): Promise<Visit> {
  const visit = await loadVisit(db, id);
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
  const patient = await findChangeablePatient(db, actor, body.patient_id);
  const doctorId = body.doctor_id ?? patient.doctor_id;
  if (body.doctor_id != null) await assertDoctorOfUnit(db, body.doctor_id, patient.unit_id);
  const id = await slotGuarded(() =>
    inTransaction(db, actor.userId, async (tx) => {
      const values = await checkedBooking(tx, patient, body, doctorId, null, now);
      const [row] = await tx
        .insert(visits)
        .values({ ...values, created_by: actor.userId })
        .returning({ id: visits.id });
      return row!.id;
    }),
  );
  return answer(db, id);
}

/**
 * Moves an upcoming visit to another slot (PUT /api/visits/{id}). A done or begun visit answers
 * 409; a stale `version` 409 `conflict`. The doctor stays unless the body names another.
 */
export async function rescheduleVisit(
  db: Database,
  actor: Actor,
  id: number,
  body: VisitBody,
  now: Date = new Date(),
): Promise<Visit> {
  const existing = await findReachableVisit(db, actor, id);
  // The visit belongs to its patient: moving it to another patient is a new booking.
  if (body.patient_id !== existing.patient_id) throw invalid({ patient_id: ['invalid'] });
  const patient = await findChangeablePatient(db, actor, existing.patient_id);
  assertVisitMovable(existing, now);
  const doctorId = body.doctor_id ?? existing.doctor_id ?? patient.doctor_id;
  if (body.doctor_id != null) await assertDoctorOfUnit(db, body.doctor_id, patient.unit_id);
  await slotGuarded(() =>
    inTransaction(db, actor.userId, async (tx) => {
      const values = await checkedBooking(tx, patient, body, doctorId, id, now);
      const [row] = await tx
        .update(visits)
        .set({
          ...values,
          version: sql`${visits.version} + 1`,
          updated_at: new Date(),
        })
        .where(
          and(
            eq(visits.id, id),
            liveVisit,
            eq(visits.is_done, false),
            body.version === undefined ? undefined : eq(visits.version, body.version),
          ),
        )
        .returning({ id: visits.id });
      // Changed (or cancelled, or marked done) since it was read.
      if (!row) throw conflict('conflict');
    }),
  );
  return answer(db, id);
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
    const [row] = await tx
      .update(visits)
      .set({
        cancelled_at: now,
        version: sql`${visits.version} + 1`,
        updated_at: now,
      })
      .where(and(eq(visits.id, id), liveVisit, eq(visits.is_done, false)))
      .returning({ id: visits.id });
    if (!row) throw conflict('conflict');
  });
}

/**
 * The window of the patient's next booking (GET /api/patients/{id}/visit_window): the number
 * after the patient's live visits, counted from the first one; null before any visit and past
 * the schedule's end.
 */
export async function nextVisitWindow(
  db: Database,
  actor: Actor,
  patientId: number,
): Promise<{ data: VisitWindowView | null }> {
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
  if (!row?.first) return { data: null };
  return { data: visitWindowOf(setting.schedule, row.first, row.count + 1) };
}
