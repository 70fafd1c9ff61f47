import { suffixedProbeCode, warsawToday } from '@portal/shared';
import type { Carrier, Probe, ProbeBody, ProbeDetail } from '@portal/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import {
  carriers,
  medicines,
  probeMedicines,
  probeSetKits,
  probeSets,
  probes,
  visits,
} from '../../db/schema.js';
import { AppError, invalid, notFound } from '../../lib/errors.js';
import { isBlankRichText, sanitizeRichText } from '../../lib/sanitize.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import {
  assertPatientActive,
  findChangeablePatient,
  findReachablePatient,
} from '../../policies/patients.js';
import { findReachableProbe } from '../../policies/probes.js';
import { unitScope } from '../../policies/units.js';
import { shownIdentity } from '../../policies/identity.js';
import { monitoringFactsOf } from '../queries/index.js';
import { readSettingValue } from '../settings/index.js';
import { signaturesOf } from '../signatures/index.js';
import { lockFactsOf } from '../records/index.js';
import { liveVisit } from '../../lib/live-visit.js';
import { labRefusalsOf } from './lab-refusals.js';
import { codeFor, lockCodeFacts, looseCodeKey, readCodeFacts } from './probe-number.js';
import { loadProbe, loadProbes } from './queries.js';

/** Visible carriers by name with the materials they take (the creation dialog's choice). */
export async function listCarriers(db: Queryable): Promise<Carrier[]> {
  return db
    .select({ id: carriers.id, name: carriers.name, materials: carriers.materials })
    .from(carriers)
    .where(eq(carriers.is_visible, true))
    .orderBy(asc(carriers.name), asc(carriers.id));
}

/** The postal service's page for ordering a courier (setting `shipping`). */
export async function orderLink(db: Queryable): Promise<{ url: string }> {
  const value = await readSettingValue(db, 'shipping');
  return { url: value.url };
}

/**
 * The number the next sample of a reachable patient would get (docs/product-rules.md "Probe
 * number"): never reserved, so two previews give the same code and the saved sample may get another
 * one if someone else saved first. One prepared statement.
 */
export async function previewCode(
  db: Database,
  actor: Actor,
  patientId: number,
  form: Pick<ProbeBody, 'type_of_material' | 'collect_place'>,
): Promise<{ code: string }> {
  const facts = await readCodeFacts(db, patientId, unitScope(actor));
  if (!facts) throw notFound();
  return { code: codeFor(facts, form) };
}

/**
 * The checks of the form against the database and the Warsaw day, all at once, so that the
 * dialog marks every wrong field in one answer (422 `validation_error`).
 */
