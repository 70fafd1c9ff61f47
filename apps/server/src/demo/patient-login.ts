import { asc, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { patients } from '../db/schema.js';
import { loadDemoAdmin } from './actor.js';
import { printPatientPassword } from '../modules/patients/index.js';

/**
 * The first demo patient's login with a new generated password, as an administrator prints it
 * from the card ("Drukuj dane logowania"): the patient must replace it at the first sign-in. The
 * demo prints it at its end because the patient API has no screen in the portal (ADR 040).
 */
export async function demoPatientLogin(
  db: Database,
  adminUserId: number,
): Promise<{ login: string; password: string; name: string } | null> {
  const actor = await loadDemoAdmin(db, adminUserId);
  const [patient] = await db
    .select({ id: patients.id, firstname: patients.firstname, surname: patients.surname })
    .from(patients)
    .where(isNull(patients.deleted_at))
    .orderBy(asc(patients.id))
    .limit(1);
  if (!actor || !patient) return null;
  const pair = await printPatientPassword(db, actor, patient.id);
  return { ...pair, name: `${patient.firstname} ${patient.surname}` };
}
