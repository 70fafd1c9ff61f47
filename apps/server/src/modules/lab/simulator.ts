import type { AddressInfo } from 'node:net';
import { warsawToday, warsawWallClock } from '@portal/shared';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import { labMessages, medicines, patients, probeMedicines, probes } from '../../db/schema.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { SecretBox } from '../../lib/secrets.js';
import { readSynevoCredentials } from '../settings/index.js';
import { buildFakeOru } from './fake-lab.js';
import type { FakeObservation, FakeSample } from './fake-lab.js';
import { HOURS_CODE } from './hl7-parse.js';

/**
 * The demo's fake laboratory as a real sender (issue 12 §7): a background job that finds samples
 * scanned in at the laboratory without results, builds an ORU^R01 for each (biochemistry, the
 * sample's drugs with the hours since the dose, the patient's real sex and birth date) and POSTs
 * it to the portal's own `POST /api/lab/hl7` with the laboratory's login and password, as Synevo
 * would. Off unless `LAB_SIMULATOR=on` (config.ts refuses it with NODE_ENV=production unless
 * forced): it invents results for real samples.
 *
 * Each sample gets one message with the control id `SIM-<sample id>`, and a sample that already
 * has a message of that id (accepted or refused) is not sent again: the laboratory remembers
 * what it sent. So a refused message stays refused (its error shows on the settings screen) and
 * two overlapping runs deliver the same control id, which the connector stores once.
 */

export const LAB_SIMULATOR_JOB = 'lab.simulate';
export const SIMULATOR_CONTROL_PREFIX = 'SIM-';
const ER7_CONTENT_TYPE = 'x-application/hl7-v2+er7';
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * What the message of a sample looks like, by its id (deterministic, so a demo and a test can
 * tell which): every 10th deviates, alternately malformed (refused with AE: a haemolysed
 * sample's text in a numeric field, or creatinine in µmol/l) and out of norm (an ALT above the
 * laboratory's range, flagged but below the 3 × ULN of Hy's law, so no alert floods the demo).
 * One in twenty refused shows the connector's refusals without the demo looking broken.
 */
export type SimulatorVariant = 'normal' | 'out_of_norm' | 'malformed_text' | 'malformed_unit';

export function simulatorVariant(probeId: number): SimulatorVariant {
  // On a fresh demo database the three samples left to scan are 6, 7 and 8: one normal, one
  // flagged, one refused.
  switch (probeId % 40) {
    case 8:
      return 'malformed_text';
    case 28:
      return 'malformed_unit';
    case 7:
    case 27:
      return 'out_of_norm';
    default:
      return 'normal';
  }
}

export interface SimulatedSample {
  id: number;
  code: string;
  typeOfTest: 'biochemistry' | 'drug_concentration';
  /** YYYY-MM-DD. */
  dateOfSample: string;
  sex: 'M' | 'K';
  /** YYYY-MM-DD. */
  birthDate: string;
  /** OBX-3 codes of the drugs the sample is tested for (CAS number, else INN). */
  drugCodes: string[];
}

