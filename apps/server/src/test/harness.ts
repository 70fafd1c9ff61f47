import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { doctorBody, monitorBody } from '@portal/shared';
import type {
  Admin,
  Doctor,
  DoctorBody,
  Monitor,
  SessionUser,
  Unit,
  UnitBody,
} from '@portal/shared';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, runMigrations } from '../db/client.js';
import { migrateDatabase } from '../db/roles.js';
import type { Database, DatabaseHandle } from '../db/client.js';
import { LoginThrottle, defaultThrottleLimits } from '../lib/login-throttle.js';
import type { LogDestination } from '../lib/logger.js';
import type { ThrottleLimits } from '../lib/login-throttle.js';
import { createAdmin } from '../modules/admins/index.js';
import { REFRESH_COOKIE } from '../modules/auth/index.js';
import { createDoctor, printDoctorLoginDetails } from '../modules/doctors/index.js';
import { createMonitor, printMonitorLoginDetails } from '../modules/monitors/index.js';
import { FakeTrackingProvider } from '../modules/shipments/index.js';
import type { TrackingProvider } from '../lib/tracking-provider.js';
import { createUnit } from '../modules/units/index.js';
import { databaseUrl, withServer } from './server-database.js';
import { dropDatabase } from '../db/drop-database.js';

/** The PostgreSQL lane: set to a server URL whose role may CREATE DATABASE. */
const serverUrl = process.env.TEST_DATABASE_URL;
/**
 * Optional on that lane: the restricted role the app connects as (its URL's database is ignored),
 * as in production with DATABASE_MIGRATION_URL; the databases are still made by the role above.
 */
export const appServerUrl = serverUrl ? (process.env.TEST_DATABASE_APP_URL ?? null) : null;

export const PUBLIC_URL = 'http://portal.test';
/** The password that every "ready" user chooses in the harness. */
export const CHOSEN_PASSWORD = 'Wybrane-Haslo-2026';

export interface Session {
  token: string;
  /** The refresh cookie's value, as the browser would keep it. */
  refreshCookie: string;
  user: SessionUser;
}

export interface ReadyAdmin {
  admin: Admin;
  login: string;
  password: string;
  session: Session;
}

export interface ReadyDoctor {
  doctor: Doctor;
  login: string;
  password: string;
  session: Session;
}

export interface ReadyMonitor {
  monitor: Monitor;
  login: string;
  password: string;
  session: Session;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  remoteAddress?: string;
}

let sequence = 0;
const fileTag = randomBytes(3).toString('hex');
/** A value no other test in this database has used: `prefix-<file>-<n>`. */
export function unique(prefix = 'x'): string {
  sequence += 1;
  return `${prefix}-${fileTag}-${sequence}`;
}

export function uniqueEmail(prefix = 'lekarz'): string {
  return `${unique(prefix)}@szpital.test`;
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The database created on the server; null for PGlite. */
  name: string | null;
  /** Closes the handle and drops the server's database. */
  close: () => Promise<void>;
}

let template: Promise<Blob> | undefined;
/**
 * The migrated PGlite data directory that the global setup dumped, read once per worker; null on
 * the PostgreSQL lane or without that setup. Loaded into a directory on disk it is what a first
 * start on an empty DATA_DIR unpacks from the build's image (ADR 020).
 */
export function pgliteTemplate(): Promise<Blob> | null {
  const file = inject('pgliteTemplate');
  if (!file) return null;
  template ??= readFile(file).then((bytes) => new Blob([bytes]));
  return template;
}

