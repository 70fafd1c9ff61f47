import { VISIT_NOTES_MAX, withCorrections, warsawToday } from '@portal/shared';
import type { Visit, VisitNotesBody, VisitResultsBody } from '@portal/shared';
import { eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import { invalid, notFound } from '../../lib/errors.js';
import { isBlankRichText, sanitizeRichText } from '../../lib/sanitize.js';
import { applyReason } from '../../lib/reasons.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient } from '../../policies/patients.js';
import { assertVisitRecordable, findReachableVisit } from '../../policies/visits.js';
import { evaluateVisitAlerts } from '../safety-alerts/index.js';
import { liveVisit } from '../../lib/live-visit.js';
import { loadVisit } from './queries.js';
import { monitoringFactsOf } from '../queries/index.js';
import { signaturesOf } from '../signatures/index.js';
import { lockFactsOf } from '../records/index.js';

/**
 * One reachable live visit in its API shape (docs/api-conventions.md) (another unit's or a
 * cancelled one: 404).
 */
export async function getVisit(db: Database, actor: Actor, id: number): Promise<Visit> {
  await findReachableVisit(db, actor, id);
  const found = await loadVisit(db, actor, id);
  if (!found) throw notFound();
  const [signatures, facts] = await Promise.all([
    signaturesOf(db, 'visit', id),
    monitoringFactsOf(db, 'visit', id),
  ]);
  const lockFacts = await lockFactsOf(db, actor, 'visit', id, signatures.length > 0);
  return { ...found, signatures, ...lockFacts, ...facts };
}

/**
 * Records a visit (docs/product-rules.md "Recording a visit"): done or not, the comment (sanitised
 * rich text) and the measured ECG, with QTcB and QTcF computed here, never taken from the client.
 * The body replaces what was recorded (a value left out is cleared). Allowed from the visit's
 * day on in Europe/Warsaw (409 `too_early` before: a visit that has not happened cannot be
 * done); a deleted patient's visit is read-only (409 `patient_deleted`); a stale `version`
 * answers 409 `conflict`. The audit trigger on visits records every changed column. The QTcF
 * safety rules run in the same transaction (modules/safety-alerts/safety.ts).
 */
export async function recordVisit(
  db: Database,
  actor: Actor,
  id: number,
  body: VisitResultsBody,
  today: string = warsawToday(),
): Promise<Visit> {
  const visit = await findReachableVisit(db, actor, id);
  await findChangeablePatient(db, actor, visit.patient_id);
  assertVisitRecordable(visit, today);

  const results = withCorrections(body.results);
  const comment = body.comment ? sanitizeRichText(body.comment) : '';
  // Cancelled meanwhile (404) or saved by someone else since it was read (409).
  await inTransaction(db, actor.userId, async (tx) => {
    // A recorded visit holds entered clinical data: changed only with a reason (ADR 048),
    // decided on the row locked for this write.
    const [stored] = await tx
      .select({ done: visits.is_done })
      .from(visits)
      .where(eq(visits.id, id))
      .for('update');
    await applyReason(tx, stored?.done === true, body.reason);
    await claimVersion(tx, visits, id, body.version, {
      set: {
        is_done: body.isDone,
        comment: comment && !isBlankRichText(comment) ? comment : null,
        ...results,
        updated_at: new Date(),
      },
      state: { where: liveVisit },
    });
    // The safety rules on QTcF (docs/product-rules.md "Safety alerts") in the same transaction as
    // the ECG they judge.
    await evaluateVisitAlerts(tx, id);
  });
  return getVisit(db, actor, id);
}

/**
 * Saves the visit's notes (PUT /api/visits/{id}/notes, ADR 038): rich text sanitised to the
 * allow list of every rich text; empty, blank or null clears them. Whoever may record the visit
 * may write them, at any time (before the visit too: preparation belongs there); a deleted
 * patient's visit is read-only (409 `patient_deleted`); a stale `version` answers 409
 * `conflict`. Only the notes change, so the visit's record (done, comment, ECG) stays as it is;
 * the audit trigger on visits records the change.
 */
export async function saveVisitNotes(
  db: Database,
  actor: Actor,
  id: number,
  body: VisitNotesBody,
): Promise<Visit> {
  const visit = await findReachableVisit(db, actor, id);
  await findChangeablePatient(db, actor, visit.patient_id);
  const cleaned = body.notes ? sanitizeRichText(body.notes) : '';
  const notes = cleaned && !isBlankRichText(cleaned) ? cleaned : null;
  // Sanitising may lengthen links (target and rel are added): the stored text keeps the limit.
  if (notes !== null && notes.length > VISIT_NOTES_MAX) throw invalid({ notes: ['too_long'] });
  await inTransaction(db, actor.userId, (tx) =>
    claimVersion(tx, visits, id, body.version, {
      set: { notes, updated_at: new Date() },
      state: { where: liveVisit },
    }),
  );
  return getVisit(db, actor, id);
}