/** A small deterministic generator (mulberry32) seeded by the sample id: the same values again. */
function randomFor(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** Full years between a YYYY-MM-DD birth date and today (Warsaw). */
function ageOf(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** The laboratory's own ranges by sex (as Synevo prints them). */
const LAB_RANGES = {
  M: { alt: [10, 50], ast: [10, 50], crea: [0.7, 1.2] },
  K: { alt: [10, 35], ast: [10, 35], crea: [0.5, 0.9] },
} as const;

/**
 * `HHMM` on a day in HL7's form (YYYYMMDDHHMM): the given time, or the present minute when the day
 * is today and that time has not come yet. The parser refuses a time in the future (AE 102), so
 * the simulator's "analysed at 09:30" sent at 00:56 would be refused.
 */
export function notLaterThanNow(day: string, hhmm: string, now = new Date()): string {
  const clock = warsawWallClock(now);
  const wanted = Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2, 4));
  const present = Math.floor(clock.ms / 60_000);
  const minutes = clock.day === day ? Math.min(wanted, present) : wanted;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${day.replaceAll('-', '')}${two(Math.floor(minutes / 60))}${two(minutes % 60)}`;
}

/** The ORU^R01 of one sample (ER7) as the simulator sends it, with its variant applied. */
export function simulatedMessage(
  sample: SimulatedSample,
  today = warsawToday(),
  now = new Date(),
): string {
  const random = randomFor(sample.id);
  const between = (min: number, max: number) => min + (max - min) * random();
  const variant = simulatorVariant(sample.id);
  const ranges = LAB_RANGES[sample.sex];
  const analysedAt = notLaterThanNow(today, '0930', now);
  const observations: FakeObservation[] = [];

  if (sample.typeOfTest === 'biochemistry' || sample.drugCodes.length === 0) {
    const [altMin, altMax] = ranges.alt;
    const [creaMin, creaMax] = ranges.crea;
    // Creatinine drifts up with age (lower eGFR): older patients sit in the upper half.
    const creaShift = ageOf(sample.birthDate, today) >= 70 ? 0.3 : 0;
    const alt =
      variant === 'out_of_norm'
        ? Math.round(between(altMax * 1.2, altMax * 1.8))
        : Math.round(between(altMin + 5, altMax - 8));
    observations.push(
      { code: 'ALT', value: alt, unit: 'U/L', range: `${altMin}-${altMax}` },
      {
        code: 'AST',
        value: Math.round(between(ranges.ast[0] + 5, ranges.ast[1] - 8)),
        unit: 'U/L',
        range: `${ranges.ast[0]}-${ranges.ast[1]}`,
      },
      {
        code: 'CREA',
        value: round(creaMin + (creaMax - creaMin) * (between(0.15, 0.6) + creaShift), 2),
        unit: 'mg/dL',
        range: `${creaMin}-${creaMax}`,
      },
      { code: 'BIL', value: round(between(0.3, 1.0), 1), unit: 'mg/dL', range: '<1.2' },
    );
  }
  for (const code of sample.drugCodes) {
    // Trough-to-peak concentrations of the study's drugs, in ng/ml; above them when out of norm.
    const value = variant === 'out_of_norm' ? between(22, 30) : between(6, 16);
    observations.push({ code, value: round(value, 1), unit: 'ng/mL' });
  }
  if (sample.drugCodes.length > 0) {
    observations.push({ code: HOURS_CODE, value: Math.round(between(2, 24) * 2) / 2, unit: 'h' });
  }
  for (const observation of observations) observation.observedAt ??= analysedAt;

  const first = observations[0]!;
  if (variant === 'malformed_text') {
    first.value = 'hemoliza';
  } else if (variant === 'malformed_unit') {
    const crea = observations.find((observation) => observation.code === 'CREA');
    if (crea) {
      crea.value = Math.round(Number(crea.value) * 88.4);
      crea.unit = 'umol/L';
      crea.range = '';
    } else {
      first.unit = 'nmol/L';
    }
  }
  const order: FakeSample = {
    code: sample.code,
    observedAt: notLaterThanNow(sample.dateOfSample, '0800', now),
    observations,
  };
  return buildFakeOru({
    controlId: `${SIMULATOR_CONTROL_PREFIX}${sample.id}`,
    sex: sample.sex === 'K' ? 'F' : 'M',
    birthDate: sample.birthDate.replaceAll('-', ''),
    samples: [order],
  });
}

/** Samples scanned in at the laboratory, without results, that the simulator has not sent. */
export async function samplesToSend(db: Database, limit: number): Promise<SimulatedSample[]> {
  const rows = await db
    .select({
      id: probes.id,
      code: probes.code,
      typeOfTest: probes.type_of_test,
      dateOfSample: probes.date_of_sample,
      sex: patients.sex,
      birthDate: patients.birth_date,
    })
    .from(probes)
    .innerJoin(patients, eq(patients.id, probes.patient_id))
    .where(
      and(
        isNotNull(probes.arrived_at),
        isNull(probes.results_at),
        sql`not exists (select 1 from ${labMessages} where ${labMessages.control_id} = ${SIMULATOR_CONTROL_PREFIX} || ${probes.id}::text)`,
      ),
    )
    .orderBy(asc(probes.arrived_at), asc(probes.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const drugs = await db
    .select({ probeId: probeMedicines.probe_id, cas: medicines.cas, inn: medicines.inn })
    .from(probeMedicines)
    .innerJoin(medicines, eq(medicines.id, probeMedicines.medicine_id))
    .where(
      inArray(
        probeMedicines.probe_id,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(probeMedicines.medicine_id));
  return rows.map((row) => ({
    ...row,
    drugCodes: drugs
      .filter((drug) => drug.probeId === row.id)
      .map((drug) => drug.cas.trim() || drug.inn),
  }));
}

export interface SimulatorOutcome {
  probeId: number;
  controlId: string;
  /** The HTTP status of the answer; 0 when none came (refused connection, timeout). */
  status: number;
  /** MSA-1 of the ACK; null when the answer was not an ACK for this message. */
  ack: 'AA' | 'AE' | null;
  /** MSA-3 of an AE: segment and field names only, never patient data. */
  reason: string | null;
}

export interface SimulatorRun {
  /** Why nothing was sent: import switched off, no login or password, no address to send to. */
  skipped: 'disabled' | 'no_credentials' | 'no_address' | null;
  sent: number;
  accepted: number;
  refused: number;
  /** Deliveries that got no ACK (HTTP error or no answer): the run stops at the first. */
  failed: number;
  outcomes: SimulatorOutcome[];
}

/** MSA-1 and MSA-3 of an ER7 ACK, if it acknowledges `controlId`. */
export function readAck(
  text: string,
  controlId: string,
): { ack: 'AA' | 'AE' | null; reason: string | null } {
  const msa = text.split(/\r\n|\r|\n/).find((segment) => segment.startsWith('MSA|'));
  const fields = msa?.split('|') ?? [];
  const code = fields[1];
  if ((code !== 'AA' && code !== 'AE') || fields[2] !== controlId)
    return { ack: null, reason: null };
  return { ack: code, reason: code === 'AE' ? (fields[3] ?? null) : null };
}

export interface SimulatorOptions {
  /** Where the portal listens, e.g. `http://127.0.0.1:3000`; null skips the run. */
  baseUrl: string | null;
  batch: number;
}

