import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import { extractMember, listArchive, readMember, writeArchive } from './archive.js';
import {
  appVersion,
  compareTables,
  migrationLevel,
  pgliteVersion,
  summariseTables,
} from './manifest.js';
import type { BackupManifest, RowQuery, TableSummary } from './manifest.js';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (ADR 058). A backup is a tar of
 * `manifest.json` and the database's payload: PGlite's data directory dumped by PGlite itself
 * (`pgdata.tar`), or PostgreSQL's `pg_dump -Fc` (`database.pgdump`). Files live in the database,
 * so they are inside. `FILE.sha256` beside it holds the archive's SHA-256 in sha256sum(1)'s form.
 */

export const MANIFEST = 'manifest.json';
const PGLITE_PAYLOAD = 'pgdata.tar';
const POSTGRES_PAYLOAD = 'database.pgdump';

export type Target = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export interface BackupResult {
  file: string;
  sha256: string;
  manifest: BackupManifest;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function pgliteQuery(client: PGlite): RowQuery {
  return async (text) => (await client.query<Record<string, unknown>>(text)).rows;
}

function clientQuery(client: pg.Client): RowQuery {
  return async (text) => (await client.query<Record<string, unknown>>(text)).rows;
}

export function openPglite(dataDir: string, loadDataDir?: Blob): Promise<PGlite> {
  return PGlite.create({
    dataDir,
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { unaccent, pg_trgm },
  });
}

/**
 * The URL without its password, and the password for the environment: a password on a command
 * line is visible to every user of the machine (ps).
 */
export function libpqTarget(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    url: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} failed (exit ${code}): ${stderr.trim().slice(0, 2000)}`));
    });
  });
}

async function finishArchive(
  file: string,
  manifest: Omit<BackupManifest, 'payload'>,
  payloadName: string,
  payloadPath: string,
): Promise<BackupResult> {
  const full: BackupManifest = {
    ...manifest,
    payload: {
      name: payloadName,
      sha256: await sha256File(payloadPath),
      bytes: (await stat(payloadPath)).size,
    },
  };
  await writeArchive(file, [
    { name: MANIFEST, content: Buffer.from(JSON.stringify(full, null, 2) + '\n') },
    { name: payloadName, path: payloadPath },
  ]);
  const sha256 = await sha256File(file);
  await writeFile(`${file}.sha256`, `${sha256}  ${path.basename(file)}\n`);
  return { file, sha256, manifest: full };
}

async function refuseExistingFile(file: string) {
  if (existsSync(file)) throw new Error(`${file} exists: a backup never overwrites a file`);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
}

/**
 * The embedded database: opened here (so the portal must be stopped: one data directory, one
 * process), summarised and dumped by PGlite in the same quiet state.
 */
export async function backupPglite(dataDir: string, file: string): Promise<BackupResult> {
  await refuseExistingFile(file);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(`${dataDir} holds no embedded database`);
  }
  const work = await mkdtemp(path.join(tmpdir(), 'portal-backup-'));
  const client = await openPglite(dataDir);
  try {
    const query = pgliteQuery(client);
    const tables = await summariseTables(query);
    const migration = await migrationLevel(query);
    const dump = await client.dumpDataDir('none');
    const payload = path.join(work, PGLITE_PAYLOAD);
    await writeFile(payload, Buffer.from(await dump.arrayBuffer()));
    return await finishArchive(
      file,
      {
        format: 'study-portal-backup',
        format_version: 1,
        app_version: appVersion(),
        created_at: new Date().toISOString(),
        database: 'pglite',
        pglite_version: pgliteVersion(),
        migration,
        tables,
      },
      PGLITE_PAYLOAD,
      payload,
    );
  } finally {
    await client.query('CHECKPOINT').catch(() => undefined);
    await client.close();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * PostgreSQL while the portal runs: one REPEATABLE READ transaction exports its snapshot, pg_dump
 * dumps exactly that snapshot, and the manifest is computed in it, so counts and dump agree.
 */
export async function backupPostgres(url: string, file: string): Promise<BackupResult> {
  await refuseExistingFile(file);
  const work = await mkdtemp(path.join(tmpdir(), 'portal-backup-'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const {
      rows: [snapshot],
    } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const payload = path.join(work, POSTGRES_PAYLOAD);
    const target = libpqTarget(url);
    const [, tables, migration] = await Promise.all([
      run(
        'pg_dump',
        ['-Fc', '-Z', '6', `--snapshot=${snapshot!.id}`, '-f', payload, '-d', target.url],
        target.env,
      ),
      summariseTables(clientQuery(client)),
      migrationLevel(clientQuery(client)),
    ]);
    await client.query('commit');
    return await finishArchive(
      file,
      {
        format: 'study-portal-backup',
        format_version: 1,
        app_version: appVersion(),
        created_at: new Date().toISOString(),
        database: 'postgres',
        pglite_version: null,
        migration,
        tables,
      },
      POSTGRES_PAYLOAD,
      payload,
    );
  } finally {
    await client.end().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  tables: Record<string, TableSummary>;
}

/** Reads and checks the archive: its .sha256 when present, the manifest, the payload's digest. */
async function openBackup(file: string, work: string) {
  const checksumFile = `${file}.sha256`;
  if (existsSync(checksumFile)) {
    const { readFile } = await import('node:fs/promises');
    const expected = (await readFile(checksumFile, 'utf8')).trim().split(/\s+/)[0];
    if (expected !== (await sha256File(file))) {
      throw new Error(`${file} does not match ${checksumFile}: the archive is damaged`);
    }
  }
  const members = await listArchive(file);
  const manifestMember = members.find((member) => member.name === MANIFEST);
  if (!manifestMember) throw new Error(`${file} is not a portal backup (no ${MANIFEST})`);
  const manifest = JSON.parse(
    (await readMember(file, manifestMember)).toString('utf8'),
  ) as BackupManifest;
  if (manifest.format !== 'study-portal-backup' || manifest.format_version !== 1) {
    throw new Error(`${file} is not a portal backup this version reads`);
  }
  const payloadMember = members.find((member) => member.name === manifest.payload.name);
  if (!payloadMember) throw new Error(`${file} lacks ${manifest.payload.name}`);
  const payload = path.join(work, manifest.payload.name);
  await extractMember(file, payloadMember, payload);
  if ((await sha256File(payload)) !== manifest.payload.sha256) {
    throw new Error(`${manifest.payload.name} in ${file} does not match its manifest checksum`);
  }
  return { manifest, payload };
}

function verify(manifest: BackupManifest, tables: Record<string, TableSummary>): RestoreResult {
  const problems = compareTables(manifest.tables, tables);
  if (problems.length > 0) {
    throw new Error(`restored database differs from the backup:\n  ${problems.join('\n  ')}`);
  }
  return { manifest, tables };
}

async function isEmptyDirectory(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/** Whether a PostgreSQL database holds nothing of the portal's (nor anything else's). */
export async function postgresIsEmpty(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
        and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`,
  );
  return rows[0]?.n === 0;
}

