import { buildPesel } from '@portal/shared';
import { asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { doctors, users } from '../db/schema.js';
import type { Actor } from '../plugins/policy.js';
import { runImport, buildTemplate, examplePatients } from '../modules/imports/index.js';

/** 50 example patients of a unit and its doctor, PESELs apart from the other demo patients. */
export function demoImportRows(
  refs: { unit_id: number; doctor_id: number },
  serial: number,
): Record<string, string | number>[] {
  return examplePatients(50, { ...refs, group_id: 1, subgroup_id: 1, dose: 5 }).map((row, i) => ({
    ...row,
    pesel: buildPesel(
      { year: 1950 + i, month: 1 + (i % 12), day: 1 + (i % 28) },
      serial,
      i % 2 ? 'M' : 'K',
    ),
  }));
}

/**
 * Issue 12's demo import: the template filled with 50 example patients, imported as one batch
 * by the coordinator (so the batch list, flush and restore have something to show). Answers how
 * many patients were imported.
 */
export async function addDemoImports(db: Database, coordinatorUserId: number): Promise<number> {
  const [doctor] = await db
    .select({ id: doctors.id, unit_id: doctors.unit_id })
    .from(doctors)
    .where(isNull(doctors.deleted_at))
    .orderBy(asc(doctors.id))
    .limit(1);
  const [account] = await db.select().from(users).where(eq(users.id, coordinatorUserId));
  if (!doctor || !account) return 0;
  const actor: Actor = {
    userId: account.id,
    sessionId: 0,
    login: account.login,
    role: 'admin',
    doctorId: null,
    unitId: null,
    changedPasswordAt: account.changed_password_at,
  };
  const rows = demoImportRows({ unit_id: doctor.unit_id, doctor_id: doctor.id }, 9_870);
  const xlsx = await buildTemplate('patient_data', rows);
  const result = await runImport(db, actor, 'patient_data', [
    { name: 'pacjenci-demo.xlsx', data: xlsx },
  ]);
  return result.imported.patients ?? 0;
}
