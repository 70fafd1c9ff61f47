import { warsawToday } from '@portal/shared';
import { asc, eq, inArray } from 'drizzle-orm';
import { loadDemoAdmin } from './actor.js';
import { inTransaction } from '../db/client.js';
import type { Database } from '../db/client.js';
import {
  carriers,
  patientMedicines,
  patients,
  probeSetKits,
  probeSets,
  shipmentEvents,
} from '../db/schema.js';
import { createProbeSet, decideProbeSet, saveTracking } from '../modules/probe-sets/index.js';
import { createProbe } from '../modules/probes/index.js';
import type { Actor } from '../plugins/policy.js';

/**
 * The demo's kit orders (issue 11 item 8): orders in every status made through the services the
 * API uses, so the audit trail is real: registered ones waiting for a decision, accepted ones
 * with waybills and FAKE tracking histories written as shipment_events (one kit in transit, one
 * delivered), a rejected one with its reason, and a home sample drawn with a delivered kit.
 * Called by `npm run demo` on an empty database only.
 */

/** A fake tracking history: [status, hours after the waybill, place]. */
type History = readonly (readonly [string, number, string | null])[];

const IN_TRANSIT: History = [
  ['Przyjęcie przesyłki w placówce', 0, 'UP Warszawa 1'],
  ['Wysłanie przesyłki z placówki', 6, 'UP Warszawa 1'],
  ['Przyjęcie przesyłki w sortowni', 14, 'WER Warszawa'],
];

const DELIVERED: History = [
  ['Przyjęcie przesyłki w placówce', 0, 'UP Warszawa 1'],
  ['Wysłanie przesyłki z placówki', 5, 'UP Warszawa 1'],
  ['Przyjęcie przesyłki w sortowni', 12, 'WER Warszawa'],
  ['Wydanie przesyłki do doręczenia', 30, 'UP Łódź 12'],
  ['Doręczenie przesyłki', 34, 'Łódź'],
];

type Plan = {
  surname: string;
  daysAgo: number;
  amount: number;
  decision?: { status: 1 } | { status: 2; reason: string };
  /** Per kit: its waybill and fake history (accepted orders only). */
  kits?: readonly { code: string; history: History }[];
  /** A home sample drawn with the first kit. */
  homeSample?: boolean;
};

/** Surnames from data.ts; a patient the demo does not hold is skipped. */
const PLANS: Plan[] = [
  { surname: 'Michalska', daysAgo: 1, amount: 2 },
  { surname: 'Zając', daysAgo: 0, amount: 1 },
  {
    surname: 'Wróblewski',
    daysAgo: 9,
    amount: 2,
    decision: { status: 1 },
    kits: [
      { code: '00659007734000123456', history: DELIVERED },
      { code: 'RR123456785PL', history: IN_TRANSIT },
    ],
    homeSample: true,
  },
  {
    surname: 'Pawłowski',
    daysAgo: 4,
    amount: 1,
    decision: { status: 1 },
    kits: [{ code: '00659007734000654321', history: IN_TRANSIT }],
  },
  { surname: 'Adamczyk', daysAgo: 3, amount: 1, decision: { status: 1 } },
  {
    surname: 'Dudek',
    daysAgo: 6,
    amount: 3,
    decision: { status: 2, reason: 'Pacjent odbierze zestawy osobiście w poradni.' },
  },
];

export interface DemoProbeSetCounts {
  registered: number;
  accepted: number;
  rejected: number;
}

const HOUR = 3_600_000;

