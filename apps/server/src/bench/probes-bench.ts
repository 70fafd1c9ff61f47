import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { addDays, warsawDay } from '@portal/shared';
import type { SqlExecutor } from '../db/client.js';
import { hashPassword } from '../lib/passwords.js';
import { get, measureCase } from './cases.js';
import type { CaseResult, Client } from './cases.js';
import type { BenchDatabase } from './databases.js';
import { firstnames, sqlTextArray, surnamePool } from './names.js';
import { timeRounds } from './stats.js';
import type { Rounds } from './stats.js';

/**
 * Issue 10's list target (`BENCH_ONLY=probes`): GET /api/probes at 1,000,000 samples of 20,000
 * patients in 5 units, p95 through the API beside the statements it sends replayed through the
 * driver (the target: within 1.5× on PostgreSQL, within 2× of that ratio on PGlite), as an
 * administrator and as a doctor of one unit. Nothing is asserted.
 */
export const BENCH_PROBES = Number(process.env.BENCH_PROBES ?? 1_000_000);
const PATIENTS = 20_000;
const UNITS = 5;
/** Samples are spread back from now, one every this many seconds (1,000,000: about a year). */
const SPACING_SECONDS = 30;
export const PROBE_DOCTOR = {
  login: 'lekarz.probki@bench.example.pl',
  password: 'bench-2026-Probki',
};

export interface ProbesFixture {
  probes: number;
  seconds: number;
  /** A patient of the doctor's unit, with BENCH_PROBES / PATIENTS samples. */
  patientId: number;
  /** A day about a month ago (Warsaw), with about 86,400 / SPACING_SECONDS samples (2,880). */
  day: string;
}

const pick = (expr: string, salt: number, n: number | string) =>
  `(abs(hashint4((${expr}) * 31 + ${salt})) % ${n})`;

async function one(db: SqlExecutor, text: string, params: unknown[] = []): Promise<number> {
  return Number((await db.executeSql(text, params)).rows[0]?.id);
}

/**
 * Units, one doctor each (the first one signs in), patients spread over them, then the samples
 * by one INSERT … SELECT over generate_series. The audit triggers are off while seeding (the
 * trail of a million synthetic rows is not what is measured), and the probes indexes other than
 * the constraints' are dropped and built again afterwards: a bulk build is many times faster
 * than a million index insertions, a trigram one above all.
 */
export async function seedProbesBench(
  db: SqlExecutor,
  log: (line: string) => void,
): Promise<ProbesFixture> {
  const started = performance.now();
  const surnames = [...new Set(surnamePool().map(([male]) => male))];
  const unitIds: number[] = [];
  const doctorIds: number[] = [];
  for (let u = 0; u < UNITS; u++) {
    const unitId = await one(
      db,
      `insert into units (name, street, building_nr, postcode, city)
       values ($1, 'ul. Laboratoryjna', '1', '00-001', 'Warszawa') returning id`,
      [`Poradnia bench próbek ${u + 1}`],
    );
    const login = u === 0 ? PROBE_DOCTOR.login : `probki${u}.${Date.now()}@bench.example.pl`;
    const hash = u === 0 ? await hashPassword(PROBE_DOCTOR.password) : 'x';
    const doctorId = await one(
      db,
      `with account as (
         insert into users (login, password_hash, role, changed_password_at)
         values ($1, $2, 'doctor', now()) returning id)
       insert into doctors (user_id, firstname, surname, email, phone_number, unit_id)
       select id, 'Jan', 'Próbkowy', $1, '600100200', $3 from account returning id`,
      [login, hash, unitId],
    );
    unitIds.push(unitId);
    doctorIds.push(doctorId);
  }
  await db.executeSql('alter table patients disable trigger user');
  await db.executeSql('alter table probes disable trigger user');
  try {
    await db.executeSql(`
      with accounts as (
        insert into users (login, password_hash, role)
        select 'bench-probe-patient-' || g, 'x', 'patient' from generate_series(1, ${PATIENTS}) g
        returning id, split_part(login, '-', 4)::int as g)
      insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                            acceptance, doctor_id, unit_id)
      select a.id, (${sqlTextArray(firstnames.M)})[1 + ${pick('a.g', 1, firstnames.M.length)}],
             (${sqlTextArray(surnames)})[1 + ${pick('a.g', 2, surnames.length)}],
             '008' || lpad(a.g::text, 8, '0'), 'M', date '1960-01-01', '600100200', true,
             (array[${doctorIds.join(',')}])[1 + a.g % ${UNITS}],
             (array[${unitIds.join(',')}])[1 + a.g % ${UNITS}]
      from accounts a`);
    log(`  ${PATIENTS} patients in ${UNITS} units`);
    const indexes = (
      await db.executeSql(
        `select indexname, indexdef from pg_indexes
         where tablename = 'probes' and indexname not in
           (select conname from pg_constraint where conrelid = 'probes'::regclass)`,
      )
    ).rows.map((row) => ({ name: String(row.indexname), def: String(row.indexdef) }));
    for (const index of indexes) await db.executeSql(`drop index ${index.name}`);
    const carrier = await one(db, 'select min(id) as id from carriers');
    const insertStarted = performance.now();
    await db.executeSql(`
      with patient_list as (
        select row_number() over (order by id) - 1 as k, id, firstname, surname from patients
        where user_id in (select id from users where login like 'bench-probe-patient-%'))
      insert into probes (code, patient_id, probe_number, status, date_of_sample, type_of_test,
        type_of_material, collect_place, carrier_id, ordered_by_firstname, ordered_by_surname,
        ordered_at, patient_firstname, patient_surname, patient_address_street,
        patient_address_building, patient_address_postcode, patient_address_city, created_at,
        updated_at)
      select 'B' || lpad(g::text, 7, '0') || 'ZP', p.id, g / ${PATIENTS} + 1,
        (array['collected','sent','received'])[1 + ${pick('g', 3, 3)}],
        (now() - g * interval '${SPACING_SECONDS} seconds')::date, 'biochemistry',
        case when ${pick('g', 4, 4)} = 0 then 'capillary' else 'venous' end, 'clinic', ${carrier},
        'Jan', 'Próbkowy', (now() - g * interval '${SPACING_SECONDS} seconds')::date,
        p.firstname, p.surname, 'ul. Długa', '1', '00-001', 'Warszawa',
        now() - g * interval '${SPACING_SECONDS} seconds',
        now() - g * interval '${SPACING_SECONDS} seconds'
      from generate_series(0, ${BENCH_PROBES - 1}) g
      join patient_list p on p.k = g % ${PATIENTS}`);
    log(
      `  ${BENCH_PROBES} samples inserted in ${((performance.now() - insertStarted) / 1000).toFixed(0)} s`,
    );
    const indexStarted = performance.now();
    for (const index of indexes) await db.executeSql(index.def);
    await db.executeSql('analyze probes');
    await db.executeSql('analyze patients');
    log(
      `  ${indexes.length} indexes built in ${((performance.now() - indexStarted) / 1000).toFixed(0)} s`,
    );
  } finally {
    await db.executeSql('alter table patients enable trigger user');
    await db.executeSql('alter table probes enable trigger user');
  }
  const patientId = await one(
    db,
    'select min(id) as id from patients where unit_id = $1 and user_id in (select id from users where login like $2)',
    [unitIds[0], 'bench-probe-patient-%'],
  );
  return {
    probes: BENCH_PROBES,
    seconds: (performance.now() - started) / 1000,
    patientId,
    // A month ago, or halfway back for a smaller BENCH_PROBES.
    day: addDays(
      warsawDay(),
      -Math.min(30, Math.floor((BENCH_PROBES * SPACING_SECONDS) / 86_400 / 2)),
    ),
  };
}

