import type { AppConfig } from './config.js';
import type { Database } from './db/client.js';
import type { JobQueue } from './jobs/queue.js';
import type { NodeLifecycle } from './lib/lifecycle.js';
import type { LoginThrottle } from './lib/login-throttle.js';
import type { SecretBox } from './lib/secrets.js';
import type { TrackingProvider } from './lib/tracking-provider.js';

/**
 * What every feature module receives. Its own file below the modules, so that a module's routes
 * need not import app.ts, which imports every module (ADR 047).
 */
export interface AppDeps {
  db: Database;
  config: AppConfig;
  throttle: LoginThrottle;
  /** Background jobs: modules register handlers by name and send jobs (ADR 009). */
  jobs: JobQueue;
  /** Seals stored secrets (ADR 010); null when there is no key, and saving a secret is refused. */
  secrets: SecretBox | null;
  /** Where kit shipment statuses come from (config TRACKING_PROVIDER; tests pass their own). */
  tracking: TrackingProvider;
  /** Whether this node is draining after SIGTERM (health/ready answers 503; ADR 056). */
  lifecycle: NodeLifecycle;
}
