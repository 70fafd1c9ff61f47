import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { ensureInitialAdmin } from '../modules/admins/index.js';
import { buildFakeOru } from '../modules/lab/index.js';
import type { FakeObservation } from '../modules/lab/index.js';
import type { BenchDatabase } from './databases.js';

const MESSAGES = Number(process.env.BENCH_HL7_MESSAGES ?? 1_000);
const PATIENTS = 50;
/** Drugs per sample: with ALT, AST, creatinine and bilirubin, 20 results a message (issue 20). */
const DRUGS = 16;
/** The large message: BIG_SAMPLES groups of 20 results (and the hours), 10,000 results. */
const BIG_SAMPLES = 500;
const CONCURRENCY = 8;
const LAB = { login: 'bench-lab', password: 'bench-lab-password-2026' };

/**
 * `BENCH_ONLY=hl7` (issues 12 and 20): MESSAGES ORU^R01 from the fake laboratory (20 results for
 * one sample each: four biochemistry values, one of them `<^0.5`, and DRUGS concentrations, plus
 * the hours since the dose) through `POST /api/lab/hl7` over HTTP with HTTP Basic, one after the
 * other, then the same number again from CONCURRENCY senders (new control ids, the same
 * samples: corrections); then one message of BIG_SAMPLES × 20 = 10,000 results. Targets: 1,000
 * messages in ≤ 10 s, the large one answered in ≤ 5 s. Prints lines; asserts nothing.
 */
