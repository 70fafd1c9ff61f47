import fastifyCookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.js';
import type { AppConfig } from './config.js';
import type { Database } from './db/client.js';
import { JobQueue } from './jobs/queue.js';
import type { JobQueueOptions } from './jobs/queue.js';
import { LoginThrottle } from './lib/login-throttle.js';
import { multipartPlugin } from './lib/multipart.js';
import { SecretBox } from './lib/secrets.js';
import { loggerOptions } from './lib/logger.js';
import type { LogDestination } from './lib/logger.js';
import { authPlugin } from './plugins/auth.js';
import { studyLockPlugin } from './plugins/study-lock.js';
import { errorsPlugin } from './plugins/errors.js';
import { mediaTypesPlugin } from './plugins/media-types.js';
import { noStorePlugin } from './plugins/no-store.js';
import { readLogPlugin } from './plugins/read-log.js';
import { webAppPlugin } from './plugins/web-app.js';
import { accessLogRoutes } from './modules/access-log/index.js';
import { adminRoutes } from './modules/admins/index.js';
import { auditRoutes } from './modules/audit/index.js';
import { recordRoutes } from './modules/records/index.js';
import { authRoutes } from './modules/auth/index.js';
import { calendarRoutes } from './modules/calendar/index.js';
import { credentialsRoutes } from './modules/credentials/index.js';
import { doctorRoutes } from './modules/doctors/index.js';
import { monitorRoutes } from './modules/monitors/index.js';
import { queryRoutes } from './modules/queries/index.js';
import { signatureRoutes } from './modules/signatures/index.js';
import { fileRoutes } from './modules/files/index.js';
import { healthRoutes, metricsRoutes } from './modules/health/index.js';
import { lookupRoutes } from './modules/lookups/index.js';
import { announceWrite, openListTotalsChannel } from './lib/list-totals-channel.js';
import { NodeLifecycle } from './lib/lifecycle.js';
import { observeRequest } from './lib/request-metrics.js';
import { addMetricsSource } from './lib/metrics.js';
import type { MetricsSource } from './lib/metrics.js';
import { messageRoutes } from './modules/messages/index.js';
import { noteRoutes } from './modules/notes/index.js';
import { patientRoutes } from './modules/patients/index.js';
import { settingRoutes } from './modules/settings/index.js';
import { unitRoutes } from './modules/units/index.js';
import {
  bookingRoutes,
  overdueRoutes,
  patientVisitRoutes,
  visitRecordRoutes,
} from './modules/visits/index.js';
import {
  probeRoutes,
  labelRoutes,
  probeListRoutes,
  receiveRoutes,
} from './modules/probes/index.js';
import { alertRoutes } from './modules/safety-alerts/index.js';
import { probeResultsRoutes } from './modules/results/index.js';
import { announcementRoutes } from './modules/announcements/index.js';
import { documentRoutes } from './modules/documents/index.js';
import { meRoutes, patientApiTag } from './modules/me/index.js';
import { probeSetLabelRoutes, probeSetRoutes } from './modules/probe-sets/index.js';
import { trackingProviderFor, shipmentRoutes } from './modules/shipments/index.js';
import type { TrackingProvider } from './lib/tracking-provider.js';
import { exportRoutes } from './modules/exports/index.js';
import { importRoutes } from './modules/imports/index.js';
import { hl7Routes, unmatchedRoutes } from './modules/lab/index.js';
import { reportRoutes } from './modules/reports/index.js';
import { retentionRoutes } from './modules/retention/index.js';
import { dashboardRoutes } from './modules/dashboard/index.js';
import { notificationRoutes } from './modules/notifications/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

export interface BuildOptions {
  db: Database;
  config: AppConfig;
  throttle?: LoginThrottle;
  /** Tests pass false to keep their output clean. */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read what was logged). */
  logStream?: LogDestination;
  /**
   * Runs the job queue on this database (main.ts passes the open database). Left out, as most
   * tests do, no queue starts: handlers are recorded and sending a job is refused.
   */
  jobs?: JobQueueOptions;
  /** The 32-byte key for stored secrets (main.ts: lib/secrets.ts resolveSecretKey); none refuses. */
  secretKey?: Buffer | null;
  /** Replaces the provider that config.tracking names (tests: a fake or a counting double). */
  trackingProvider?: TrackingProvider;
  /** Whether the node is draining (main.ts sets it on SIGTERM); a fresh one when left out. */
  lifecycle?: NodeLifecycle;
  /**
   * false leaves the read-access log unwritten: only the bench passes it, to time the card and
   * the list with and without the log side by side (ADR 052); no setting or variable reaches it.
   */
  readLogWrites?: boolean;
}

