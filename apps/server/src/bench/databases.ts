import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, runMigrations } from '../db/client.js';
import type { DatabaseHandle } from '../db/client.js';
import { dropDatabase } from '../db/drop-database.js';
import { QueryCapture } from './capture.js';

export interface BenchDatabase {
  /** 'PostgreSQL' or 'PGlite', as the report names it. */
  label: string;
  handle: DatabaseHandle;
  capture: QueryCapture;
  /** The throwaway PostgreSQL database's URL (the nodes bench starts processes on it). */
  url?: string;
  /** Closes the database and removes it (the throwaway PostgreSQL database, the temp dir). */
  dispose(): Promise<void>;
}

/**
 * A fresh database with a unique name on the server of `serverUrl` (its role needs CREATEDB),
 * migrated; dispose() drops it, also after a failure (the caller's finally).
 */
export async function throwawayPostgres(serverUrl: string): Promise<BenchDatabase> {
  const name = `portal_bench_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const capture = new QueryCapture();
  let handle: DatabaseHandle | null = null;
  const dispose = async () => {
    await handle?.close();
    handle = null;
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await dropDatabase(client, name);
    } finally {
      await client.end();
    }
  };
  try {
    // 16 connections: the throughput case runs 16 clients at once.
    const opened = await openDatabase({
      kind: 'postgres',
      url: url.toString(),
      max: 16,
      queryLogger: capture,
    });
    handle = opened;
    await runMigrations(opened);
    return { label: 'PostgreSQL', handle: opened, capture, url: url.toString(), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** PGlite in a temporary directory (3.8 M audit entries are too many for memory alone). */
export async function temporaryPglite(): Promise<BenchDatabase> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-'));
  const capture = new QueryCapture();
  let handle: DatabaseHandle | null = null;
  const dispose = async () => {
    await handle?.close();
    handle = null;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const opened = await openDatabase({ kind: 'pglite', dataDir: dir, queryLogger: capture });
    handle = opened;
    await runMigrations(opened);
    return { label: 'PGlite', handle: opened, capture, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