export async function measureHl7(
  db: BenchDatabase,
  admin: { login: string; password: string },
  log: (line: string) => void,
): Promise<void> {
  await ensureInitialAdmin(db.handle.db, admin);
  const { codes, bigCodes, drugCodes } = await seedSamples(db);
  const app = await buildApp({
    db: db.handle.db,
    config: loadConfig({ LOG_LEVEL: 'silent' }, null),
    logger: false,
    secretKey: randomBytes(32),
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    await configureLab(baseUrl, admin);
    const authorization = `Basic ${Buffer.from(`${LAB.login}:${LAB.password}`).toString('base64')}`;
    const send = async (controlId: string, code: string): Promise<number> => {
      const body = buildFakeOru({
        controlId,
        sex: 'M',
        birthDate: '19600101',
        samples: [{ code, observations: panel(drugCodes) }],
      });
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/lab/hl7`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'x-application/hl7-v2+er7' },
        body,
      });
      const ack = await response.text();
      if (!ack.includes('MSA|AA|')) throw new Error(`not accepted: ${response.status}`);
      return performance.now() - started;
    };
    // Warm-up: the first requests compile the route's schemas and prepare the statements.
    for (let i = 0; i < 10; i++) await send(`WARM-${i}`, codes[i % codes.length]!);

    const sequential: number[] = [];
    const started = performance.now();
    for (let i = 0; i < MESSAGES; i++) {
      sequential.push(await send(`SEQ-${i}`, codes[i % codes.length]!));
    }
    const sequentialSeconds = (performance.now() - started) / 1000;

    const concurrent: number[] = [];
    let next = 0;
    const concurrentStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MESSAGES) {
          const i = next++;
          concurrent.push(await send(`PAR-${i}`, codes[i % codes.length]!));
        }
      }),
    );
    const concurrentSeconds = (performance.now() - concurrentStarted) / 1000;
    const stored = await db.handle.executeSql(
      "select count(*)::int as n from lab_messages where status = 'accepted'",
    );
    const big = buildFakeOru({
      controlId: 'BIG-1',
      sex: 'M',
      birthDate: '19600101',
      samples: bigCodes.map((code) => ({ code, observations: panel(drugCodes) })),
    });
    const bigStarted = performance.now();
    const bigResponse = await fetch(`${baseUrl}/api/lab/hl7`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'x-application/hl7-v2+er7' },
      body: big,
    });
    const bigAck = await bigResponse.text();
    const bigSeconds = (performance.now() - bigStarted) / 1000;
    log(
      `  hl7: ${MESSAGES} messages of 20 results one by one in ${sequentialSeconds.toFixed(2)} s ` +
        `(${(MESSAGES / sequentialSeconds).toFixed(0)}/s, p50 ${pct(sequential, 0.5)} ms, ` +
        `p95 ${pct(sequential, 0.95)} ms; target ≤ 10 s)`,
    );
    log(
      `  hl7: ${MESSAGES} messages from ${CONCURRENCY} senders in ${concurrentSeconds.toFixed(2)} s ` +
        `(${(MESSAGES / concurrentSeconds).toFixed(0)}/s, p50 ${pct(concurrent, 0.5)} ms, ` +
        `p95 ${pct(concurrent, 0.95)} ms); ${String(stored.rows[0]?.n)} accepted messages stored`,
    );
    log(
      `  hl7: one message of ${BIG_SAMPLES * 20} results (${(big.length / 1024).toFixed(0)} kB) ` +
        `answered in ${bigSeconds.toFixed(2)} s, HTTP ${bigResponse.status}, ` +
        `${bigAck.includes('MSA|AA|') ? 'AA' : 'not accepted'}; target ≤ 5 s`,
    );
  } finally {
    await app.close();
  }
}

function pct(values: number[], p: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(1);
}

async function configureLab(baseUrl: string, admin: { login: string; password: string }) {
  const signIn = await fetch(`${baseUrl}/api/auth/login/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const { access_token: token } = (await signIn.json()) as { access_token?: string };
  if (!token) throw new Error(`sign-in failed: ${signIn.status}`);
  const saved = await fetch(`${baseUrl}/api/settings/synevo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      value: { ...LAB, unit_code: 'BENCH', enable_results_import: true },
    }),
  });
  if (!saved.ok) throw new Error(`synevo setting: ${saved.status}`);
}

/** Twenty results for one sample: biochemistry (bilirubin below its detection limit) and drugs. */
function panel(drugCodes: readonly string[]): FakeObservation[] {
  return [
    { code: 'ALT', value: 25, unit: 'U/L', range: '10-40' },
    { code: 'AST', value: 22, unit: 'U/L', range: '10-40' },
    { code: 'CREA', value: '0,9', unit: 'mg/dL', range: '0,6 - 1,2' },
    { code: 'BIL', value: '<^0.5', unit: 'mg/dL', range: '<1.2', valueType: 'SN' },
    ...drugCodes.map((code) => ({ code, value: 12.5, unit: 'ng/mL' })),
    { code: 'HSLD', value: 6, unit: 'h' },
  ];
}

/**
 * One unit and doctor, PATIENTS men born 1960-01-01, MESSAGES + BIG_SAMPLES samples spread over
 * them, each tested for the first DRUGS medicines.
 */
async function seedSamples(
  db: BenchDatabase,
): Promise<{ codes: string[]; bigCodes: string[]; drugCodes: string[] }> {
  const sql = db.handle;
  const unit = await sql.executeSql(
    `insert into units (name, street, building_nr, postcode, city)
     values ('Poradnia bench HL7', 'ul. Laboratoryjna', '1', '00-001', 'Warszawa') returning id`,
  );
  const unitId = Number(unit.rows[0]?.id);
  const doctor = await sql.executeSql(
    `with account as (
       insert into users (login, password_hash, role, changed_password_at)
       values ('hl7.bench@bench.example.pl', 'x', 'doctor', now()) returning id)
     insert into doctors (user_id, firstname, surname, email, phone_number, unit_id)
     select id, 'Jan', 'Laboratoryjny', 'hl7.bench@bench.example.pl', '600100200', $1
     from account returning id`,
    [unitId],
  );
  const doctorId = Number(doctor.rows[0]?.id);
  await sql.executeSql(
    `with accounts as (
       insert into users (login, password_hash, role)
       select 'bench-hl7-patient-' || g, 'x', 'patient' from generate_series(1, ${PATIENTS}) g
       returning id, split_part(login, '-', 4)::int as g)
     insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                           acceptance, doctor_id, unit_id)
     select a.id, 'Jan', 'Badany', '600' || lpad(a.g::text, 8, '0'), 'M', date '1960-01-01',
            '600100200', true, ${doctorId}, ${unitId}
     from accounts a`,
  );
  await sql.executeSql(
    `with patient_list as (
       select row_number() over (order by id) - 1 as k, id from patients
       where user_id in (select id from users where login like 'bench-hl7-patient-%'))
     insert into probes (code, patient_id, probe_number, status, date_of_sample, type_of_test,
       type_of_material, collect_place, carrier_id, ordered_by_firstname, ordered_by_surname,
       ordered_at, patient_firstname, patient_surname, patient_address_street,
       patient_address_building, patient_address_postcode, patient_address_city)
     select 'H' || lpad(g::text, 7, '0'), p.id, g / ${PATIENTS} + 1, 'sent', current_date,
       'biochemistry', 'venous', 'clinic', (select min(id) from carriers), 'Jan', 'Laboratoryjny',
       current_date, 'Jan', 'Badany', 'ul. Długa', '1', '00-001', 'Warszawa'
     from generate_series(0, ${MESSAGES + BIG_SAMPLES - 1}) g
     join patient_list p on p.k = g % ${PATIENTS}`,
  );
  await sql.executeSql(
    `insert into probe_medicines (probe_id, patient_id, medicine_id)
     select p.id, p.patient_id, m.id from probes p
     cross join (select id from medicines order by id limit ${DRUGS}) m
     where p.code like 'H%' and p.patient_id in (
       select id from patients where user_id in (select id from users where login like 'bench-hl7-patient-%'))`,
  );
  const drugs = await sql.executeSql(`select cas from medicines order by id limit ${DRUGS}`);
  const code = (g: number) => `H${String(g).padStart(7, '0')}`;
  return {
    codes: Array.from({ length: MESSAGES }, (_, g) => code(g)),
    bigCodes: Array.from({ length: BIG_SAMPLES }, (_, g) => code(MESSAGES + g)),
    drugCodes: drugs.rows.map((row) => String(row.cas)),
  };
}