/** Creates the demo's kit orders as `actorUserId` (an administrator); answers how many of each. */
export async function addDemoProbeSets(
  db: Database,
  actorUserId: number,
  now = new Date(),
): Promise<DemoProbeSetCounts> {
  const counts: DemoProbeSetCounts = { registered: 0, accepted: 0, rejected: 0 };
  const actor = await loadDemoAdmin(db, actorUserId, now);
  if (!actor) return counts;
  // The demo sends no jobs: its histories are written below.
  const noJobs = { running: false, send: () => Promise.resolve('') };
  const quiet = { warn: () => undefined };
  const patientRows = await db
    .select()
    .from(patients)
    .where(
      inArray(
        patients.surname,
        PLANS.map((plan) => plan.surname),
      ),
    );
  for (const plan of PLANS) {
    const patient = patientRows.find((row) => row.surname === plan.surname);
    if (!patient) continue;
    const ordered = new Date(now.getTime() - plan.daysAgo * 24 * HOUR);
    let set = await createProbeSet(db, actor, {
      patient_id: patient.id,
      amount: plan.amount,
      labels_amount: 2,
      street: patient.address_street ?? '-',
      building: patient.address_building ?? '-',
      postcode: patient.address_postcode ?? '-',
      city: patient.address_city ?? '-',
    });
    // Ordered days ago, as the list's dates should show (created_at is not audited).
    await inTransaction(db, actor.userId, (tx) =>
      tx.update(probeSets).set({ created_at: ordered }).where(eq(probeSets.id, set.id)),
    );
    if (!plan.decision) {
      counts.registered += 1;
      continue;
    }
    set = await decideProbeSet(db, actor, set.id, { ...plan.decision, version: set.version });
    if (plan.decision.status === 2) {
      counts.rejected += 1;
      continue;
    }
    counts.accepted += 1;
    for (const [index, kit] of (plan.kits ?? []).entries()) {
      const saved = set.sets[index];
      if (saved === undefined) continue;
      const kitId = saved.id;
      await saveTracking(
        db,
        actor,
        kitId,
        { tracking_code: kit.code, version: saved.version },
        noJobs,
        quiet,
      );
      await writeHistory(db, actor.userId, kitId, kit.history, ordered, now);
    }
    if (plan.homeSample && set.sets[0])
      await addHomeSample(db, actor, patient, set.sets[0].id, warsawToday(now));
  }
  return counts;
}

/** The fake provider's answers for a kit: its events and, on the kit, the newest one. */
async function writeHistory(
  db: Database,
  actorUserId: number,
  kitId: number,
  history: History,
  sentFrom: Date,
  now: Date,
): Promise<void> {
  // The waybill a day after the order; no event lies in the future.
  const start = sentFrom.getTime() + 24 * HOUR;
  const events = history
    .map(([status, hours, place]) => ({
      kit_id: kitId,
      status,
      occurred_at: new Date(Math.min(start + hours * HOUR, now.getTime())),
      place,
    }))
    .filter((event, index, all) => index === 0 || event.occurred_at > all[index - 1]!.occurred_at);
  const last = events.at(-1);
  if (!last) return;
  await inTransaction(db, actorUserId, async (tx) => {
    await tx.insert(shipmentEvents).values(events);
    await tx
      .update(probeSetKits)
      .set({
        last_status: last.status,
        last_status_date: last.occurred_at,
        delivered: history === DELIVERED && events.length === history.length,
        last_checked_at: now,
      })
      .where(eq(probeSetKits.id, kitId));
  });
}

/** A home sample drawn with the kit (the patient's medicines, the first carrier). */
async function addHomeSample(
  db: Database,
  actor: Actor,
  patient: typeof patients.$inferSelect,
  kitId: number,
  today: string,
): Promise<void> {
  const medicineIds = (
    await db
      .select({ id: patientMedicines.medicine_id })
      .from(patientMedicines)
      .where(eq(patientMedicines.patient_id, patient.id))
      .orderBy(asc(patientMedicines.medicine_id))
  ).map((row) => row.id);
  const [carrier] = await db.select({ id: carriers.id }).from(carriers).orderBy(asc(carriers.id));
  if (medicineIds.length === 0 || !carrier) return;
  await createProbe(
    db,
    actor,
    {
      patient_id: patient.id,
      visit_id: null,
      medicine_ids: medicineIds,
      date_of_sample: today,
      carrier_id: carrier.id,
      ordered_by_firstname: 'Anna',
      ordered_by_surname: 'Kowalczyk',
      ordered_at: today,
      patient_firstname: patient.firstname,
      patient_surname: patient.surname,
      patient_address_street: patient.address_street ?? '-',
      patient_address_building: patient.address_building ?? '-',
      patient_address_postcode: patient.address_postcode ?? '-',
      patient_address_city: patient.address_city ?? '-',
      is_cito: false,
      type_of_test: 'biochemistry',
      type_of_material: 'capillary',
      collect_place: 'home',
      probe_set_kit_id: kitId,
    },
    today,
  );
}
