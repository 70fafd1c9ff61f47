import { performance } from 'node:perf_hooks';
import { addDays, buildPesel, warsawDay } from '@portal/shared';
import type { SqlExecutor } from '../db/client.js';
import { verifyAuditChain } from '../modules/audit/index.js';
import type { Client } from './cases.js';
import { httpRequest, keepAlive } from './http-client.js';
import { percentile } from './stats.js';
import { runBookings, unitWithPatients, weekdaysFrom } from './visits-bench.js';

/**
 * Issue 23's performance targets (ADR 048, ADR 049), measured, nothing asserted:
 * - `verifyAuditChain` over BENCH_AUDIT_ENTRIES (4,000,000) entries, seeded through the chain
 *   trigger itself in batches (so the chain is the one the database writes), in entries/s;
 * - a booking (`POST /api/visits`) and a patient edit with a reason (`PUT /api/patients/{id}`)
 *   with the chain and reason triggers of migration 0027 on, and off as before it (the chain's
 *   triggers disabled and `hash` nullable, in this throwaway database only), side by side in one
 *   run: the modes alternate round by round, so that the shared machine's load falls on both.
 */
export const AUDIT_ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 4_000_000);
/** Entries per INSERT … SELECT generate_series: one transaction each. */
const SEED_BATCH = 200_000;
const ROUNDS = 4;
/** Per round and mode: one-at-a-time bookings and edits, then a burst of concurrent bookings. */
const SEQUENTIAL = 25;
const CLIENTS = 16;
const PER_CLIENT = 4;
const SLOTS_PER_DAY = 16;
const EDIT_PATIENTS = 10;
const REASON = { code: 'source_correction', text: 'Bench: karta pacjenta' };

type Mode = 'chain' | 'before';

/**
 * Entries like the triggers write (a patient's column changed by a user), inserted by the
 * database through its own BEFORE INSERT chain trigger, which sees the rows the same statement
 * inserted before (so one statement chains many). The deferred head trigger is off while seeding
 * (it would run once per entry at commit) and the head written once at the end, as it would be.
 */
