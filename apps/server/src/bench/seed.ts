import { performance } from 'node:perf_hooks';
import type { SqlExecutor } from '../db/client.js';
import {
  ADDITIONAL_MEDICINES,
  CITIES,
  STREETS,
  SURNAME_POOL_SIZE,
  firstnames,
  sqlTextArray,
  surnamePool,
} from './names.js';

export const PATIENTS = 100_000;
const UNITS = 16;
const DOCTORS_PER_UNIT = 3;
/**
 * Patients are written in transactions of this many, so that the audit trail has several
 * timestamps and no single transaction holds millions of trigger rows.
 */
const BATCH = 10_000;
/** Doctors' comments on 30% of the patients (rich text, as the notes editor saves it). */
const NOTES = [
  '<p>Pacjent stabilny, ciśnienie w normie. Kontrola za 3 miesiące.</p>',
  '<p>Zgłasza obrzęki kostek po amlodypinie; <strong>obserwować</strong>.</p>',
  '<p>Lipidogram do powtórzenia przed następną wizytą.</p>',
];

export interface SeedResult {
  seconds: number;
  patients: number;
  auditEntries: number;
  patientMedicines: number;
}

/** A well-mixed pseudo-random number in [0, n) from an integer expression and a salt. */
const pick = (expr: string, salt: number, n: number | string) =>
  `(abs(hashint4((${expr}) * 31 + ${salt})) % ${n})`;

/**
 * The PESEL of patient g: a real birth date between 1935 and 2003, a serial that keeps the
 * numbers unique (25,000 dates, the serial's hundreds say which of the patients on that date it
 * is), the sex digit and the check digit. Expects `g`, `sex` and `birth` in scope.
 */
const PESEL_DIGITS = `
  to_char(birth, 'YY')
  || lpad((extract(month from birth)::int + case when birth >= date '2000-01-01' then 20 else 0 end)::text, 2, '0')
  || to_char(birth, 'DD')
  || lpad(((g / 25000) * 100 + ${pick('g', 2, 100)})::text, 3, '0')
  || ((${pick('g', 3, 5)}) * 2 + case when sex = 'M' then 1 else 0 end)::text`;

function patientsBatch(from: number, to: number, adminUserId: number): string {
  return `
begin;
select set_config('app.user_id', '${adminUserId}', true);
with base as (
  select g,
         case when ${pick('g', 1, 2)} = 0 then 'K' else 'M' end as sex,
         date '1935-01-01' + ((g % 25000) * 7919 % 25000) as birth
  from generate_series(${from}, ${to}) g
), numbered as (
  select base.*, ${PESEL_DIGITS} as digits from base
), people as (
  select n.*, n.digits || ((10 - (
      select sum(substr(n.digits, i, 1)::int * (array[1,3,7,9,1,3,7,9,1,3])[i])
      from generate_series(1, 10) i) % 10) % 10)::text as pesel
  from numbered n
), accounts as (
  insert into users (login, password_hash, role)
  select 'bench-patient-' || g, 'x', 'patient' from people
  returning id, split_part(login, '-', 3)::int as g
)
insert into patients (user_id, firstname, surname, pesel, sex, birth_date, address_street,
  address_building, address_apartment, address_postcode, address_city, phone_number, email,
  weight, height, project_number, is_above_18, is_classified, is_finished, acceptance,
  doctor_id, unit_id)
select a.id,
  case when p.sex = 'K' then (${sqlTextArray(firstnames.K)})[1 + ${pick('p.g', 4, firstnames.K.length)}]
       else (${sqlTextArray(firstnames.M)})[1 + ${pick('p.g', 4, firstnames.M.length)}] end,
  (case when p.sex = 'K' then s.female else s.male end),
  p.pesel, p.sex, p.birth,
  (${sqlTextArray(STREETS)})[1 + ${pick('p.g', 5, STREETS.length)}],
  (1 + ${pick('p.g', 6, 120)})::text,
  case when ${pick('p.g', 7, 3)} > 0 then (1 + ${pick('p.g', 8, 60)})::text end,
  lpad(${pick('p.g', 9, 100)}::text, 2, '0') || '-' || lpad(${pick('p.g', 10, 1000)}::text, 3, '0'),
  (${sqlTextArray(CITIES)})[1 + ${pick('p.g', 11, CITIES.length)}],
  (500000000 + ${pick('p.g', 12, 299999999)})::text,
  case when ${pick('p.g', 13, 2)} = 0 then 'pacjent' || p.g || '@example.pl' end,
  50 + ${pick('p.g', 14, 70)}, 150 + ${pick('p.g', 15, 45)},
  -- One active patient per project number (ADR 041).
  'FDC-' || lpad(p.g::text, 6, '0'),
  true, true, ${pick('p.g', 16, 10)} = 0, true, d.id, d.unit_id
from people p
join accounts a on a.g = p.g
join bench_surnames s on s.k = ${pick('p.g', 17, SURNAME_POOL_SIZE)}
join bench_doctors d on d.k = ${pick('p.g', 18, UNITS * DOCTORS_PER_UNIT)};

insert into patient_inclusions (patient_id, group_id, subgroup_id, dose)
select p.id, s.group_id, s.id, s.doses[1 + ${pick('p.id', 19, 'cardinality(s.doses)')}]
from patients p
join (select id, group_id, doses, (row_number() over (order by id) - 1)::int as k,
             count(*) over () as n from inclusion_criteria_subgroups) s
  on s.k = ${pick('p.id', 20, 's.n')}
where p.id > (select coalesce(max(patient_id), 0) from patient_inclusions);

insert into patient_medicines (patient_id, medicine_id, dose)
select p.id, m.id, m.doses[1 + ${pick('p.id', 21, 'cardinality(m.doses)')}]
from patients p
cross join lateral generate_series(0, ${pick('p.id', 22, 3)}) j
join (select id, doses, (row_number() over (order by id) - 1)::int as k, count(*) over () as n
      from medicines where is_visible) m
  on m.k = (${pick('p.id', 23, 1000)} + j * 5) % m.n
where p.id > (select coalesce(max(patient_id), 0) from patient_medicines);

insert into patient_additional_medicines (patient_id, name, dose)
select p.id, (${sqlTextArray(ADDITIONAL_MEDICINES)})[1 + ${pick('p.id', 24, ADDITIONAL_MEDICINES.length)}],
       (1 + ${pick('p.id', 25, 20)}) * 5
from patients p
where ${pick('p.id', 26, 10)} < 3
  -- Earlier patients above the last one with an additional medicine were not picked then either.
  and p.id > (select coalesce(max(patient_id), 0) from patient_additional_medicines);

insert into notes (ref_type, ref_id, patient_id, content, author_user_id)
select 'patient', p.id, p.id, (${sqlTextArray(NOTES)})[1 + ${pick('p.id', 27, NOTES.length)}], d.user_id
from patients p
join doctors d on d.id = p.doctor_id
where ${pick('p.id', 28, 10)} < 3
  and p.id > (select coalesce(max(patient_id), 0) from notes);
commit;`;
}