export async function signInDoctor(baseUrl: string): Promise<Client> {
  const response = await fetch(`${baseUrl}/api/auth/login/doctor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(PROBE_DOCTOR),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`doctor sign-in failed: ${response.status}`);
  return { baseUrl, headers: { authorization: `Bearer ${body.access_token}` } };
}

export interface ProbeCaseResult extends CaseResult {
  who: 'admin' | 'doctor';
  /** API p95 over the replayed statements' p95. */
  ratio: number | null;
  /** The same through `app.inject` (no socket) over the replayed statements' p95. */
  inProcessRatio: number | null;
}

export async function measureProbes(
  db: BenchDatabase,
  clients: { admin: Client; doctor: Client },
  fixture: ProbesFixture,
  rounds: Rounds,
  log: (line: string) => void,
): Promise<ProbeCaseResult[]> {
  const base = '/api/probes?limit=20&page=1';
  const cases = [
    { name: 'first page (newest first)', url: base },
    { name: 'sort by patient', url: `${base}&order_by=patient&order_direction=asc` },
    { name: 'search "kowal"', url: `${base}&search=kowal` },
    { name: 'one patient', url: `${base}&patientIds=${fixture.patientId}` },
    { name: 'one day', url: `${base}&from_date=${fixture.day}&to_date=${fixture.day}` },
    { name: 'page 500', url: '/api/probes?limit=20&page=500' },
  ];
  const results: ProbeCaseResult[] = [];
  log(
    `  load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  // The floor every request pays (HTTP, no database), to read the ratios against.
  const floor = await timeRounds(rounds, async () => {
    await get(clients.admin, '/api/health');
  });
  log(
    `  HTTP floor (GET /api/health) p50 ${floor.p50.toFixed(1)} ms / p95 ${floor.p95.toFixed(1)} ms`,
  );
  for (const who of ['admin', 'doctor'] as const) {
    const client = clients[who];
    for (let i = 0; i < 20; i++) await get(client, base);
    for (const benchCase of cases) {
      // The first call counts the total, which is then remembered (ADR 021): the statements
      // captured and replayed are those of the calls the rounds time, the page without its count.
      await get(client, benchCase.url);
      const result = await measureCase(db, client, benchCase, rounds);
      const ratio = result.api && result.sql ? result.api.p95 / result.sql.p95 : null;
      const inProcessRatio =
        result.inProcess && result.sql ? result.inProcess.p95 / result.sql.p95 : null;
      results.push({ ...result, who, ratio, inProcessRatio });
      const ms = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} ms`);
      log(
        `  ${who.padEnd(6)} ${benchCase.name.padEnd(26)} ${result.status} total ${result.total ?? '-'}: ` +
          `API p50 ${ms(result.api?.p50)} / p95 ${ms(result.api?.p95)}, SQL (${result.statements}) ` +
          `p50 ${ms(result.sql?.p50)} / p95 ${ms(result.sql?.p95)}, ratio ${ratio?.toFixed(2) ?? 'n/a'}×; ` +
          `in process p50 ${ms(result.inProcess?.p50)} / p95 ${ms(result.inProcess?.p95)}, ` +
          `ratio ${inProcessRatio?.toFixed(2) ?? 'n/a'}×`,
      );
    }
  }
  return results;
}
