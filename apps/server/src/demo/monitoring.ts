import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { inTransaction } from '../db/client.js';
import { doctors, probes, patients, users, visits } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { createMonitor } from '../modules/monitors/index.js';
import { addMessage, openQuery, verify } from '../modules/queries/index.js';
import { recordSignature } from '../modules/signatures/index.js';
import type { Actor } from '../plugins/policy.js';

export interface DemoMonitoring {
  login: string;
  signed: number;
  changedAfterSigning: number;
  unsigned: number;
  queries: { open: number; answered: number };
}

/** The demo writes through the services as these users would (no session, a chosen password). */
const staff = (id: number, login: string, role: 'doctor' | 'monitor', unitId: number) =>
  ({
    userId: id,
    sessionId: 0,
    login,
    role,
    doctorId: null,
    unitId: role === 'doctor' ? unitId : null,
    ...(role === 'monitor' ? { unitIds: [unitId] } : {}),
    changedPasswordAt: new Date(),
  }) satisfies Actor;

/**
 * Issue 23 (ADRs 050, 051): a monitor of the first unit (password `password`, chosen), and in
 * that unit signed and unsigned recorded visits, a visit changed after it was signed (its
 * signature invalidated by the database), a signed sample's results, a verified visit, and open
 * and answered queries.
 */
export async function addDemoMonitoring(
  db: Database,
  unitId: number,
  password: string,
): Promise<DemoMonitoring> {
  const monitor = await createMonitor(db, null, {
    firstname: 'Monika',
    surname: 'Zawadzka',
    email: 'monitor@cro.example.pl',
    phone_number: '600900100',
    unit_ids: [unitId],
  });
  const [monitorUser] = await db
    .update(users)
    .set({ password_hash: await hashPassword(password), changed_password_at: new Date() })
    .where(eq(users.login, monitor.email))
    .returning({ id: users.id, login: users.login });
  const done = await db
    .select({
      id: visits.id,
      patientId: visits.patient_id,
      doctorUser: doctors.user_id,
      doctorLogin: doctors.email,
    })
    .from(visits)
    .innerJoin(patients, eq(patients.id, visits.patient_id))
    .innerJoin(doctors, eq(doctors.id, visits.doctor_id))
    .where(and(eq(patients.unit_id, unitId), eq(visits.is_done, true)))
    .orderBy(asc(visits.id))
    .limit(6);
  const result: DemoMonitoring = {
    login: monitor.email,
    signed: 0,
    changedAfterSigning: 0,
    unsigned: 0,
    queries: { open: 0, answered: 0 },
  };
  if (!monitorUser || done.length < 4) return result;
  const monitorActor = staff(monitorUser.id, monitorUser.login, 'monitor', unitId);
  const [signedVisit, changedVisit, queriedVisit, verifiedVisit] = done;
  for (const visit of [signedVisit!, changedVisit!, verifiedVisit!]) {
    await inTransaction(db, visit.doctorUser, (tx) =>
      recordSignature(
        tx,
        visit.doctorUser,
        { record_type: 'visit', record_id: visit.id, meaning: 'author' },
        visit.patientId,
      ),
    );
    result.signed += 1;
  }
  // Verified before the correction below, which clears the mark: the card then says
  // "zmieniono po weryfikacji" (ADR 051).
  await verify(db, monitorActor, 'visit', changedVisit!.id);
  // A correction after signing: the trigger marks the signature invalidated.
  await inTransaction(db, changedVisit!.doctorUser, (tx) =>
    tx
      .update(visits)
      .set({ comment: '<p>Korekta po podpisie: QT zmierzono ponownie.</p>', qt: 405 })
      .where(eq(visits.id, changedVisit!.id)),
  );
  result.changedAfterSigning = 1;
  result.signed -= 1;
  result.unsigned = done.length - 3;
  const [sample] = await db
    .select({ id: probes.id, patientId: probes.patient_id })
    .from(probes)
    .innerJoin(patients, eq(patients.id, probes.patient_id))
    .where(and(eq(patients.unit_id, unitId), isNotNull(probes.results_at)))
    .limit(1);
  if (sample) {
    await inTransaction(db, signedVisit!.doctorUser, (tx) =>
      recordSignature(
        tx,
        signedVisit!.doctorUser,
        { record_type: 'probe', record_id: sample.id, meaning: 'approve' },
        sample.patientId,
      ),
    );
  }
  await verify(db, monitorActor, 'visit', verifiedVisit!.id);
  await openQuery(db, monitorActor, {
    record_type: 'visit',
    record_id: queriedVisit!.id,
    field: 'qt',
    text: 'QT w karcie różni się od wydruku EKG w dokumentacji źródłowej. Proszę o weryfikację.',
  });
  result.queries.open += 1;
  const answered = await openQuery(db, monitorActor, {
    record_type: 'patient',
    record_id: queriedVisit!.patientId,
    field: 'weight',
    text: 'Brak masy ciała w dokumentacji z wizyty kwalifikacyjnej.',
  });
  await addMessage(
    db,
    staff(queriedVisit!.doctorUser, queriedVisit!.doctorLogin, 'doctor', unitId),
    answered.id,
    'Masa ciała potwierdzona w historii choroby (str. 3).',
  );
  result.queries.answered += 1;
  return result;
}
