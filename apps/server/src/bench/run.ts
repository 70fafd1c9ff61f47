import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, runMigrations } from '../db/client.js';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { units } from '../db/schema.js';
import { LoginThrottle } from '../lib/login-throttle.js';
import { ensureInitialAdmin } from '../modules/admins/service.js';
import { createDoctor } from '../modules/doctors/service.js';

/**
 * `npm run bench`: times the calls every screen makes, on an in-memory PGlite (or DATABASE_URL),
 * and prints percentiles. Nothing here is asserted; compare numbers between commits.
 */
const UNIT_ROWS = 2_000;
const PATIENT_ROWS = 100_000;
const ROUNDS = 200;

const SURNAMES = [
  'Górski',
  'Kowalski',
  'Nowak',
  'Wiśniewski',
  'Wójcik',
  'Kowalczyk',
  'Kamiński',
  'Lewandowski',
  'Zieliński',
  'Szymański',
  'Woźniak',
  'Dąbrowski',
  'Kozłowski',
  'Jankowski',
  'Mazur',
  'Kwiatkowski',
  'Krawczyk',
  'Piotrowski',
  'Grabowski',
  'Nowakowski',
  'Pawłowski',
  'Michalski',
  'Król',
  'Wieczorek',
  'Jabłoński',
  'Wróbel',
  'Majewski',
  'Olszewski',
  'Stępień',
  'Malinowski',
  'Jaworski',
  'Adamczyk',
  'Dudek',
  'Nowicki',
  'Pawlak',
  'Górecki',
  'Witkowski',
  'Sikora',
  'Walczak',
  'Łukasiewicz',
];
const FIRSTNAMES = ['Łucja', 'Zofia', 'Jan', 'Stanisław', 'Małgorzata', 'Józef', 'Anna', 'Piotr'];

/**
 * 100,000 patients of one doctor, written in bulk by SQL: surnames like "Górski417" (about 1,000
 * patients share a base name, 2 or 3 a whole one). The audit trigger is off while loading: the
 * benchmark measures the search, not two million audit rows.
 */
async function seedPatients(db: Database, doctorId: number, unitId: number) {
  const surnames = sql.raw(`array[${SURNAMES.map((n) => `'${n}'`).join(',')}]`);
  const firstnames = sql.raw(`array[${FIRSTNAMES.map((n) => `'${n}'`).join(',')}]`);
  await db.execute(sql`alter table patients disable trigger patients_audit`);
  await db.execute(sql`
    with accounts as (
      insert into users (login, password_hash, role)
      select 'bench' || lpad(g::text, 7, '0'), 'x', 'patient' from generate_series(1, ${PATIENT_ROWS}) g
      returning id
    ), numbered as (select id, row_number() over (order by id) as g from accounts)
    insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                          acceptance, doctor_id, unit_id)
    select id, (${firstnames})[1 + g % ${FIRSTNAMES.length}],
           (${surnames})[1 + g % ${SURNAMES.length}] || (g / ${SURNAMES.length} % 1000)::text,
           lpad(g::text, 11, '0'), 'K', date '1960-01-01', '600100200', true, ${doctorId}, ${unitId}
    from numbered`);
  await db.execute(sql`alter table patients enable trigger patients_audit`);
  await db.execute(sql`analyze patients`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function time(label: string, rounds: number, run: () => Promise<void>): Promise<number> {
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
  return percentile(samples, 50);
}

/** The patients search through the API against the same two statements written by hand. */
async function patientSearch(db: Database, inject: (url: string) => Promise<void>, term: string) {
  const api = await time(`GET /api/patients?search=${term}`, 50, () =>
    inject(`/api/patients?search=${encodeURIComponent(term)}&limit=20`),
  );
  const pattern = `%${term}%`;
  const text = sql.raw(
    `portal_unaccent(surname || ' ' || firstname || ' ' || surname || ' ' || pesel)`,
  );
  const raw = await time(`  raw SQL (page + count)`, 50, async () => {
    await Promise.all([
      db.execute(
        sql`select * from patients where ${text} ilike portal_unaccent(${pattern}) order by id limit 20`,
      ),
      db.execute(
        sql`select count(*) from patients where ${text} ilike portal_unaccent(${pattern})`,
      ),
    ]);
  });
  console.log(`  ratio API / raw SQL: ${(api / raw).toFixed(2)}`);
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
    throttle: new LoginThrottle(handle.db),
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

  const [unit] = await handle.db.select({ id: units.id }).from(units).limit(1);
  const doctor = await createDoctor(handle.db, null, {
    firstname: 'Anna',
    surname: 'Bench',
    email: 'bench-doctor@example.pl',
    phone_number: '600100200',
    unit_id: unit!.id,
  });
  const seeding = performance.now();
  await seedPatients(handle.db, doctor.id, unit!.id);
  console.log(
    `${PATIENT_ROWS} patients loaded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const inject = async (url: string) => {
    await app.inject({ method: 'GET', url, headers });
  };
  await patientSearch(handle.db, inject, 'gorski417');
  await patientSearch(handle.db, inject, 'lucja gorski41');
  await patientSearch(handle.db, inject, 'gorski');
  await app.close();
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