/**
 * A fresh in-memory PGlite, or with TEST_DATABASE_URL a new database on that server (created
 * here, dropped by close), so that test files never see each other's rows and may run at once.
 * Both start as copies of the migrated template that the global setup made (global-setup.ts);
 * without one (a run without that setup) the new database is migrated here.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const opened = await openUnmigrated();
  const close = async () => {
    try {
      await opened.handle.close();
    } finally {
      await opened.drop();
    }
  };
  if (!opened.migrated) {
    try {
      if (opened.ownerUrl) await migrateDatabase(opened.handle, opened.ownerUrl);
      else await runMigrations(opened.handle);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { handle: opened.handle, name: opened.name, close };
}

async function openUnmigrated(): Promise<{
  handle: DatabaseHandle;
  name: string | null;
  migrated: boolean;
  /** The owner's URL of this database when the app connects as another role. */
  ownerUrl: string | null;
  drop: () => Promise<void>;
}> {
  if (!serverUrl) {
    const blob = pgliteTemplate();
    const handle = await openDatabase({
      kind: 'pglite',
      dataDir: null,
      ...(blob ? { loadDataDir: await blob } : {}),
    });
    return {
      handle,
      name: null,
      migrated: blob !== null,
      ownerUrl: null,
      drop: () => Promise.resolve(),
    };
  }
  const name = `t_${randomBytes(8).toString('hex')}`;
  const templateName = inject('postgresTemplate');
  await withServer(serverUrl, async (client) => {
    await client.query(
      templateName
        ? `CREATE DATABASE "${name}" TEMPLATE "${templateName}"`
        : `CREATE DATABASE "${name}"`,
    );
  });
  const handle = await openDatabase({
    kind: 'postgres',
    url: databaseUrl(appServerUrl ?? serverUrl, name),
    max: 4,
  });
  return {
    handle,
    name,
    migrated: Boolean(templateName),
    ownerUrl: appServerUrl ? databaseUrl(serverUrl, name) : null,
    drop: () =>
      withServer(serverUrl, async (client) => {
        await dropDatabase(client, name);
      }),
  };
}

export interface TestAppOptions {
  throttleLimits?: ThrottleLimits;
  /** A fake clock for the login throttle. */
  now?: () => number;
  /** The key that seals stored secrets (a random one by default); null: no key, as on PostgreSQL without PORTAL_SECRET_KEY. */
  secretKey?: Buffer | null;
  /** Log every line (level trace) to this stream instead of logging nothing. */
  logStream?: LogDestination;
  /** The shipment tracking provider (the fake by default: tests never ask the real post). */
  trackingProvider?: TrackingProvider;
  /** false: the read log is not written (the bench's with/without comparison, ADR 052). */
  readLogWrites?: boolean;
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * The real application, built in-process on a real migrated database, with helpers that create
 * users through the services and sign them in through the real endpoints.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const { handle, name, close } = await openTestDatabase();
  let app: FastifyInstance | undefined;
  try {
    const { logStream } = options;
    const config = loadConfig({ PUBLIC_URL, LOG_LEVEL: logStream ? 'trace' : 'silent' }, null);
    const throttle = new LoginThrottle(
      handle.db,
      options.throttleLimits ?? defaultThrottleLimits,
      options.now ?? Date.now,
    );
    const secretKey = options.secretKey === undefined ? randomBytes(32) : options.secretKey;
    app = await buildApp({
      db: handle.db,
      config,
      throttle,
      logger: Boolean(logStream),
      ...(logStream ? { logStream } : {}),
      secretKey,
      trackingProvider: options.trackingProvider ?? new FakeTrackingProvider(),
      ...(options.readLogWrites === false ? { readLogWrites: false } : {}),
    });
    await app.ready();
  } catch (error) {
    await app?.close();
    await close();
    throw error;
  }
  return testApi(app, handle, name, close);
}

