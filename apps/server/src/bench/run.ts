import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, runMigrations } from '../db/client.js';
import { units } from '../db/schema.js';
import { LoginThrottle } from '../lib/login-throttle.js';
import { ensureInitialAdmin } from '../modules/admins/service.js';

/**
 * `npm run bench`: times the calls every screen makes, on an in-memory PGlite (or DATABASE_URL),
 * and prints percentiles. Nothing here is asserted; compare numbers between commits.
 */
const UNIT_ROWS = 2_000;
const ROUNDS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function time(label: string, rounds: number, run: () => Promise<void>) {
  for (let i = 0; i < Math.min(10, rounds); i++) await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(2).padStart(8);
  console.log(
    `${label.padEnd(44)} n=${String(rounds).padStart(4)}  p50 ${fmt(percentile(samples, 50))} ms  p95 ${fmt(percentile(samples, 95))} ms`,
  );
}

async function main() {
  const url = process.env.DATABASE_URL;
  const handle = await openDatabase(
    url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: null },
  );
  await runMigrations(handle);
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' }, null);
  const app = await buildApp({
    db: handle.db,
    config,
    logger: false,
    throttle: new LoginThrottle(),
  });
  await ensureInitialAdmin(handle.db, { login: 'bench', password: 'bench-password' });
  await handle.db.insert(units).values(
    Array.from({ length: UNIT_ROWS }, (_, i) => ({
      name: `Poradnia ${i}`,
      street: 'ul. Długa',
      building_nr: String(i),
      postcode: '00-001',
      city: i % 2 ? 'Łódź' : 'Kraków',
    })),
  );

  const login = () =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login/admin',
      payload: { login: 'bench', password: 'bench-password' },
    });
  const token = (await login()).json<{ access_token: string }>().access_token;
  const headers = { authorization: `Bearer ${token}` };

  console.log(`database: ${handle.kind}, ${UNIT_ROWS} units`);
  await time('POST /api/auth/login/admin (argon2id verify)', 30, async () => {
    await login();
  });
  await time('GET /api/units?limit=20 (page 1, sort id)', ROUNDS, async () => {
    await app.inject({ method: 'GET', url: '/api/units?limit=20', headers });
  });
  await time('GET /api/units?limit=100&page=15&order_by=name', ROUNDS, async () => {
    await app.inject({
      method: 'GET',
      url: '/api/units?limit=100&page=15&order_by=name&order_direction=asc',
      headers,
    });
  });
  await time('GET /api/units?search=łódź', ROUNDS, async () => {
    await app.inject({
      method: 'GET',
      url: `/api/units?search=${encodeURIComponent('łódź')}`,
      headers,
    });
  });
  await time('GET /api/units/all', 50, async () => {
    await app.inject({ method: 'GET', url: '/api/units/all', headers });
  });
  await app.close();
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
