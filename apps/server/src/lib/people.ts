import { eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { doctors, monitors, users } from '../db/schema.js';

/** A user as records name them: a doctor's or monitor's name; an administrator's login. */
export interface Person {
  id: number;
  firstname: string | null;
  surname: string | null;
  role: string;
}

/** The people behind these user ids, by id. */
export async function peopleOf(
  db: Queryable,
  ids: readonly number[],
): Promise<Map<number, Person>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      role: users.role,
      login: users.login,
      doctorFirst: doctors.firstname,
      doctorLast: doctors.surname,
      monitorFirst: monitors.firstname,
      monitorLast: monitors.surname,
    })
    .from(users)
    .leftJoin(doctors, eq(doctors.user_id, users.id))
    .leftJoin(monitors, eq(monitors.user_id, users.id))
    .where(inArray(users.id, unique));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        role: row.role,
        firstname: row.doctorFirst ?? row.monitorFirst,
        // An administrator has no name of record: the login stands for it, as in the audit trail.
        surname: row.doctorLast ?? row.monitorLast ?? row.login,
      },
    ]),
  );
}

/** One person (a user gone from the table still answers with its id). */
export function personFrom(people: Map<number, Person>, id: number): Person {
  return people.get(id) ?? { id, firstname: null, surname: null, role: 'unknown' };
}
