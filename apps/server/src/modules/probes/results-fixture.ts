import { warsawToday } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { probeMedicines, probes } from '../../db/schema.js';
import type { TestApp } from '../../test/harness.js';

let serial = 0;

/**
 * A sample written straight into the tables (tests of results and alerts do not depend on the
 * creation API), tested for the given medicines (7 = amlodipine, which has a range).
 */
export async function insertProbe(
  t: TestApp,
  actorUserId: number,
  patientId: number,
  medicineIds: readonly number[] = [7],
): Promise<number> {
  serial += 1;
  return inTransaction(t.db, actorUserId, async (tx) => {
    const [row] = await tx
      .insert(probes)
      .values({
        code: `TEST-${process.pid}-${Date.now()}-${serial}`,
        patient_id: patientId,
        probe_number: sql`(select coalesce(max(probe_number), 0) + 1 from probes where patient_id = ${patientId})`,
        date_of_sample: warsawToday(),
        carrier_id: 1,
        ordered_by_firstname: 'Anna',
        ordered_by_surname: 'Nowak',
        ordered_at: warsawToday(),
        patient_firstname: 'Tadeusz',
        patient_surname: 'Mazur',
        patient_address_street: 'Polna',
        patient_address_building: '1',
        patient_address_postcode: '00-001',
        patient_address_city: 'Warszawa',
      })
      .returning({ id: probes.id });
    const id = row!.id;
    if (medicineIds.length > 0) {
      await tx.insert(probeMedicines).values(
        medicineIds.map((medicineId) => ({
          probe_id: id,
          patient_id: patientId,
          medicine_id: medicineId,
        })),
      );
    }
    return id;
  });
}