/** JSON bodies stay small; file uploads have their own limits in their routes. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the whole application without listening; importing this file starts nothing. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { db, config } = options;

  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel, options.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // Zod does the coercion; Ajv is not used for request validation.
    ajv: { customOptions: { removeAdditional: false } },
  });
  const jobs = new JobQueue(options.jobs ?? null, app.log);
  const lifecycle = options.lifecycle ?? new NodeLifecycle();
  const deps: AppDeps = {
    lifecycle,
    db,
    config,
    throttle: options.throttle ?? new LoginThrottle(db),
    jobs,
    secrets: options.secretKey ? new SecretBox(options.secretKey) : null,
    tracking: options.trackingProvider ?? trackingProviderFor(config.tracking),
  };
  app.decorate('jobs', jobs);
  // Started once every module has registered its handlers; stopped on close, which main.ts
  // awaits before it closes the database, so no worker ever queries a closed connection.
  app.addHook('onReady', () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
  // The scrape reads this app's pool and job queue while it runs (lib/metrics.ts).
  // drizzle keeps the driver's client on $client (tests of the queue alone build without a db).
  const client = (db as unknown as { $client?: unknown } | null)?.$client;
  const source: MetricsSource = {
    pool: client instanceof pg.Pool ? client : null,
    jobs: options.jobs?.db ?? null,
  };
  const removeSource = addMetricsSource(source);
  app.addHook('onClose', (_instance, done) => {
    removeSource();
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    observeRequest(request, reply);
    done();
  });
  // Several nodes on one PostgreSQL: a write makes every node forget its remembered totals
  // (ADR 056); the embedded database has one process, which forgets its own.
  const totalsChannel =
    config.database.kind === 'postgres'
      ? await openListTotalsChannel(db, config.database.url, app.log)
      : null;
  app.addHook('onClose', async () => totalsChannel?.close());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Mantine writes style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // PDFs are shown from blob: URLs in an iframe.
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'self'", 'blob:'],
        // Zebra Browser Print, the label printer's local service (issue 10, labels).
        connectSrc: ["'self'", 'http://127.0.0.1:9100', 'https://127.0.0.1:9101'],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The login address may be plain http inside a hospital network.
    hsts: config.secureCookies,
  });
  await app.register(fastifyCookie);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Study portal API',
        description:
          "Administrator and staff API of the cardiology study portal, and the patient app's API (tag patient-api).",
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      tags: [patientApiTag],
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The viewer sets inline styles; allowed on its own pages only.
    transformStaticCSP: (header) =>
      header.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
  });

  await app.register(errorsPlugin);
  await app.register(multipartPlugin);
  await app.register(mediaTypesPlugin);
  await app.register(noStorePlugin);
  await app.register(authPlugin, { db });
  await app.register(readLogPlugin, { db, write: options.readLogWrites !== false });
  await app.register(studyLockPlugin, { db });
  // A write may change any list's total: remembered totals are forgotten before its answer
  // leaves, so the next page the writer asks for counts again (ADR 021), on every node (ADR 056).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
      // Remembered session checks too (ADR 057): a write may end a session or change an account.
      await announceWrite(db);
    }
    // Draining (ADR 056): each answer ends its connection, so that the proxy opens its next one
    // to a node that stays, and no kept-alive connection is cut while a request is on its way.
    if (lifecycle.draining) void reply.header('Connection', 'close');
    return payload;
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, deps);
      await api.register(authRoutes, deps);
      await api.register(unitRoutes, deps);
      await api.register(calendarRoutes, deps);
      await api.register(doctorRoutes, deps);
      await api.register(monitorRoutes, deps);
      await api.register(signatureRoutes, deps);
      await api.register(queryRoutes, deps);
      await api.register(adminRoutes, deps);
      await api.register(credentialsRoutes, deps);
      await api.register(lookupRoutes, deps);
      await api.register(patientRoutes, deps);
      await api.register(noteRoutes, deps);
      await api.register(fileRoutes, deps);
      await api.register(messageRoutes, deps);
      await api.register(auditRoutes, deps);
      await api.register(accessLogRoutes, deps);
      await api.register(recordRoutes, deps);
      await api.register(settingRoutes, deps);
      await api.register(bookingRoutes, deps);
      await api.register(patientVisitRoutes, deps);
      await api.register(visitRecordRoutes, deps);
      await api.register(overdueRoutes, deps);
      await api.register(probeRoutes, deps);
      await api.register(probeListRoutes, deps);
      await api.register(probeResultsRoutes, deps);
      await api.register(labelRoutes, deps);
      await api.register(receiveRoutes, deps);
      await api.register(alertRoutes, deps);
      await api.register(probeSetRoutes, deps);
      await api.register(probeSetLabelRoutes, deps);
      await api.register(shipmentRoutes, deps);
      await api.register(announcementRoutes, deps);
      await api.register(documentRoutes, deps);
      await api.register(meRoutes, deps);
      await api.register(hl7Routes, deps);
      await api.register(unmatchedRoutes, deps);
      await api.register(importRoutes, deps);
      await api.register(reportRoutes, deps);
      await api.register(exportRoutes, deps);
      await api.register(retentionRoutes, deps);
      await api.register(dashboardRoutes, deps);
      await api.register(notificationRoutes, deps);
    },
    { prefix: '/api' },
  );
  await app.register(metricsRoutes, deps);

  // The built web app (precompressed, cached by kind of file) and the answers for unknown paths.
  await app.register(webAppPlugin, { webRoot: config.webRoot });
  return app;
}