export async function restore(file: string, target: Target): Promise<RestoreResult> {
  const work = await mkdtemp(path.join(tmpdir(), 'portal-restore-'));
  try {
    const { manifest, payload } = await openBackup(file, work);
    if (manifest.database !== target.kind) {
      throw new Error(
        manifest.database === 'pglite'
          ? 'this is a backup of the embedded database: restore it into an empty DATA_DIR ' +
              '(without DATABASE_URL), then use npm run move-to-postgres'
          : 'this is a backup of PostgreSQL: restore it with DATABASE_URL set',
      );
    }
    if (target.kind === 'pglite') {
      if (!(await isEmptyDirectory(target.dataDir))) {
        throw new Error(`${target.dataDir} is not empty: restore only into an empty place`);
      }
      if (manifest.pglite_version !== pgliteVersion()) {
        throw new Error(
          `the backup was written by PGlite ${manifest.pglite_version}, this portal runs ` +
            `${pgliteVersion()}: restore it with the portal version that made it`,
        );
      }
      await mkdir(target.dataDir, { recursive: true });
      const client = await openPglite(target.dataDir, await openAsBlob(payload));
      try {
        return verify(manifest, await summariseTables(pgliteQuery(client)));
      } finally {
        await client.query('CHECKPOINT').catch(() => undefined);
        await client.close();
      }
    }
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      if (!(await postgresIsEmpty(client))) {
        throw new Error('the target database is not empty: restore only into an empty database');
      }
      const libpq = libpqTarget(target.url);
      await run(
        'pg_restore',
        ['--exit-on-error', '--single-transaction', '-d', libpq.url, payload],
        libpq.env,
      );
      return verify(manifest, await summariseTables(clientQuery(client)));
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
