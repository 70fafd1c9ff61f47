import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /** The owner role that runs the migrations; the app's role of DATABASE_URL then only uses data. */
  DATABASE_MIGRATION_URL: z.string().url().optional(),
  PORTAL_ADMIN_LOGIN: z.string().min(1).optional(),
  PORTAL_ADMIN_PASSWORD: z.string().min(8).optional(),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Set behind a reverse proxy so that login throttling sees the client's address. */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** AES-256 key for stored secrets (the laboratory password): 64 hexadecimal digits. */
  PORTAL_SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/)
    .optional(),
  /** Where kit shipment statuses come from: the Polish post, or the fake (tests, the demo). */
  TRACKING_PROVIDER: z.enum(['poczta-polska', 'fake']).default('poczta-polska'),
  /** When the background refresh of undelivered shipments runs (cron, Warsaw time): 2-hourly. */
  TRACKING_REFRESH_CRON: z
    .string()
    .regex(/^\S+( \S+){4,5}$/)
    .default('0 */2 * * *'),
  /** The Polish post's tracking service (SOAP); another address only for a test double. */
  TRACKING_URL: z.string().url().optional(),
  /** The demo's fake laboratory (modules/lab/simulator.ts): it invents results, so off by default. */
  LAB_SIMULATOR: z.enum(['on', 'off']).default('off'),
  /** With NODE_ENV=production the simulator starts only when this says yes. */
  LAB_SIMULATOR_FORCE: z.enum(['yes', 'no']).default('no'),
  /** When the simulator sends (cron, Warsaw time): every minute. */
  LAB_SIMULATOR_CRON: z
    .string()
    .regex(/^\S+( \S+){4,5}$/)
    .default('* * * * *'),
  /** At most this many samples (one message each) per run. */
  LAB_SIMULATOR_BATCH: z.coerce.number().int().min(1).max(500).default(20),
  /** Where it sends to; unset: the address this process listens on. */
  LAB_SIMULATOR_URL: z.string().url().optional(),
  /** The laboratory's MLLP listener (modules/lab/mllp.ts, ADR 034): off unless a port is set. */
  LAB_MLLP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Where it listens: the loopback by default (a TLS tunnel or the VPN's address otherwise). */
  LAB_MLLP_HOST: z.string().min(1).default('127.0.0.1'),
  /** The only client addresses it talks to, comma-separated; any other is closed at once. */
  LAB_MLLP_ALLOW: z
    .string()
    .default('127.0.0.1')
    .transform((list) =>
      list
        .split(',')
        .map((address) => address.trim())
        .filter(Boolean),
    )
    .refine((list) => list.length > 0 && list.every((address) => isIP(address) !== 0)),
  /** Serves /metrics to `Authorization: Bearer <this>`; unset, /metrics is not served (404). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * After SIGTERM, how long the node keeps answering (not ready, closing every connection) before
   * it stops listening, so that the proxy moves its traffic first (ADR 056).
   */
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  NODE_ENV: z.string().optional(),
  /** A PEM file of a certificate authority to trust for the SMTP server besides the system's. */
  SMTP_CA_FILE: z.string().min(1).optional(),
});

export interface AppConfig {
  port: number;
  host: string;
  database:
    | { kind: 'pglite'; dataDir: string | null }
    | { kind: 'postgres'; url: string; migrationUrl: string | null };
  initialAdmin: { login: string; password: string | null };
  publicUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  /** Directory of the built web app; null serves the API only (tests). */
  webRoot: string | null;
  /** Whether refresh cookies carry the Secure flag (https PUBLIC_URL). */
  secureCookies: boolean;
  /** PORTAL_SECRET_KEY as 32 bytes; null when not set (see lib/secrets.ts). */
  secretKey: Buffer | null;
  /** Shipment tracking (modules/shipments): the provider, its address and the refresh schedule. */
  tracking: {
    provider: 'poczta-polska' | 'fake';
    refreshCron: string;
    url: string | null;
  };
  /** The demo's fake laboratory: whether its job runs, when, how many samples, where it sends. */
  labSimulator: {
    enabled: boolean;
    cron: string;
    batch: number;
    /** null: the address the server listens on (known after listen). */
    url: string | null;
  };
  /** The MLLP listener: null port is off; only `allow` (IP addresses) may connect. */
  labMllp: {
    port: number | null;
    host: string;
    allow: string[];
  };
  /** The operator's token for /metrics; null: not served. */
  metricsToken: string | null;
  /** Draining time after SIGTERM (ms): 3 s on PostgreSQL (nodes behind a proxy), 0 embedded. */
  drainDelayMs: number;
  /** SMTP_CA_FILE (modules/notifications, ADR 061); absent: the system's authorities only. */
  smtpCaFile?: string | null;
}

/** Reads and validates the environment once at start; a bad value stops the start with a message. */
export function loadConfig(env: NodeJS.ProcessEnv, webRoot: string | null): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`Invalid configuration in environment variables: ${fields}`);
  }
  const e = parsed.data;
  if (e.DATABASE_MIGRATION_URL && !e.DATABASE_URL) {
    throw new Error(
      'DATABASE_MIGRATION_URL needs DATABASE_URL (the embedded database has one user)',
    );
  }
  // Invented results on real samples would be a data-integrity incident: a production process
  // (NODE_ENV=production, as process managers and images set it) must say so twice.
  if (e.LAB_SIMULATOR === 'on' && e.NODE_ENV === 'production' && e.LAB_SIMULATOR_FORCE !== 'yes') {
    throw new Error(
      'LAB_SIMULATOR=on sends invented laboratory results; with NODE_ENV=production it also needs LAB_SIMULATOR_FORCE=yes',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, migrationUrl: e.DATABASE_MIGRATION_URL ?? null }
      : { kind: 'pglite', dataDir: path.resolve(e.DATA_DIR) },
    initialAdmin: {
      login: e.PORTAL_ADMIN_LOGIN ?? 'admin',
      password: e.PORTAL_ADMIN_PASSWORD ?? null,
    },
    publicUrl,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    webRoot,
    secureCookies: publicUrl.startsWith('https://'),
    secretKey: e.PORTAL_SECRET_KEY ? Buffer.from(e.PORTAL_SECRET_KEY, 'hex') : null,
    tracking: {
      provider: e.TRACKING_PROVIDER,
      refreshCron: e.TRACKING_REFRESH_CRON,
      url: e.TRACKING_URL ?? null,
    },
    labSimulator: {
      enabled: e.LAB_SIMULATOR === 'on',
      cron: e.LAB_SIMULATOR_CRON,
      batch: e.LAB_SIMULATOR_BATCH,
      url: e.LAB_SIMULATOR_URL?.replace(/\/+$/, '') ?? null,
    },
    labMllp: {
      port: e.LAB_MLLP_PORT ?? null,
      host: e.LAB_MLLP_HOST,
      allow: e.LAB_MLLP_ALLOW,
    },
    metricsToken: e.METRICS_TOKEN ?? null,
    drainDelayMs: e.DRAIN_DELAY_MS ?? (e.DATABASE_URL ? 3_000 : 0),
    smtpCaFile: e.SMTP_CA_FILE ?? null,
  };
}
