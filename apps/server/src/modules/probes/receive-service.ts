import { barcodeSafe } from '@portal/shared';
import type { receivedProbe } from '@portal/shared';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { inTransaction } from '../../db/client.js';
import { patients, probes } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { unitScope } from '../../policies/units.js';
import { looseCodeKey } from './probe-number.js';
import { userNameSql } from './queries.js';

type ReceivedProbe = z.infer<typeof receivedProbe>;

/** The reception answer for one sample, as stored now. */
async function loadReceived(db: Queryable, id: number): Promise<ReceivedProbe> {
  const [row] = await db
    .select({
      id: probes.id,
      code: probes.code,
      status: probes.status,
      type_of_material: probes.type_of_material,
      collect_place: probes.collect_place,
      patient_id: probes.patient_id,
      firstname: patients.firstname,
      surname: patients.surname,
      arrived_at: probes.arrived_at,
      arrived_by: probes.arrived_by,
      arrived_by_name: userNameSql(probes.arrived_by),
    })
    .from(probes)
    .innerJoin(patients, eq(patients.id, probes.patient_id))
    .where(eq(probes.id, id));
  if (!row?.arrived_at || row.arrived_by === null) throw notFound();
  return {
    id: row.id,
    code: row.code,
    status: row.status,
    type_of_material: row.type_of_material,
    collect_place: row.collect_place,
    patient_id: row.patient_id,
    patient: { firstname: row.firstname, surname: row.surname },
    arrived_at: row.arrived_at.toISOString(),
    arrived_by: { id: row.arrived_by, name: row.arrived_by_name },
  };
}

/**
 * Records a scanned label's arrival at the laboratory (docs/api-conventions.md "Probe"): the first
 * scan sets the time and the user and moves `collected` to `sent` (a sample with results keeps
 * `received`). The claim is one conditional UPDATE … WHERE arrived_at IS NULL, so of two
 * simultaneous scans the second waits for the first's row lock, then finds the row taken and
 * answers 409
 * `already_received` with the first scan's time and user. An unknown code and another unit's
 * sample answer 404 alike (ADR 004).
 *
 * The scan is found as written, else as the label's barcode-safe bytes without letter case
 * (ADR 035): a scanner with Caps Lock, or one that sends `L` for an old label's `Ł`, still finds
 * its sample. Should that looser match name two samples (only old codes can), neither is taken:
 * 404, never a guess.
 */
export async function receiveProbe(
  db: Database,
  actor: Actor,
  rawCode: string,
): Promise<ReceivedProbe> {
  const code = rawCode.trim();
  const unit = unitScope(actor);
  return inTransaction(db, actor.userId, async (tx) => {
    const exact = sql<boolean>`${probes.code} = ${code}`;
    const found = await tx
      .select({ id: probes.id, exact })
      .from(probes)
      .innerJoin(patients, eq(patients.id, probes.patient_id))
      .where(
        and(
          or(eq(probes.code, code), eq(looseCodeKey, barcodeSafe(code).toLowerCase())),
          unit === null ? undefined : eq(patients.unit_id, unit),
        ),
      )
      .orderBy(sql`${exact} desc`, asc(probes.id))
      .limit(2);
    const target = found[0]?.exact || found.length === 1 ? found[0] : undefined;
    if (!target) throw notFound();
    // A second scan (here or at the other desk at once) finds it arrived: 409 with the sample.
    const claimed = await claimVersion(tx, probes, target.id, undefined, {
      set: {
        arrived_at: sql`now()`,
        arrived_by: actor.userId,
        status: sql`case when ${probes.status} = 'collected' then 'sent' else ${probes.status} end`,
        updated_at: sql`now()`,
      },
      state: { where: isNull(probes.arrived_at), refused: 'already_received' },
    }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AppError && error.status === 'already_received') return false;
        throw error;
      },
    );
    const received = await loadReceived(tx, target.id);
    if (!claimed) throw new AppError(409, 'already_received', { probe: received });
    return received;
  });
}