function testApi(
  app: FastifyInstance,
  handle: DatabaseHandle,
  databaseName: string | null,
  closeDatabase: () => Promise<void>,
) {
  const db: Database = handle.db;

  function request(
    method: InjectOptions['method'],
    url: string,
    options: RequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const inject: InjectOptions = { method, url, headers };
    if (options.body !== undefined) inject.payload = options.body as InjectOptions['payload'];
    if (options.query) inject.query = options.query;
    if (options.cookies) inject.cookies = options.cookies;
    if (options.remoteAddress) inject.remoteAddress = options.remoteAddress;
    return app.inject(inject);
  }

  /** Signs in through the real endpoint; fails loudly unless the answer is 200. */
  async function login(
    role: 'admin' | 'doctor' | 'patient' | 'monitor' | 'iod',
    login: string,
    password: string,
  ): Promise<Session> {
    const res = await request('POST', `/api/auth/login/${role}`, { body: { login, password } });
    if (res.statusCode !== 200) {
      throw new Error(`login of ${role} ${login} answered ${res.statusCode}: ${res.body}`);
    }
    const body = res.json<{ access_token: string; user: SessionUser }>();
    return { token: body.access_token, refreshCookie: refreshCookieOf(res), user: body.user };
  }

  /** Replaces the password through the real endpoint and returns the session it starts. */
  async function changePassword(
    session: Session,
    oldPassword: string,
    newPassword = CHOSEN_PASSWORD,
  ): Promise<Session> {
    const res = await request('PUT', '/api/change_password', {
      token: session.token,
      body: { oldPassword, newPassword, passwordConfirm: newPassword },
    });
    if (res.statusCode !== 200)
      throw new Error(`change_password answered ${res.statusCode}: ${res.body}`);
    const body = res.json<{ access_token: string; user: SessionUser }>();
    return { token: body.access_token, refreshCookie: refreshCookieOf(res), user: body.user };
  }

  async function unit(overrides: Partial<UnitBody> = {}): Promise<Unit> {
    return createUnit(db, {
      name: unique('Poradnia'),
      street: 'Marszałkowska',
      building_nr: '10',
      postcode: '00-001',
      city: 'Warszawa',
      ...overrides,
    });
  }

  /**
   * An administrator created through the service. `ready` (the default) means the password was
   * chosen, so the account may use the API at once; otherwise it must be changed first.
   */
  async function admin(
    options: { login?: string; password?: string; ready?: boolean; role?: 'admin' | 'iod' } = {},
  ): Promise<{ admin: Admin; login: string; password: string }> {
    const login = options.login ?? unique('admin');
    const password = options.password ?? `Haslo-${randomBytes(6).toString('hex')}`;
    const created = await createAdmin(
      db,
      null,
      { login, role: options.role ?? 'admin' },
      { password, passwordChosen: options.ready ?? true },
    );
    return { admin: created, login, password };
  }

  async function readyAdmin(options: { login?: string } = {}): Promise<ReadyAdmin> {
    const created = await admin({ ...options, ready: true });
    return { ...created, session: await login('admin', created.login, created.password) };
  }

  /** A data protection officer (ADR 053) with a chosen password, signed in. */
  async function readyIod(): Promise<ReadyAdmin> {
    const created = await admin({ login: unique('iod'), ready: true, role: 'iod' });
    return { ...created, session: await login('iod', created.login, created.password) };
  }

  /** A doctor with printed login details that were never changed (changed_password_at null). */
  async function doctor(
    unitId: number,
    overrides: Partial<DoctorBody> = {},
  ): Promise<{ doctor: Doctor; login: string; password: string }> {
    // Parsed by the shared schema, as the route would, so the phone is normalised the same way.
    const body = doctorBody.parse({
      firstname: 'Jan',
      surname: unique('Kowalski'),
      email: uniqueEmail(),
      phone_number: '600100200',
      unit_id: unitId,
      ...overrides,
    });
    const created = await createDoctor(db, null, body);
    const details = await printDoctorLoginDetails(db, null, created.id);
    return { doctor: created, login: details.login, password: details.password };
  }

  /** A doctor of the unit who signed in and chose an own password, as on a first visit. */
  async function readyDoctor(
    unitId: number,
    overrides: Partial<DoctorBody> = {},
  ): Promise<ReadyDoctor> {
    const created = await doctor(unitId, overrides);
    const first = await login('doctor', created.login, created.password);
    const session = await changePassword(first, created.password);
    return { doctor: created.doctor, login: created.login, password: CHOSEN_PASSWORD, session };
  }

  /** A monitor of the units (ADR 051), signed in with an own password chosen. */
  async function readyMonitor(unitIds: number[]): Promise<ReadyMonitor> {
    const body = monitorBody.parse({
      firstname: 'Monika',
      surname: unique('Monitor'),
      email: uniqueEmail(),
      phone_number: '600100300',
      unit_ids: unitIds,
    });
    const created = await createMonitor(db, null, body);
    const details = await printMonitorLoginDetails(db, null, created.id);
    const first = await login('monitor', details.login, details.password);
    const session = await changePassword(first, details.password);
    return { monitor: created, login: details.login, password: CHOSEN_PASSWORD, session };
  }

  return {
    app,
    db,
    readyMonitor,
    /** Raw SQL on the app's own connection (as the app's database role). */
    handle,
    kind: handle.kind,
    databaseName,
    request,
    login,
    changePassword,
    unit,
    admin,
    readyAdmin,
    readyIod,
    doctor,
    readyDoctor,
    async close() {
      try {
        await app.close();
      } finally {
        await closeDatabase();
      }
    },
  };
}

/** The value of the refresh cookie a response set (empty when it set none). */
export function refreshCookieOf(res: LightMyRequestResponse): string {
  return res.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)?.value ?? '';
}

export { REFRESH_COOKIE };
