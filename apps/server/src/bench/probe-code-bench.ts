import { performance } from 'node:perf_hooks';
import { SETTING_DEFAULTS, buildProbeCode } from '@portal/shared';
import type { Database, SqlExecutor } from '../db/client.js';
import { readCodeFacts } from '../modules/probes/index.js';
import type { Client } from './cases.js';
import { httpRequest, keepAlive } from './http-client.js';
import { percentile } from './stats.js';

/**
 * Issue 10's target "code generation under 5 ms", measured (nothing asserted):
 * `POST /api/probes/generate_code/{patient_id}` for a patient with 40 samples, one request at a
 * time over kept-alive HTTP, beside GET /api/health (the floor every request pays) and
 * buildProbeCode alone in-process. Its own unit, doctor and patient, written by SQL.
 */
const CALLS = 300;
const WARMUP = 30;
const EXISTING_PROBES = 40;
const IN_PROCESS = 20_000;

async function one(db: SqlExecutor, text: string, params: unknown[] = []): Promise<number> {
  return Number((await db.executeSql(text, params)).rows[0]?.id);
}

/** A patient of a unit of its own, with an inclusion group and 40 samples already taken. */
export async function seedProbeCodeBench(db: SqlExecutor): Promise<{ patientId: number }> {
  const tag = String(Date.now() % 1_000_000).padStart(6, '0');
  const unitId = await one(
    db,
    `insert into units (name, street, building_nr, postcode, city)
     values ($1, 'ul. Laboratoryjna', '1', '00-001', 'Warszawa') returning id`,
    [`Poradnia bench: próbki ${tag}`],
  );
  const doctorId = await one(
    db,
    `with account as (
       insert into users (login, password_hash, role, changed_password_at)
       values ($1, 'x', 'doctor', now()) returning id)
     insert into doctors (user_id, firstname, surname, email, phone_number, unit_id)
     select id, 'Jan', 'Próbkowy', $1, '600100200', $2 from account returning id`,
    [`probki${tag}@bench.example.pl`, unitId],
  );
  const patientId = await one(
    db,
    `with account as (
       insert into users (login, password_hash, role) values ($1, 'x', 'patient') returning id)
     insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                           acceptance, doctor_id, unit_id, project_number)
     select id, 'Anna', 'Próbkowa', '00933' || $2, 'K', date '1960-01-01', '600100200', true,
            $3, $4, 'B' || $2 from account returning id`,
    [`probki.${tag}`, tag, doctorId, unitId],
  );
  await db.executeSql(
    `insert into patient_inclusions (patient_id, group_id)
     select $1, id from inclusion_criteria_groups order by id limit 1`,
    [patientId],
  );
  await db.executeSql(
    `insert into probes (code, patient_id, probe_number, date_of_sample, carrier_id,
       ordered_by_firstname, ordered_by_surname, ordered_at, patient_firstname, patient_surname,
       patient_address_street, patient_address_building, patient_address_postcode,
       patient_address_city)
     select 'BENCH-' || $2 || '-' || n, $1, n, date '2026-01-05',
            (select min(id) from carriers), 'Jan', 'Próbkowy', date '2026-01-05', 'Anna',
            'Próbkowa', 'Długa', '1', '00-001', 'Warszawa'
     from generate_series(1, $3::int) n`,
    [patientId, tag, EXISTING_PROBES],
  );
  return { patientId };
}

const agent = keepAlive(1);

async function timeCalls(send: () => Promise<{ status: number }>) {
  for (let i = 0; i < WARMUP; i++) await send();
  const samples: number[] = [];
  let status = 0;
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    status = (await send()).status;
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { status, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

function timeInProcess() {
  const facts = {
    sex: 'K' as const,
    project_number: 'B123456',
    participant_id: 1,
    unit_id: 12,
    next_probe_number: 41,
    group_id: 2,
    type_of_material: 'venous' as const,
    collect_place: 'clinic' as const,
  };
  const samples: number[] = [];
  let code = '';
  for (let i = 0; i < IN_PROCESS; i++) {
    const started = performance.now();
    code = buildProbeCode(SETTING_DEFAULTS.probe_config, { ...facts, next_probe_number: i });
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { code, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** The lines `npm run bench` prints for the probe-code case. */
export async function measureProbeCode(
  db: SqlExecutor & { db: Database },
  client: Client,
): Promise<string[]> {
  const { patientId } = await seedProbeCodeBench(db);
  const url = new URL(`${client.baseUrl}/api/probes/generate_code/${patientId}`);
  const body = JSON.stringify({ type_of_material: 'venous', collect_place: 'clinic' });
  const preview = await timeCalls(() =>
    httpRequest(agent, url, { method: 'POST', headers: client.headers, body }),
  );
  const carriers = await timeCalls(() =>
    httpRequest(agent, new URL(`${client.baseUrl}/api/probes/carriers`), {
      headers: client.headers,
    }),
  );
  const health = await timeCalls(() =>
    httpRequest(agent, new URL(`${client.baseUrl}/api/health`), { headers: {} }),
  );
  // The one statement the endpoint sends, through the same prepared query, in-process.
  const statement = await timeCalls(async () => {
    await readCodeFacts(db.db, patientId, null);
    return { status: 200 };
  });
  const local = timeInProcess();
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const us = (value: number) => `${(value * 1000).toFixed(2)} µs`;
  return [
    `generate_code (patient with ${EXISTING_PROBES} samples) ${preview.status}: p50 ${ms(preview.p50)}, p95 ${ms(preview.p95)} over ${CALLS} calls (target < 5 ms)`,
    `  its one statement alone (prepared, in-process): p50 ${ms(statement.p50)}, p95 ${ms(statement.p95)}`,
    `  GET /api/probes/carriers (signed in, one small query): p50 ${ms(carriers.p50)}, p95 ${ms(carriers.p95)}`,
    `  GET /api/health over the same client: p50 ${ms(health.p50)}, p95 ${ms(health.p95)}`,
    `  buildProbeCode in-process: p50 ${us(local.p50)}, p95 ${us(local.p95)} over ${IN_PROCESS} runs`,
  ];
}
