import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import { FakeTrackingProvider } from './fake-provider.js';
import { PocztaPolskaProvider } from './poczta-polska.js';
import type { TrackingProvider } from '../../lib/tracking-provider.js';
import { refreshShipments } from './refresh.js';

/** The job's name; `{kit_id}` refreshes one kit (a new waybill), `{}` every kit that is due. */
export const REFRESH_JOB = 'shipments.refresh';

/** The provider `TRACKING_PROVIDER` names (the fake for tests and the demo). */
export function trackingProviderFor(config: AppConfig['tracking']): TrackingProvider {
  return config.provider === 'fake'
    ? new FakeTrackingProvider()
    : new PocztaPolskaProvider({ url: config.url });
}

interface JobLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * Registers the refresh job and its schedule (pg-boss runs a cron once across servers and keeps
 * it in the database, so it survives restarts). Provider failures are recorded on the kits, so
 * the job fails (and is retried) only when the database does.
 */
export function registerTrackingJob(
  jobs: JobQueue,
  db: Database,
  provider: TrackingProvider,
  config: AppConfig['tracking'],
  log: JobLog,
): void {
  jobs.handle<{ kit_id?: unknown }>(REFRESH_JOB, async (data) => {
    const kitId = Number.isSafeInteger(data.kit_id) ? Number(data.kit_id) : undefined;
    const result = await refreshShipments(db, provider, {
      ...(kitId === undefined ? {} : { kitId }),
      log,
    });
    if (result.checked > 0) log.info({ ...result, kit_id: kitId }, 'shipments refreshed');
  });
  jobs.schedule(REFRESH_JOB, config.refreshCron);
}
