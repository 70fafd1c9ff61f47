import { ecgOutOfNorm } from '@portal/shared';
import type { Visit } from '@portal/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { doctors, files, patients, probes, visits } from '../../db/schema.js';
import type { Actor } from '../../plugins/policy.js';
import { visitAbilities } from '../../policies/visits.js';
import { liveVisit } from '../../lib/live-visit.js';

export type VisitRow = typeof visits.$inferSelect;

/**
 * The visits matching `where` (live ones only), in its API shape (docs/api-conventions.md), ordered by date and
 * time. The ordinal is the visit's position among the patient's live visits by date and time,
 * counted in the database so that it is the same on every screen. Each carries the actor's
 * abilities on it (ADR 045), judged at `now`.
 */
export async function loadVisits(
  db: Queryable,
  actor: Actor,
  where: SQL | undefined,
  now: Date = new Date(),
): Promise<Visit[]> {
  const rows = await db
    .select({
      visit: visits,
      ordinal: sql<number>`(
        select count(*)::int from ${visits} as earlier
        where earlier.patient_id = ${visits.patient_id} and earlier.cancelled_at is null
          and (earlier.date, earlier.started_at) <= (${visits.date}, ${visits.started_at})
      )`,
      patient: { firstname: patients.firstname, surname: patients.surname, sex: patients.sex },
      patientDeletedAt: patients.deleted_at,
      doctor: { firstname: doctors.firstname, surname: doctors.surname },
    })
    .from(visits)
    .innerJoin(patients, eq(patients.id, visits.patient_id))
    .leftJoin(doctors, eq(doctors.id, visits.doctor_id))
    .where(and(liveVisit, where))
    .orderBy(asc(visits.date), asc(visits.started_at), asc(visits.id));
  if (rows.length === 0) return [];

  const ids = rows.map((row) => row.visit.id);
  const [fileRows, probeRows] = await Promise.all([
    db
      .select({
        id: files.id,
        ref_id: files.ref_id,
        original_name: files.original_name,
        created_at: files.created_at,
      })
      .from(files)
      .where(and(eq(files.ref_type, 'visit'), inArray(files.ref_id, ids)))
      .orderBy(asc(files.id)),
    db
      .select({
        id: probes.id,
        visit_id: probes.visit_id,
        code: probes.code,
        created_at: probes.created_at,
        status: probes.status,
      })
      .from(probes)
      .where(inArray(probes.visit_id, ids))
      .orderBy(asc(probes.created_at), asc(probes.id)),
  ]);
  const filesOf = new Map<number, Visit['files']>();
  for (const file of fileRows) {
    const list = filesOf.get(file.ref_id) ?? [];
    list.push({
      id: file.id,
      original_name: file.original_name,
      created_at: file.created_at.toISOString(),
    });
    filesOf.set(file.ref_id, list);
  }

  const probesOf = new Map<number, Visit['probes']>();
  for (const probe of probeRows) {
    if (probe.visit_id === null) continue;
    const list = probesOf.get(probe.visit_id) ?? [];
    list.push({
      id: probe.id,
      code: probe.code,
      created_at: probe.created_at.toISOString(),
      status: probe.status,
    });
    probesOf.set(probe.visit_id, list);
  }

  return rows.map(({ visit, ordinal, patient, patientDeletedAt, doctor }) =>
    presentVisit(visit, {
      ordinal,
      patient,
      doctor,
      files: filesOf.get(visit.id) ?? [],
      probes: probesOf.get(visit.id) ?? [],
      abilities: visitAbilities(actor, visit, { deleted_at: patientDeletedAt }, now),
    }),
  );
}

/** What the answer of a visit needs beside its row. */
export interface VisitRelations {
  ordinal: number;
  patient: { firstname: string; surname: string; sex: 'M' | 'K' };
  doctor: { firstname: string; surname: string } | null;
  files: Visit['files'];
  /** The samples taken at the visit (linked by `probes.visit_id`). */
  probes: Visit['probes'];
  /** The actor's abilities on the visit (policies/visits.ts visitAbilities). */
  abilities: Visit['abilities'];
}

/**
 * A visit row in its API shape (docs/api-conventions.md): every field named, so no new column leaks
 * out.
 */
export function presentVisit(visit: VisitRow, related: VisitRelations): Visit {
  const results = {
    qt: visit.qt,
    rr: visit.rr,
    pq: visit.pq,
    qrs: visit.qrs,
    qtcb: visit.qtcb,
    qtcfra: visit.qtcfra,
  };
  const { patient, doctor } = related;
  return {
    id: visit.id,
    date: visit.date,
    started_at: visit.started_at,
    ended_at: visit.ended_at,
    ordinal: related.ordinal,
    patient_id: visit.patient_id,
    patient: { firstname: patient.firstname, surname: patient.surname },
    doctor_id: visit.doctor_id,
    doctor: doctor ? { firstname: doctor.firstname, surname: doctor.surname } : null,
    unit_id: visit.unit_id,
    isDone: visit.is_done,
    comment: visit.comment,
    out_of_window: visit.out_of_window,
    window_reason: visit.window_reason,
    notes: visit.notes,
    results,
    out_of_norm: ecgOutOfNorm(results, patient.sex),
    files: related.files,
    probes: related.probes,
    version: visit.version,
    abilities: related.abilities,
  };
}

/** One live visit by id in its API shape (docs/api-conventions.md), or null. */
export async function loadVisit(db: Queryable, actor: Actor, id: number): Promise<Visit | null> {
  const [found] = await loadVisits(db, actor, eq(visits.id, id));
  return found ?? null;
}
