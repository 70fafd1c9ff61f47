import { addDays, warsawToday } from '@portal/shared';
import type { ProbeBody, ProbeResultsBody } from '@portal/shared';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { loadDemoAdmin } from './actor.js';
import { inTransaction } from '../db/client.js';
import type { Database } from '../db/client.js';
import { carriers, patientMedicines, patients, probes, visits } from '../db/schema.js';
import { createProbe } from '../modules/probes/index.js';
import { saveProbeResults } from '../modules/results/index.js';
import { saveSetting } from '../modules/settings/index.js';

/**
 * The demo's samples (issue 10 item 9): the laboratory setting filled, and samples in every
 * status made through the same services the API uses, so that numbers, the audit trail and the
 * safety rules are real: collected ones, sent ones scanned in at the laboratory, and received
 * ones with results, some out of norm (a woman's ALT of 55 U/l) and one that fires Hy's law
 * (an open alert). Called by `npm run demo` on an empty database only.
 */

export const DEMO_LABORATORY = {
  address: 'ul. Stefana Banacha 1a',
  postcode: '02-097',
  city: 'Warszawa',
};

type Plan = {
  surname: string;
  daysAgo: number;
  status: 'collected' | 'sent' | 'received';
  typeOfTest?: ProbeBody['type_of_test'];
  collectPlace?: ProbeBody['collect_place'];
  /** Attach it to the patient's latest recorded visit. */
  withVisit?: boolean;
  results?: (medicineIds: number[]) => Omit<ProbeResultsBody, 'version'>;
  adverseEvents?: string;
};

/** Surnames from data.ts; a patient the demo does not hold is skipped. */
const PLANS: Plan[] = [
  // A woman: ALT 55 U/l is above her 8–41 range (a man's would be in 9–59).
  {
    surname: 'Sikorska',
    daysAgo: 12,
    status: 'received',
    withVisit: true,
    results: () => ({
      biochemistry_results: { alt: 55, ast: 30, creatine: 0.81, bilirubine: 0.9 },
    }),
  },
  // ALT above 3 × ULN with bilirubin above 2 × ULN: Hy's law, one open alert.
  {
    surname: 'Górski',
    daysAgo: 9,
    status: 'received',
    withVisit: true,
    results: () => ({
      biochemistry_results: { alt: 212, ast: 96, creatine: 1.02, bilirubine: 2.7 },
    }),
  },
  {
    surname: 'Górski',
    daysAgo: 20,
    status: 'received',
    typeOfTest: 'drug_concentration',
    results: (medicineIds) => ({
      concentrations_results: {
        hours: 12.5,
        date_of_analysis: null,
        concentrations: medicineIds.map((medicine_id, index) => ({
          medicine_id,
          value: index === 0 ? 4.8 : 11.2,
        })),
      },
    }),
  },
  { surname: 'Wróblewski', daysAgo: 3, status: 'sent', collectPlace: 'home' },
  {
    surname: 'Sikorska',
    daysAgo: 2,
    status: 'sent',
    adverseEvents: '<p>Niewielki krwiak w miejscu wkłucia, ustąpił po 2 dniach.</p>',
  },
  { surname: 'Wróblewski', daysAgo: 0, status: 'collected' },
  { surname: 'Górski', daysAgo: 0, status: 'collected', collectPlace: 'home' },
];

export interface DemoProbeCounts {
  collected: number;
  sent: number;
  received: number;
}

/** Creates the demo's samples as `actorUserId` (an administrator); answers how many of each. */
export async function addDemoProbes(
  db: Database,
  actorUserId: number,
  now = new Date(),
): Promise<DemoProbeCounts> {
  const counts: DemoProbeCounts = { collected: 0, sent: 0, received: 0 };
  const actor = await loadDemoAdmin(db, actorUserId, now);
  if (!actor) return counts;
  await saveSetting(db, null, actor, 'laboratory', { value: DEMO_LABORATORY });

  const today = warsawToday(now);
  const carrierRows = await db
    .select({ id: carriers.id, materials: carriers.materials })
    .from(carriers)
    .orderBy(asc(carriers.id));
  const patientRows = await db
    .select()
    .from(patients)
    .where(
      inArray(
        patients.surname,
        PLANS.map((plan) => plan.surname),
      ),
    );
  for (const [index, plan] of PLANS.entries()) {
    const patient = patientRows.find((row) => row.surname === plan.surname);
    const carrier = carrierRows[index % Math.max(carrierRows.length, 1)];
    if (!patient || !carrier) continue;
    const medicineIds = (
      await db
        .select({ id: patientMedicines.medicine_id })
        .from(patientMedicines)
        .where(eq(patientMedicines.patient_id, patient.id))
        .orderBy(asc(patientMedicines.medicine_id))
    ).map((row) => row.id);
    if (medicineIds.length === 0) continue;
    const [visit] = plan.withVisit
      ? await db
          .select({ id: visits.id })
          .from(visits)
          .where(and(eq(visits.patient_id, patient.id), eq(visits.is_done, true)))
          .orderBy(desc(visits.date))
          .limit(1)
      : [];
    const day = addDays(today, -plan.daysAgo);
    const probe = await createProbe(
      db,
      actor,
      {
        patient_id: patient.id,
        visit_id: visit?.id ?? null,
        medicine_ids: medicineIds,
        date_of_sample: day,
        carrier_id: carrier.id,
        ordered_by_firstname: 'Anna',
        ordered_by_surname: 'Kowalczyk',
        ordered_at: day,
        patient_firstname: patient.firstname,
        patient_surname: patient.surname,
        patient_address_street: patient.address_street ?? '-',
        patient_address_building: patient.address_building ?? '-',
        patient_address_postcode: patient.address_postcode ?? '-',
        patient_address_city: patient.address_city ?? '-',
        is_cito: index % 3 !== 0,
        type_of_test: plan.typeOfTest ?? 'biochemistry',
        // Venous blood where the carrier takes it; a DBS card or a microsampler gets a finger
        // prick's capillary blood (ADR 041).
        type_of_material: carrier.materials.includes('venous') ? 'venous' : 'capillary',
        collect_place: plan.collectPlace ?? 'clinic',
      },
      today,
    );
    if (plan.status !== 'collected') {
      // The reception scan at the laboratory, a day after the sample was drawn.
      const arrivedAt = new Date(now.getTime() - Math.max(plan.daysAgo - 1, 0) * 86_400_000);
      await inTransaction(db, actor.userId, (tx) =>
        tx
          .update(probes)
          .set({
            status: 'sent',
            arrived_at: arrivedAt,
            arrived_by: actor.userId,
            adverse_events: plan.adverseEvents ?? null,
          })
          .where(eq(probes.id, probe.id)),
      );
    }
    if (plan.results) {
      const results = plan.results(medicineIds);
      const analysed = addDays(day, 1) > today ? today : addDays(day, 1);
      const [stored] = await db
        .select({ version: probes.version })
        .from(probes)
        .where(eq(probes.id, probe.id));
      await saveProbeResults(db, actor, probe.id, {
        version: stored!.version,
        ...results,
        ...(results.concentrations_results
          ? {
              concentrations_results: {
                ...results.concentrations_results,
                date_of_analysis: analysed,
              },
            }
          : {}),
      });
    }
    counts[plan.status] += 1;
  }
  return counts;
}
