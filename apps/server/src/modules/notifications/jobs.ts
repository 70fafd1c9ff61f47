import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { SecretBox } from '../../lib/secrets.js';
import { deliverDue, hasDue } from './outbox.js';
import { sendVisitReminders } from './reminders.js';

export const DELIVER_JOB = 'notifications.deliver';
export const REMINDER_JOB = 'notifications.visit_reminders';
/** The reminders of tomorrow's visits go out at 07:00 Warsaw time. */
const REMINDER_CRON = '0 7 * * *';
/** How often each node looks whether an e-mail is due (one indexed EXISTS). */
const LOOK_EVERY_MS = 5_000;

/**
 * The delivery job, its watchdog schedule and the daily reminders (ADR 061). Each node looks
 * every few seconds whether anything is due and, if so, sends one delivery job; pg-boss hands
 * the job to one worker and retries it if the worker fails, and the claim in deliverDue keeps
 * two deliveries from ever taking the same e-mail. The minute cron is the watchdog: an e-mail
 * is delivered even if every node's look failed.
 */
export function registerNotificationJobs(
  app: { addHook(name: 'onReady' | 'onClose', hook: () => Promise<void>): unknown },
  deps: {
    jobs: JobQueue;
    db: Database;
    secrets: SecretBox | null;
    publicUrl: string;
    smtpCaFile: string | null;
    log: FastifyBaseLogger;
  },
): void {
  const { jobs, db, log } = deps;
  jobs.handle(DELIVER_JOB, async () => {
    const report = await deliverDue(deps);
    if (report.sent + report.retried + report.failed > 0) log.info(report, 'e-mails delivered');
  });
  jobs.schedule(DELIVER_JOB, '* * * * *');
  jobs.handle(REMINDER_JOB, async () => {
    const visits = await sendVisitReminders(db);
    log.info({ visits }, 'visit reminders queued');
  });
  jobs.schedule(REMINDER_JOB, REMINDER_CRON);

  let timer: NodeJS.Timeout | null = null;
  let looking = false;
  app.addHook('onReady', () => {
    if (!jobs.running) return Promise.resolve();
    timer = setInterval(() => {
      if (looking) return;
      looking = true;
      hasDue(db)
        .then((due) => (due && jobs.running ? jobs.send(DELIVER_JOB, {}) : null))
        .catch((error: unknown) => log.error({ err: error }, 'outbox look failed'))
        .finally(() => {
          looking = false;
        });
    }, LOOK_EVERY_MS);
    timer.unref();
    return Promise.resolve();
  });
  app.addHook('onClose', () => {
    if (timer) clearInterval(timer);
    return Promise.resolve();
  });
}
