import { inArray } from 'drizzle-orm';
import type { ReadKind } from '@portal/shared';
import type { Database } from '../db/client.js';
import { accessLog, patients, users } from '../db/schema.js';

/** The demo's data protection officer (ADR 053); signs in with the demo password. */
export const DEMO_IOD_LOGIN = 'iod.demo';

/**
 * A read-access log with entries of several users (ADR 052): each doctor and administrator
 * opened some patients' cards and tabs and the patients list over the last days.
 */
export async function addDemoAccessLog(db: Database, logins: string[]): Promise<number> {
  const readers = await db.select({ id: users.id }).from(users).where(inArray(users.login, logins));
  const shown = await db.select({ id: patients.id }).from(patients).orderBy(patients.id).limit(30);
  if (shown.length === 0) return 0;
  const kinds: ReadKind[] = ['patient_card', 'patient_tab', 'search', 'visit', 'identity'];
  const rows: (typeof accessLog.$inferInsert)[] = [];
  readers.forEach((reader, r) => {
    for (let n = 0; n < 6; n += 1) {
      const kind = kinds[(r + n) % kinds.length]!;
      const first = shown[(r * 7 + n * 3) % shown.length]!.id;
      const ids = kind === 'search' ? shown.slice(0, 10).map((p) => p.id) : [first];
      rows.push({
        user_id: reader.id,
        // Spread over the last days, oldest first, so ids follow time as they do live.
        at: new Date(Date.now() - ((readers.length - r) * 6 + (6 - n)) * 3_600_000),
        address: `10.0.${r + 1}.${n + 10}`,
        kind,
        patient_ids: ids,
      });
    }
  });
  await db.insert(accessLog).values(rows);
  return rows.length;
}