async function checkProbeBody(db: Queryable, body: ProbeBody, today: string): Promise<void> {
  const medicineIds = [...new Set(body.medicine_ids)];
  const [visit, foundMedicines, carrier, kit] = await Promise.all([
    body.visit_id
      ? db
          .select({ id: visits.id })
          .from(visits)
          .where(
            and(eq(visits.id, body.visit_id), eq(visits.patient_id, body.patient_id), liveVisit),
          )
      : Promise.resolve([{ id: 0 }]),
    db.select({ id: medicines.id }).from(medicines).where(inArray(medicines.id, medicineIds)),
    db
      .select({ id: carriers.id, materials: carriers.materials })
      .from(carriers)
      .where(and(eq(carriers.id, body.carrier_id), eq(carriers.is_visible, true))),
    // A kit of an accepted order of the same patient (an accepted order stays accepted).
    body.probe_set_kit_id
      ? db
          .select({ id: probeSetKits.id })
          .from(probeSetKits)
          .innerJoin(probeSets, eq(probeSets.id, probeSetKits.probe_set_id))
          .where(
            and(
              eq(probeSetKits.id, body.probe_set_kit_id),
              eq(probeSetKits.patient_id, body.patient_id),
              eq(probeSets.status, 1),
            ),
          )
      : Promise.resolve([{ id: 0 }]),
  ]);
  const errors: Record<string, string[]> = {};
  if (visit.length === 0) errors.visit_id = ['invalid'];
  if (foundMedicines.length !== medicineIds.length) errors.medicine_ids = ['invalid'];
  // A carrier not meant for the material is asked about in the dialog, not refused (ADR 041).
  if (carrier.length === 0) errors.carrier_id = ['invalid'];
  // A kit is sent home: a sample drawn in the clinic was not drawn with one.
  if (kit.length === 0 || (body.probe_set_kit_id && body.collect_place !== 'home'))
    errors.probe_set_kit_id = ['invalid'];
  if (body.date_of_sample > today) errors.date_of_sample = ['future_date'];
  if (body.ordered_at > today) errors.ordered_at = ['future_date'];
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

/**
 * The first free code from `base`: itself, else `base-2`, `base-3`, … (a configuration without
 * the patient's number or the sample's number gives the same code to different samples; a
 * suffix past `-99` shortens the base so the code stays within 32 characters, ADR 035). A code
 * is taken when another sample's code equals it ignoring letter case and Polish accents (an old
 * `Łódź1` takes `LODZ1`), because the reception finds codes so. Lookups through the index on
 * lower(portal_unaccent(code)) only: the base, then batches of suffixes (64, 128, …) until one
 * is free, so even a study whose every code collides needs a handful of statements.
 */
async function freeCode(tx: Queryable, base: string): Promise<string> {
  const taken = async (candidates: string[]) => {
    const rows = await tx
      .select({ key: looseCodeKey })
      .from(probes)
      .where(
        inArray(
          looseCodeKey,
          candidates.map((code) => code.toLowerCase()),
        ),
      );
    return new Set(rows.map((row) => row.key));
  };
  if (!(await taken([base])).has(base.toLowerCase())) return base;
  for (let from = 2, size = 64; ; from += size, size *= 2) {
    const candidates = Array.from({ length: size }, (_, i) => suffixedProbeCode(base, from + i));
    const used = await taken(candidates);
    const free = candidates.find((code) => !used.has(code.toLowerCase()));
    if (free) return free;
  }
}

/**
 * Creates a sample (docs/product-rules.md "Probe number"; docs/api-conventions.md "Probe"): the
 * final code is built here from the saved configuration, with the patient row locked so that
 * samples of one patient get numbers 1, 2, 3… even when saved at the same moment, and a suffix when
 * the code is another sample's already (a code is inserted ON CONFLICT DO NOTHING: a concurrent
 * sample of another patient that took it first makes this one try the next suffix). The laboratory
 * address is copied from its setting.
 */
export async function createProbe(
  db: Database,
  actor: Actor,
  body: ProbeBody,
  today: string = warsawToday(),
): Promise<Probe> {
  await findChangeablePatient(db, actor, body.patient_id);
  await checkProbeBody(db, body, today);

  const id = await inTransaction(db, actor.userId, async (tx) => {
    const facts = await lockCodeFacts(tx, body.patient_id);
    // Deleted meanwhile: the same answer as before the transaction.
    if (!facts) throw notFound();
    assertPatientActive(facts);
    const lab = await readSettingValue(tx, 'laboratory');
    const hasLab = lab.address.trim() !== '';
    const base = codeFor(facts, body);
    const values = {
      patient_id: body.patient_id,
      visit_id: body.visit_id ?? null,
      probe_set_kit_id: body.probe_set_kit_id ?? null,
      probe_number: facts.last_probe_number + 1,
      date_of_sample: body.date_of_sample,
      type_of_test: body.type_of_test,
      type_of_material: body.type_of_material,
      collect_place: body.collect_place,
      is_cito: body.is_cito,
      carrier_id: body.carrier_id,
      ordered_by_firstname: body.ordered_by_firstname,
      ordered_by_surname: body.ordered_by_surname,
      ordered_at: body.ordered_at,
      patient_firstname: body.patient_firstname,
      patient_surname: body.patient_surname,
      patient_address_street: body.patient_address_street,
      patient_address_building: body.patient_address_building,
      patient_address_postcode: body.patient_address_postcode,
      patient_address_city: body.patient_address_city,
      laboratory_address: hasLab ? lab.address : null,
      laboratory_postcode: hasLab ? lab.postcode : null,
      laboratory_city: hasLab ? lab.city : null,
      created_by: actor.userId,
    };
    for (let attempt = 0; attempt < 20; attempt++) {
      const code = await freeCode(tx, base);
      const [row] = await tx
        .insert(probes)
        .values({ ...values, code })
        .onConflictDoNothing() // the code, or the code in another letter case
        .returning({ id: probes.id });
      if (!row) continue;
      await tx.insert(probeMedicines).values(
        [...new Set(body.medicine_ids)].map((medicine_id) => ({
          probe_id: row.id,
          patient_id: body.patient_id,
          medicine_id,
        })),
      );
      return row.id;
    }
    // Twenty samples with the same code saved at the very same moment: let the nurse retry.
    throw new AppError(409, 'conflict');
  });
  const created = await loadProbe(db, id);
  if (!created) throw notFound();
  return created;
}

/**
 * One reachable sample in its API shape (docs/api-conventions.md; another unit's or a missing one: 404), with
 * the laboratory's refusals of its results (ADR 032).
 */
export async function getProbe(db: Database, actor: Actor, id: number): Promise<ProbeDetail> {
  const row = await findReachableProbe(db, actor, id);
  const found = await loadProbe(db, id);
  if (!found) throw notFound();
  const [lab_refusals, signatures, facts] = await Promise.all([
    labRefusalsOf(db, row),
    signaturesOf(db, 'probe', id),
    monitoringFactsOf(db, 'probe', id),
  ]);
  const lockFacts = await lockFactsOf(db, actor, 'probe', id, signatures.length > 0);
  return shownIdentity(actor, { ...found, lab_refusals, signatures, ...lockFacts, ...facts });
}

/**
 * The adverse events reported with a sample: rich text sanitised like notes, empty or blank
 * clears them. A deleted patient's sample is read-only (409 `patient_deleted`), a stale
 * `version` answers 409 `conflict`.
 */
export async function saveAdverseEvents(
  db: Database,
  actor: Actor,
  id: number,
  body: { adverse_events: string | null; version?: number | undefined },
): Promise<Probe> {
  const probe = await findReachableProbe(db, actor, id);
  await findChangeablePatient(db, actor, probe.patient_id);
  const clean = body.adverse_events === null ? '' : sanitizeRichText(body.adverse_events);
  await inTransaction(db, actor.userId, (tx) =>
    claimVersion(tx, probes, id, body.version, {
      set: {
        adverse_events: clean && !isBlankRichText(clean) ? clean : null,
        updated_at: new Date(),
      },
    }),
  );
  return getProbe(db, actor, id);
}

/** A reachable patient's samples, newest first (404 for another unit's or a missing patient). */
export async function patientProbes(
  db: Database,
  actor: Actor,
  patientId: number,
): Promise<{ data: Probe[] }> {
  await findReachablePatient(db, actor, patientId);
  return { data: await loadProbes(db, eq(probes.patient_id, patientId)) };
}
