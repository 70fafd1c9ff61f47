import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { inTransaction } from '../db/client.js';
import { carriers, probes } from '../db/schema.js';

let serial = 0;

/**
 * A sample written straight into the table for tests of what follows its creation (labels,
 * reception): the patient's next number, the first carrier, a unique code unless given.
 */
export async function insertProbe(
  db: Database,
  actorUserId: number,
  patientId: number,
  overrides: Partial<typeof probes.$inferInsert> = {},
) {
  serial += 1;
  const code = overrides.code ?? `T${Date.now().toString(36).toUpperCase()}${serial}`;
  const [row] = await inTransaction(db, actorUserId, (tx) =>
    tx
      .insert(probes)
      .values({
        code,
        patient_id: patientId,
        probe_number: sql`(select coalesce(max(${probes.probe_number}), 0) + 1 from ${probes} where ${probes.patient_id} = ${patientId})`,
        date_of_sample: '2026-11-02',
        carrier_id: sql`(select min(${carriers.id}) from ${carriers})`,
        ordered_by_firstname: 'Anna',
        ordered_by_surname: 'Lekarska',
        ordered_at: '2026-11-02',
        patient_firstname: 'Tadeusz',
        patient_surname: 'Mazur',
        patient_address_street: 'Długa',
        patient_address_building: '5',
        patient_address_postcode: '00-001',
        patient_address_city: 'Warszawa',
        ...overrides,
      })
      .returning({ id: probes.id, code: probes.code }),
  );
  return row!;
}
