import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { patients, users } from '../../db/schema.js';

/**
 * The patient whose sheet is printed, by the login on it (the body names no patient id), so that
 * the printed sheet is read-logged (ADR 052); null when the login is nobody's patient account.
 */
export async function patientOfLogin(db: Database, login: string): Promise<number | null> {
  const [row] = await db
    .select({ id: patients.id })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.user_id))
    .where(sql`lower(${users.login}) = lower(${login})`)
    .limit(1);
  return row?.id ?? null;
}