export async function seedAuditEntries(
  db: SqlExecutor,
  total: number,
  log: (line: string) => void,
): Promise<{ entries: number; seconds: number }> {
  const started = performance.now();
  await db.executeSql('alter table audit_entries disable trigger audit_entries_chain_head');
  try {
    for (let done = 0; done < total; done += SEED_BATCH) {
      const n = Math.min(SEED_BATCH, total - done);
      await db.executeSql(
        `insert into audit_entries (updated_at, user_id, patient_id, entity_name, entity_id,
                                    operation, column_name, old_value, new_value)
         select now() - make_interval(secs => ($1::int - g) / 10.0), null, null, 'patients',
                (g % 100000)::text, 'update', 'surname', 'Kowalska-' || (g - 1), 'Kowalska-' || g
         from generate_series($2::int + 1, $2::int + $3::int) g`,
        [total, done, n],
      );
      if ((done + n) % 1_000_000 === 0 || done + n === total) {
        log(
          `  audit entries: ${done + n} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
      }
    }
    await db.executeSql(
      `update audit_chain_head set (last_id, last_hash) =
         (select id, hash from audit_entries order by id desc limit 1) where id = 1`,
    );
  } finally {
    await db.executeSql('alter table audit_entries enable trigger audit_entries_chain_head');
  }
  const count = await db.executeSql('select count(*)::int as n from audit_entries');
  return { entries: Number(count.rows[0]?.n), seconds: (performance.now() - started) / 1000 };
}

/** Before migration 0027's chain (no digest, hash or reason copied) or as it is now. */
async function setMode(db: SqlExecutor, mode: Mode) {
  const action = mode === 'chain' ? 'enable' : 'disable';
  // Before 0027 an entry had no hash; the column stays nullable after the first switch (the
  // entries written meanwhile have none), which costs the chained writes nothing.
  if (mode === 'before') {
    await db.executeSql('alter table audit_entries alter column hash drop not null');
  }
  await db.executeSql(`alter table audit_entries ${action} trigger audit_entries_chain`);
  await db.executeSql(`alter table audit_entries ${action} trigger audit_entries_chain_head`);
}

interface EditFixture {
  bookingPatients: number[];
  bookingDays: string[];
  editPatients: number[];
}

/** A unit of patients to book once each, and qualified patients (valid PESELs) to edit. */
async function seedWrites(db: SqlExecutor): Promise<EditFixture> {
  const bookings = CLIENTS + ROUNDS * 2 * (SEQUENTIAL + CLIENTS * PER_CLIENT);
  const unit = await unitWithPatients(db, 'Poradnia bench: łańcuch', bookings, 3);
  const editPatients: number[] = [];
  for (let i = 0; i < EDIT_PATIENTS; i++) {
    const pesel = buildPesel({ year: 1961, month: 3, day: 1 + i }, 100 + i * 10, 'K');
    const { rows } = await db.executeSql(
      `with account as (
         insert into users (login, password_hash, role) values ($1, 'x', 'patient') returning id)
       insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                             acceptance, doctor_id, unit_id, is_above_18, is_classified)
       select id, 'Zofia', 'Edytowana', $2, 'K', $3, '600100200', true, $4, $5, true, true
       from account returning id`,
      [
        `lancuch.${i}.${Date.now()}`,
        pesel,
        `1961-03-${String(1 + i).padStart(2, '0')}`,
        unit.doctorId,
        unit.unitId,
      ],
    );
    editPatients.push(Number(rows[0]?.id));
  }
  return {
    bookingPatients: unit.patientIds,
    bookingDays: weekdaysFrom(addDays(warsawDay(), 7), Math.ceil(bookings / SLOTS_PER_DAY)),
    editPatients,
  };
}

interface PatientDetail {
  firstname: string;
  pesel: string;
  phone_number: string;
  doctor_id: number;
  unit_id: number;
  is_above_18: boolean;
  exclusion_criteria_id: number | null;
  is_classified: boolean;
  version: number;
}

export interface WriteTimes {
  booking: number[];
  edit: number[];
  concurrent: number[];
}

export interface AuditChainBenchResult {
  seed: { entries: number; seconds: number };
  verify: { ok: boolean; checked: number; seconds: number; perSecond: number };
  writes: Record<Mode, WriteTimes> | null;
}

export async function measureVerify(db: SqlExecutor) {
  const started = performance.now();
  const answer = await verifyAuditChain(db);
  const seconds = (performance.now() - started) / 1000;
  return { ok: answer.ok, checked: answer.checked, seconds, perSecond: answer.checked / seconds };
}

/** The write side: bookings and edits, the two modes alternating round by round. */
export async function measureChainOverhead(
  db: SqlExecutor,
  client: Client,
  log: (line: string) => void,
): Promise<Record<Mode, WriteTimes>> {
  const fixture = await seedWrites(db);
  const agent = keepAlive(1);
  let next = 0;
  const bookingBody = () => {
    const k = next++;
    return {
      patient_id: fixture.bookingPatients[k],
      date: fixture.bookingDays[Math.floor(k / SLOTS_PER_DAY)],
      started_at: `${String(8 + Math.floor((k % SLOTS_PER_DAY) / 2)).padStart(2, '0')}:${k % 2 ? '30' : '00'}`,
    };
  };
  const statuses: Record<string, number> = {};
  // Every answer counted, so that a refused write (a 409, a 422) is seen, not timed as a write.
  const tally = (what: string, answers: Record<string, number>) => {
    for (const [status, n] of Object.entries(answers)) {
      statuses[`${what} ${status}`] = (statuses[`${what} ${status}`] ?? 0) + n;
    }
  };
  let edits = 0;
  const edit = async (patientId: number): Promise<number> => {
    const url = new URL(`${client.baseUrl}/api/patients/${patientId}`);
    const read = await httpRequest(agent, url, { headers: client.headers });
    const p = JSON.parse(read.body) as PatientDetail;
    const body = JSON.stringify({
      personal: {
        firstname: p.firstname,
        surname: `Edytowana-${++edits}`,
        pesel: p.pesel,
        phone_number: p.phone_number,
        doctor_id: p.doctor_id,
        unit_id: p.unit_id,
      },
      exclusion: {
        is_above_18: p.is_above_18,
        exclusion_criteria_id: p.exclusion_criteria_id,
        is_classified: p.is_classified,
      },
      inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
      medicines: [],
      additional_medicines: [],
      version: p.version,
      reason: REASON,
    });
    const sent = performance.now();
    const { status } = await httpRequest(agent, url, {
      method: 'PUT',
      headers: client.headers,
      body,
    });
    const ms = performance.now() - sent;
    tally('edit', { [status]: 1 });
    return ms;
  };

  // Untimed: one booking per client opens the sockets and pool connections; a few edits warm.
  await runBookings({
    baseUrl: client.baseUrl,
    headers: client.headers,
    bodies: Array.from({ length: CLIENTS }, () => [bookingBody()]),
  });
  for (const id of fixture.editPatients.slice(0, 3)) await edit(id);

  const times: Record<Mode, WriteTimes> = {
    chain: { booking: [], edit: [], concurrent: [] },
    before: { booking: [], edit: [], concurrent: [] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    const order: Mode[] = round % 2 === 0 ? ['before', 'chain'] : ['chain', 'before'];
    for (const mode of order) {
      await setMode(db, mode);
      const one = await runBookings({
        baseUrl: client.baseUrl,
        headers: client.headers,
        bodies: [Array.from({ length: SEQUENTIAL }, bookingBody)],
      });
      times[mode].booking.push(...one.latencies);
      tally('booking', one.statuses);
      for (let i = 0; i < SEQUENTIAL; i++) {
        times[mode].edit.push(await edit(fixture.editPatients[i % EDIT_PATIENTS]!));
      }
      const burst = await runBookings({
        baseUrl: client.baseUrl,
        headers: client.headers,
        bodies: Array.from({ length: CLIENTS }, () =>
          Array.from({ length: PER_CLIENT }, bookingBody),
        ),
      });
      times[mode].concurrent.push(...burst.latencies);
      tally('booking', burst.statuses);
    }
    log(`  write round ${round + 1}/${ROUNDS} done`);
  }
  await setMode(db, 'chain');
  agent.destroy();
  log(`  answers: ${JSON.stringify(statuses)}`);
  if (Object.keys(statuses).some((key) => !/ 2\d\d$/.test(key))) {
    log('  WARNING: some writes were refused; their times are not those of a write');
  }
  return times;
}

const summary = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean };
};

/** The lines the bench prints. */
export function formatAuditChain(label: string, result: AuditChainBenchResult): string[] {
  const v = result.verify;
  const lines = [
    `${label}: seeded ${result.seed.entries} audit entries through the chain trigger in ` +
      `${result.seed.seconds.toFixed(0)} s (${(result.seed.entries / result.seed.seconds).toFixed(0)} entries/s)`,
    `${label}: verify ${v.checked} entries: ok ${v.ok}, ${v.seconds.toFixed(1)} s, ` +
      `${v.perSecond.toFixed(0)} entries/s (target: 4,000,000 under 60 s)`,
  ];
  if (!result.writes) return lines;
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  for (const [name, key] of [
    ['booking (one at a time)', 'booking'],
    ['patient edit with a reason', 'edit'],
    [`booking at ${CLIENTS} clients`, 'concurrent'],
  ] as const) {
    const before = summary(result.writes.before[key]);
    const chain = summary(result.writes.chain[key]);
    lines.push(
      `${label}: ${name}: before p50 ${ms(before.p50)} / mean ${ms(before.mean)} / p95 ${ms(before.p95)}; ` +
        `chain+reason p50 ${ms(chain.p50)} / mean ${ms(chain.mean)} / p95 ${ms(chain.p95)}; ` +
        `ratio p50 ${(chain.p50 / before.p50).toFixed(2)}×, mean ${(chain.mean / before.mean).toFixed(2)}× ` +
        `(n ${chain.n} each; target ≤ 1.20×)`,
    );
  }
  return lines;
}