/**
 * One run: at most `batch` samples, one message each, sent one after another. Never logs (nor
 * returns) a message body: it names a patient's sex, birth date and results.
 */
export async function runLabSimulator(
  db: Database,
  secrets: SecretBox | null,
  options: SimulatorOptions,
): Promise<SimulatorRun> {
  const run: SimulatorRun = {
    skipped: null,
    sent: 0,
    accepted: 0,
    refused: 0,
    failed: 0,
    outcomes: [],
  };
  const credentials = await readSynevoCredentials(db, secrets);
  if (!credentials.enabled) return { ...run, skipped: 'disabled' };
  if (!credentials.login || !credentials.password) return { ...run, skipped: 'no_credentials' };
  if (!options.baseUrl) return { ...run, skipped: 'no_address' };
  const url = `${options.baseUrl.replace(/\/+$/, '')}/api/lab/hl7`;
  const authorization = `Basic ${Buffer.from(`${credentials.login}:${credentials.password}`, 'utf8').toString('base64')}`;

  for (const sample of await samplesToSend(db, options.batch)) {
    const controlId = `${SIMULATOR_CONTROL_PREFIX}${sample.id}`;
    // 0: no answer at all (refused connection, timeout).
    const { status, body } = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': ER7_CONTENT_TYPE, authorization },
      body: simulatedMessage(sample),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }).then(
      async (response) => ({ status: response.status, body: await response.text() }),
      () => ({ status: 0, body: '' }),
    );
    run.sent += 1;
    const { ack, reason } = status === 200 ? readAck(body, controlId) : { ack: null, reason: null };
    run.outcomes.push({ probeId: sample.id, controlId, status, ack, reason });
    if (ack === 'AA') run.accepted += 1;
    else if (ack === 'AE') run.refused += 1;
    else {
      // 401/403 (credentials changed meanwhile), 5xx or no answer: the rest wait for the next run.
      run.failed += 1;
      break;
    }
  }
  return run;
}

/** The address this process listens on (0.0.0.0 and :: reached through loopback). */
export function listeningUrl(address: AddressInfo | string | null): string | null {
  if (!address || typeof address === 'string') return null;
  const host =
    address.address === '0.0.0.0' || address.address === ''
      ? '127.0.0.1'
      : address.address === '::'
        ? '[::1]'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
  return `http://${host}:${address.port}`;
}

interface SimulatorLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Registers the simulator's job and its schedule (pg-boss: the cron is kept in the database and
 * each run goes to one server). Called only when `LAB_SIMULATOR=on`. A skipped run logs one line
 * when the reason changes, not once a minute.
 */
export function registerLabSimulatorJob(
  jobs: JobQueue,
  deps: {
    db: Database;
    secrets: SecretBox | null;
    config: AppConfig['labSimulator'];
    /** The address the server listens on, asked at each run (known only after listen). */
    address: () => AddressInfo | string | null;
    log: SimulatorLog;
  },
): void {
  const { db, secrets, config, log } = deps;
  let lastSkip: SimulatorRun['skipped'] = null;
  log.warn(
    { cron: config.cron, batch: config.batch },
    'laboratory simulator on: it sends invented results for samples scanned in at the laboratory',
  );
  jobs.handle(LAB_SIMULATOR_JOB, async () => {
    const run = await runLabSimulator(db, secrets, {
      baseUrl: config.url ?? listeningUrl(deps.address()),
      batch: config.batch,
    });
    if (run.skipped) {
      if (run.skipped !== lastSkip) {
        log.info({ reason: run.skipped }, 'laboratory simulator: nothing sent');
      }
      lastSkip = run.skipped;
      return;
    }
    lastSkip = null;
    if (run.sent === 0) return;
    const { sent, accepted, refused, failed } = run;
    const refusals = run.outcomes
      .filter((outcome) => outcome.ack !== 'AA')
      .map(({ controlId, status, reason }) => ({ control_id: controlId, status, reason }));
    const details = { sent, accepted, refused, failed, refusals };
    if (failed > 0) log.warn(details, 'laboratory simulator: a delivery failed');
    else log.info(details, 'laboratory simulator: results sent');
  });
  jobs.schedule(LAB_SIMULATOR_JOB, config.cron);
}
