import { PROBE_CODE_PATTERN, warsawToday } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { inTransaction } from '../db/client.js';
import { carriers, probeMedicines, probes } from '../db/schema.js';

let serial = 0;

/**
 * A sample written straight into the tables, for tests of what follows its creation (results,
 * alerts, labels, reception) without depending on the creation API: the patient's next number,
 * the first carrier, today's date, a unique code unless given, and the medicines it is tested
 * for (7 = amlodipine, which has a reference range). A code that breaks the barcode-safe rule (a
 * hostile one, for tests of what is written out) is stored as a code made before that rule, as
 * migration 0021 marks them (`legacy_code`, ADR 035).
 */
export async function insertProbe(
  db: Database,
  actorUserId: number,
  patientId: number,
  {
    medicineIds = [],
    ...overrides
  }: Partial<typeof probes.$inferInsert> & { medicineIds?: readonly number[] } = {},
): Promise<{ id: number; code: string }> {
  serial += 1;
  const code = overrides.code ?? `T${Date.now().toString(36).toUpperCase()}${process.pid}${serial}`;
  return inTransaction(db, actorUserId, async (tx) => {
    const [row] = await tx
      .insert(probes)
      .values({
        code,
        patient_id: patientId,
        probe_number: sql`(select coalesce(max(${probes.probe_number}), 0) + 1 from ${probes} where ${probes.patient_id} = ${patientId})`,
        date_of_sample: warsawToday(),
        carrier_id: sql`(select min(${carriers.id}) from ${carriers})`,
        ordered_by_firstname: 'Anna',
        ordered_by_surname: 'Lekarska',
        ordered_at: warsawToday(),
        patient_firstname: 'Tadeusz',
        patient_surname: 'Mazur',
        patient_address_street: 'Długa',
        patient_address_building: '5',
        patient_address_postcode: '00-001',
        patient_address_city: 'Warszawa',
        ...(PROBE_CODE_PATTERN.test(code) ? {} : { legacy_code: true }),
        ...overrides,
      })
      .returning({ id: probes.id, code: probes.code });
    const probe = row!;
    if (medicineIds.length > 0) {
      await tx.insert(probeMedicines).values(
        medicineIds.map((medicineId) => ({
          probe_id: probe.id,
          patient_id: patientId,
          medicine_id: medicineId,
        })),
      );
    }
    return probe;
  });
}
