import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { doctorBody } from '@portal/shared';
import { openDatabase, runMigrations } from '../../db/client.js';
import type { DatabaseHandle } from '../../db/client.js';
import { dropDatabase } from '../../db/drop-database.js';
import { migrateDatabase } from '../../db/roles.js';
import { pgliteTemplate } from '../../test/harness.js';
import { databaseUrl, withServer } from '../../test/server-database.js';
import { createDoctor } from '../doctors/index.js';
import { createUnit } from '../units/index.js';
import { buildTemplate, examplePatients } from './templates.js';

/*
 * Issue 12: "killing the server in the middle of an import leaves no row of it". The portal runs
 * as a real process (src/main.ts through tsx), is sent a 4,000-patient file and is killed with
 * SIGKILL the moment it logs that it writes the batch; then its database, reopened as after a
 * crash (PGlite recovers its directory, PostgreSQL rolls back), holds no row of that batch, and
 * the portal started again imports the same file whole.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const MAIN = fileURLToPath(new URL('../../main.ts', import.meta.url));
const ADMIN = { login: 'admin-kill', password: 'Haslo-Importu-2026' };
const PATIENTS = 4_000;
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const step of cleanups.reverse()) await step();
});

/** A durable database with one unit and doctor; returns how to open it and the server's env. */
async function durableDatabase(): Promise<{
  open: () => Promise<DatabaseHandle>;
  env: Record<string, string>;
}> {
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-import-kill-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const open = () => openDatabase({ kind: 'pglite', dataDir });
    // The migrated template loaded into the directory, instead of a fresh cluster migrated here
    // (ADR 065); without the global setup, migrated here.
    const template = pgliteTemplate();
    const handle = await openDatabase({
      kind: 'pglite',
      dataDir,
      ...(template ? { loadDataDir: await template } : {}),
    });
    if (!template) await runMigrations(handle);
    await handle.close();
    return { open, env: { DATA_DIR: dataDir } };
  }
  const name = `t_${randomBytes(8).toString('hex')}`;
  await withServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  cleanups.push(() => withServer(serverUrl, (client) => dropDatabase(client, name)));
  const url = databaseUrl(serverUrl, name);
  const handle = await openDatabase({ kind: 'postgres', url, max: 2 });
  await migrateDatabase(handle, url);
  await handle.close();
  return {
    open: () => openDatabase({ kind: 'postgres', url, max: 2 }),
    env: { DATABASE_URL: url, PORTAL_SECRET_KEY: randomBytes(32).toString('hex') },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Portal {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves when the portal's log holds a line with this message. */
  logged: (message: string) => Promise<void>;
  exited: Promise<unknown>;
}

async function startPortal(env: Record<string, string>): Promise<Portal> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PORTAL_ADMIN_LOGIN: ADMIN.login,
      PORTAL_ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  const waiters: { message: string; resolve: () => void }[] = [];
  const read = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
    for (const waiter of [...waiters])
      if (output.includes(`"msg":"${waiter.message}"`)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`the portal exited:\n${output}`);
    if (waited > 60_000) throw new Error(`the portal did not start:\n${output}`);
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    baseUrl,
    exited,
    logged: (message) => new Promise((resolve) => waiters.push({ message, resolve })),
  };
}

async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in answered ${response.status}`);
  return body.access_token;
}

function upload(baseUrl: string, token: string, xlsx: Buffer): Promise<Response> {
  const form = new FormData();
  form.append('files[0]', new Blob([new Uint8Array(xlsx)]), 'pacjenci.xlsx');
  return fetch(`${baseUrl}/api/data_import/patient_data`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

async function importedRows(open: () => Promise<DatabaseHandle>) {
  const handle = await open();
  try {
    const count = async (text: string) => Number((await handle.executeSql(text)).rows[0]?.n);
    return {
      batches: await count('select count(*)::int as n from import_batches'),
      patients: await count('select count(*)::int as n from patients'),
      accounts: await count("select count(*)::int as n from users where role = 'patient'"),
    };
  } finally {
    await handle.close();
  }
}

describe('an import killed half-way', () => {
  it('leaves no row of it, and the restarted portal imports the file whole', async () => {
    const database = await durableDatabase();
    const seed = await database.open();
    let refs: { unit_id: number; doctor_id: number };
    try {
      const unit = await createUnit(seed.db, {
        name: 'Poradnia importu',
        street: 'Marszałkowska',
        building_nr: '10',
        postcode: '00-001',
        city: 'Warszawa',
      });
      const doctor = await createDoctor(
        seed.db,
        null,
        doctorBody.parse({
          firstname: 'Jan',
          surname: 'Importer',
          email: 'importer@example.pl',
          phone_number: '600100200',
          unit_id: unit.id,
        }),
      );
      refs = { unit_id: unit.id, doctor_id: doctor.id };
    } finally {
      await seed.close();
    }
    // Distinct, valid PESELs and phone numbers for any count (templates.ts).
    const rows = examplePatients(PATIENTS, { ...refs, group_id: 1, subgroup_id: 1, dose: 5 });
    const xlsx = await buildTemplate('patient_data', rows);

    const first = await startPortal(database.env);
    const writing = first.logged('import: writing a batch');
    const answer = upload(first.baseUrl, await signIn(first.baseUrl), xlsx).then(
      (response) => response.status,
      () => 'cut off' as const,
    );
    await writing;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await answer).toBe('cut off');
    expect(await importedRows(database.open)).toEqual({ batches: 0, patients: 0, accounts: 0 });

    const second = await startPortal(database.env);
    const response = await upload(second.baseUrl, await signIn(second.baseUrl), xlsx);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ imported: { patients: PATIENTS } });
    second.child.kill('SIGTERM');
    await second.exited;
    expect(await importedRows(database.open)).toMatchObject({ batches: 1, patients: PATIENTS });
  }, 180_000);
});
