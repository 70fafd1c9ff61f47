import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { users } from '../db/schema.js';
import type { Actor } from '../plugins/policy.js';

/**
 * The demo writes through the real services, as a signed-in user would: this is that user (no
 * session, a password already chosen). A doctor's unit is not needed by what the demo does.
 */
export function demoActor(
  user: { id: number; login: string; role: 'admin' | 'doctor' },
  now = new Date(),
): Actor {
  return {
    userId: user.id,
    sessionId: 0,
    login: user.login,
    role: user.role,
    doctorId: null,
    unitId: null,
    changedPasswordAt: now,
  };
}

/** The administrator with this user id as the demo's actor; null when there is none. */
export async function loadDemoAdmin(
  db: Database,
  userId: number,
  now = new Date(),
): Promise<Actor | null> {
  const [user] = await db
    .select({ id: users.id, login: users.login })
    .from(users)
    .where(eq(users.id, userId));
  return user ? demoActor({ ...user, role: 'admin' }, now) : null;
}
