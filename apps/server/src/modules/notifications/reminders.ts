import { addDays, warsawToday } from '@portal/shared';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { patients, visits } from '../../db/schema.js';
import { liveVisit } from '../../lib/live-visit.js';
import { enqueueNotification } from './events.js';

const CHUNK = 500;

/**
 * Tells each patient with a live visit tomorrow (Warsaw time) about it (ADR 062). Run daily by
 * the job queue; the event key (visit and day) makes a second run the same day, or two nodes'
 * runs, add nothing. Returns how many visits were looked at.
 */
export async function sendVisitReminders(
  db: Database,
  today: string = warsawToday(),
): Promise<number> {
  const tomorrow = addDays(today, 1);
  let after = 0;
  let seen = 0;
  for (;;) {
    const rows = await db
      .select({
        id: visits.id,
        patient_id: visits.patient_id,
        date: visits.date,
        started_at: visits.started_at,
      })
      .from(visits)
      .innerJoin(patients, eq(patients.id, visits.patient_id))
      .where(
        and(
          eq(visits.date, tomorrow),
          liveVisit,
          isNull(patients.deleted_at),
          gt(visits.id, after),
        ),
      )
      .orderBy(asc(visits.id))
      .limit(CHUNK);
    if (rows.length === 0) return seen;
    // One transaction per chunk: a crash leaves the rest for the next run, never half a row.
    await inTransaction(db, null, async (tx) => {
      for (const visit of rows) {
        await enqueueNotification(tx, {
          type: 'visit_reminder',
          visit_id: visit.id,
          patient_id: visit.patient_id,
          date: visit.date,
          time: visit.started_at.slice(0, 5),
        });
      }
    });
    seen += rows.length;
    after = rows[rows.length - 1]!.id;
  }
}
