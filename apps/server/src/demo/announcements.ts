import { asc, eq } from 'drizzle-orm';
import { demoActor } from './actor.js';
import { inTransaction } from '../db/client.js';
import type { Database } from '../db/client.js';
import { doctors, globalMessageReads, globalMessages, patients, users } from '../db/schema.js';
import { sendAnnouncement } from '../modules/announcements/index.js';
import { saveSetting } from '../modules/settings/index.js';

/**
 * The demo's announcements and phone numbers (issue 11): the courier's and the support line's
 * numbers set (the login page and the credential sheets show the support line), and
 * announcements from an administrator and from a doctor, sent days apart and read by some of the
 * demo patients. Called by `npm run demo` on an empty database only.
 */

export const DEMO_PHONES = { courier: '426301500', support: '426301234' };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Plan {
  from: 'admin' | 'doctor';
  /** How long before now it was sent. */
  ago: number;
  /** How many of the demo patients have read it. */
  reads: number;
  content: string;
}

const PLANS: Plan[] = [
  {
    from: 'admin',
    ago: 21 * DAY + 3 * HOUR,
    reads: 9,
    content:
      '<p>Witamy w badaniu! Terminy wizyt i wyniki badań znajdą Państwo w aplikacji ' +
      'pacjenta. W razie pytań prosimy dzwonić pod numer pomocy podany na wydruku.</p>',
  },
  {
    from: 'doctor',
    ago: 6 * DAY + 5 * HOUR,
    reads: 4,
    content:
      '<p>Przypominamy: w dniu pobrania krwi <strong>leki proszę przyjąć dopiero po ' +
      'pobraniu</strong>, a przed wizytą nie pić kawy.</p>',
  },
  {
    from: 'admin',
    ago: 2 * HOUR,
    reads: 0,
    content:
      '<p>W piątek 27 listopada punkt pobrań będzie czynny do 13:00.</p>' +
      '<ul><li>zestawy do domu wysyłamy bez zmian,</li><li>wyniki pojawią się w poniedziałek.</li></ul>',
  },
];

/** Sets the phone numbers and sends the announcements as `adminUserId` and the first doctor. */
export async function addDemoAnnouncements(
  db: Database,
  adminUserId: number,
  now = new Date(),
): Promise<number> {
  const [admin] = await db.select().from(users).where(eq(users.id, adminUserId));
  if (!admin) return 0;
  const adminActor = demoActor({ id: admin.id, login: admin.login, role: 'admin' }, now);
  await saveSetting(db, null, adminActor, 'phone', { value: DEMO_PHONES });

  const [doctor] = await db
    .select({ id: users.id, login: users.login })
    .from(doctors)
    .innerJoin(users, eq(users.id, doctors.user_id))
    .orderBy(asc(doctors.id))
    .limit(1);
  const readers = await db
    .select({ userId: patients.user_id })
    .from(patients)
    .orderBy(asc(patients.id));

  for (const plan of PLANS) {
    const sender =
      plan.from === 'doctor' && doctor ? demoActor({ ...doctor, role: 'doctor' }, now) : adminActor;
    const { id } = await sendAnnouncement(db, sender, { content: plan.content });
    const sentAt = new Date(now.getTime() - plan.ago);
    await inTransaction(db, sender.userId, async (tx) => {
      await tx
        .update(globalMessages)
        .set({ created_at: sentAt, updated_at: sentAt })
        .where(eq(globalMessages.id, id));
      const read = readers.slice(0, plan.reads);
      if (read.length > 0) {
        await tx.insert(globalMessageReads).values(
          read.map(({ userId }, index) => ({
            message_id: id,
            user_id: userId,
            read_at: new Date(sentAt.getTime() + (index + 1) * HOUR),
          })),
        );
      }
    });
  }
  return PLANS.length;
}