/** Care units and their doctors (not audited), and the surname pool as a temporary table. */
function staffAndPools(): string {
  const pool = surnamePool();
  const values = pool.map(([m, f], k) => `(${k}, '${m}', '${f}')`).join(',');
  return `
create temporary table bench_surnames (k int primary key, male text, female text);
insert into bench_surnames values ${values};
insert into units (name, street, building_nr, postcode, city)
select 'Poradnia Kardiologiczna nr ' || u, 'ul. Szpitalna', u::text, '00-' || lpad(u::text, 3, '0'),
       (${sqlTextArray(CITIES)})[u]
from generate_series(1, ${UNITS}) u;
with accounts as (
  insert into users (login, password_hash, role, changed_password_at)
  select 'lekarz' || d || '@bench.example.pl', 'x', 'doctor', now()
  from generate_series(1, ${UNITS * DOCTORS_PER_UNIT}) d
  returning id, login
)
insert into doctors (user_id, firstname, surname, email, phone_number, unit_id)
select a.id, (${sqlTextArray(firstnames.K)})[1 + d % 20],
       (select female from bench_surnames where k = d * 173), a.login,
       (600000000 + d)::text, (select min(id) from units) + (d - 1) / ${DOCTORS_PER_UNIT}
from accounts a cross join lateral (select substring(a.login from '[0-9]+')::int as d) n;
create temporary table bench_doctors as
  select (row_number() over (order by id) - 1)::int as k, id, unit_id from doctors;`;
}

/**
 * Seeds the whole study: units, doctors and 100,000 patients with inclusions, 1–3 medicines and
 * sometimes an additional medicine and a doctor's comment, all by set-based SQL with the audit triggers on, so that the
 * audit trail is written as the app writes it (one entry per column, in the administrator's name).
 */
export async function seedStudy(
  db: SqlExecutor,
  adminUserId: number,
  log: (line: string) => void,
  patients = PATIENTS,
): Promise<SeedResult> {
  const started = performance.now();
  await db.executeSql(staffAndPools());
  for (let from = 1; from <= patients; from += BATCH) {
    const to = Math.min(patients, from + BATCH - 1);
    await db.executeSql(patientsBatch(from, to, adminUserId));
    log(`  ${to} patients (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await db.executeSql('drop table bench_surnames; drop table bench_doctors; analyze;');
  const count = async (table: string) =>
    Number((await db.executeSql(`select count(*)::int as n from ${table}`)).rows[0]?.n ?? 0);
  return {
    seconds: (performance.now() - started) / 1000,
    patients: await count('patients'),
    auditEntries: await count('audit_entries'),
    patientMedicines: await count('patient_medicines'),
  };
}
