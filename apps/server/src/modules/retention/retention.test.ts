import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, markAuditSource } from '../../db/client.js';
import { files, recordLocks } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, readyPatient, registerPatient } from '../../test/patients-fixture.js';
import { databaseUrl } from '../../test/server-database.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { isRecordLocked } from '../../lib/errors.js';
import { executeRetentionRun } from './service.js';

/**
 * Retention (ADR 059): the dry run, the refusals, the run by the job's function, and what is left
 * of an anonymised patient: the clinical data, no identity, and no identity in the audit trail.
 */
let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

/**
 * SQL as the database's owner: the patient's participation is made to have ended years ago,
 * which no API can do (the audit trail is append-only and stamped by the database's clock).
 */
async function asOwner(statements: string[]): Promise<void> {
  const script = ['begin', ...statements, 'commit'].join(';\n');
  if (t.kind === 'pglite' || !process.env.TEST_DATABASE_URL) {
    try {
      await t.handle.executeSql(script);
    } catch (error) {
      // One connection: a failed script must not leave its transaction open.
      await t.handle.executeSql('rollback');
      throw error;
    }
    return;
  }
  const client = new pg.Client({
    connectionString: databaseUrl(process.env.TEST_DATABASE_URL, t.databaseName!),
  });
  await client.connect();
  try {
    await client.query(script);
  } finally {
    await client.end();
  }
}

/** Marks the patient finished `yearsAgo` years ago, with the audit entry a finish would leave. */
async function finishedYearsAgo(patientId: number, yearsAgo: number) {
  const when = `now() - interval '${yearsAgo} years'`;
  await asOwner([
    'alter table patients disable trigger patients_audit',
    `update patients set is_finished = true, updated_at = ${when} where id = ${patientId}`,
    'alter table patients enable trigger patients_audit',
    `insert into audit_entries (patient_id, entity_name, entity_id, operation, column_name,
       old_value, new_value, updated_at)
     values (${patientId}, 'patients', '${patientId}', 'update', 'is_finished', 'false', 'true',
       ${when})`,
  ]);
}

const preview = (token = admin.session.token) =>
  t.request('GET', '/api/retention/preview', { token });
const run = (token = admin.session.token, body: unknown = { confirm: true }) =>
  t.request('POST', '/api/retention/run', { token, body });
const latest = (token = admin.session.token) =>
  t.request('GET', '/api/retention/runs/latest', { token });
const saveYears = (years: number | null) =>
  t.request('POST', '/api/settings/retention', {
    token: admin.session.token,
    body: { value: { years } },
  });
/** Locks and unlocks the study as an administrator does (the one writer of the lock). */
const setLock = async (locked: boolean) => {
  const res = await t.request('POST', locked ? '/api/study/lock' : '/api/study/unlock', {
    token: admin.session.token,
    body: { reason: { code: 'other', text: 'Inspekcja' } },
  });
  expect(res.statusCode, res.body).toBe(200);
};

interface PatientRow {
  firstname: string;
  surname: string;
  pesel: string;
  phone_number: string;
  email: string | null;
  address_street: string | null;
  address_city: string | null;
  birth_date: string;
  weight: string | null;
  height: string | null;
  project_number: string | null;
  is_finished: boolean;
  anonymised_at: string | null;
}

async function patientRow(id: number): Promise<PatientRow> {
  const { rows } = await t.handle.executeSql(
    `select firstname, surname, pesel, phone_number, email, address_street, address_city,
            birth_date::text as birth_date, weight::text as weight, height::text as height,
            project_number, is_finished, anonymised_at::text as anonymised_at
       from patients where id = $1`,
    [id],
  );
  return rows[0] as unknown as PatientRow;
}

describe('who may use retention', () => {
  it('answers 401 without a token and 403 to a doctor, on every endpoint', async () => {
    for (const res of [
      await t.request('GET', '/api/retention/preview'),
      await t.request('POST', '/api/retention/run', { body: { confirm: true } }),
      await t.request('GET', '/api/retention/runs/latest'),
    ]) {
      expect(res.statusCode).toBe(401);
    }
    // A doctor reaches no unit's retention, not even the own unit's patients.
    for (const res of [
      await preview(doctor.session.token),
      await run(doctor.session.token),
      await latest(doctor.session.token),
    ]) {
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('refusals', () => {
  it('refuses a dry run and a run while no years are set, changing nothing', async () => {
    const patient = await registerPatient(t, doctor);
    await finishedYearsAgo(patient.id, 30);
    const before = await patientRow(patient.id);
    expect((await preview()).statusCode).toBe(422);
    expect((await preview()).json()).toMatchObject({ status: 'retention_not_set' });
    const refused = await run();
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ status: 'retention_not_set' });
    expect((await latest()).json()).toEqual({ run: null });
    expect(await patientRow(patient.id)).toEqual(before);
  });

  it('refuses a setting that is not a number of years, and a run without confirmation', async () => {
    for (const years of [0, 101, 2.5, '5']) {
      const res = await t.request('POST', '/api/settings/retention', {
        token: admin.session.token,
        body: { value: { years } },
      });
      expect(res.statusCode).toBe(422);
    }
    expect((await run(admin.session.token, {})).statusCode).toBe(422);
  });
});

describe('a retention run', () => {
  let due: Awaited<ReturnType<typeof readyPatient>>;
  let recent: Awaited<ReturnType<typeof registerPatient>>;
  let ongoing: Awaited<ReturnType<typeof registerPatient>>;
  const duePesel = freshPesel('K');

  beforeAll(async () => {
    due = await readyPatient(t, doctor, {
      firstname: 'Genowefa',
      surname: 'Pigwa',
      pesel: duePesel,
      email: 'genowefa.pigwa@example.pl',
      address_street: 'Lipowa',
      address_building: '7',
      address_postcode: '00-950',
      address_city: 'Radom',
    });
    // A change before the end, so that the trail holds identity values to blank.
    const edited = await t.request('GET', `/api/patients/${due.id}`, {
      token: admin.session.token,
    });
    expect(edited.statusCode).toBe(200);
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.execute(sql`update patients set surname = 'Pigwa-Nowak' where id = ${due.id}`),
    );
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.insert(files).values([
        {
          ref_type: 'patient',
          ref_id: due.id,
          patient_id: due.id,
          original_name: 'zgoda Genowefa Pigwa.pdf',
          mime_type: 'application/pdf',
          size_bytes: 4,
          content: Buffer.from('%PDF'),
          uploaded_by: admin.session.user.id,
        },
        {
          ref_type: 'visit',
          ref_id: 1,
          patient_id: due.id,
          original_name: 'ekg.pdf',
          mime_type: 'application/pdf',
          size_bytes: 4,
          content: Buffer.from('%PDF'),
          uploaded_by: admin.session.user.id,
        },
      ]),
    );
    await finishedYearsAgo(due.id, 12);
    recent = await registerPatient(t, doctor);
    await finishedYearsAgo(recent.id, 2);
    ongoing = await registerPatient(t, doctor);
    expect((await saveYears(10)).statusCode).toBe(200);
  });

  it('lists in the dry run only who ended more than the years ago, without identities', async () => {
    const res = await preview();
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      years: number;
      study_locked: boolean;
      total: number;
      data: { id: number; ended_at: string }[];
    }>();
    expect(body.years).toBe(10);
    expect(body.study_locked).toBe(false);
    const ids = body.data.map((row) => row.id);
    expect(ids).toContain(due.id);
    expect(ids).not.toContain(recent.id);
    expect(ids).not.toContain(ongoing.id);
    expect(res.body).not.toContain('Pigwa');
    expect(res.body).not.toContain(duePesel);
    // The dry run changed nothing.
    expect((await patientRow(due.id)).surname).toBe('Pigwa-Nowak');
  });

  it('is refused while the study is locked, and the dry run says so', async () => {
    await setLock(true);
    try {
      const res = await run();
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ status: 'study_locked' });
      expect((await preview()).json()).toMatchObject({ study_locked: true });
      expect((await latest()).json()).toEqual({ run: null });
    } finally {
      await setLock(false);
    }
  });

  it('runs once at a time and removes the identity, keeping the clinical data', async () => {
    // A locked sample (ADR 048) keeps its clinical content; the identity it copies still goes.
    const locked = await insertProbe(t.db, admin.session.user.id, due.id);
    // Written as the lock's route writes it; that route first wants the sample signed.
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.insert(recordLocks).values({
        record_type: 'probe',
        record_id: locked.id,
        patient_id: due.id,
        locked_by: admin.session.user.id,
      }),
    );
    const before = await patientRow(due.id);
    const accepted = await run();
    expect(accepted.statusCode).toBe(202);
    const queued = accepted.json<{ status: string; run: { id: number; status: string } }>();
    expect(queued).toMatchObject({ status: 'accepted', run: { status: 'queued' } });
    const second = await run();
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ status: 'retention_running' });

    // What the pg-boss job runs (job.ts); the test app has no queue running.
    const finished = await executeRetentionRun(t.db, queued.run.id);
    expect(finished).toMatchObject({ status: 'done' });
    expect(finished.done).toBe(finished.total);
    expect(finished.done).toBeGreaterThanOrEqual(1);
    expect((await latest()).json()).toMatchObject({ run: { id: queued.run.id, status: 'done' } });

    const after = await patientRow(due.id);
    expect(after).toMatchObject({
      firstname: 'Anonimizowany',
      surname: 'Pacjent',
      phone_number: '000000000',
      email: null,
      address_street: null,
      address_city: null,
      // Clinical data stays.
      weight: before.weight,
      height: before.height,
      project_number: before.project_number,
      is_finished: true,
    });
    expect(after.pesel).not.toBe(duePesel);
    expect(after.pesel).toMatch(/^0000\d{7}$/);
    expect(after.birth_date).toBe(`${before.birth_date.slice(0, 4)}-01-01`);
    expect(after.anonymised_at).not.toBeNull();

    // The locked sample lost the copied identity only, and stays locked to any other change.
    const { rows: sample } = await t.handle.executeSql(
      `select patient_firstname, patient_surname, patient_address_city, code from probes where id = $1`,
      [locked.id],
    );
    expect(sample).toEqual([
      {
        patient_firstname: 'Anonimizowany',
        patient_surname: 'Pacjent',
        patient_address_city: '-',
        code: locked.code,
      },
    ]);
    const change = (source: 'retention' | null, statement: ReturnType<typeof sql>) =>
      inTransaction(t.db, admin.session.user.id, async (tx) => {
        if (source) await markAuditSource(tx, source);
        await tx.execute(statement);
      }).then(
        () => 'changed',
        (error: unknown) => (isRecordLocked(error) ? 'record_locked' : error),
      );
    await expect(
      change(null, sql`update probes set patient_firstname = 'Tadeusz' where id = ${locked.id}`),
    ).resolves.toBe('record_locked');
    // Even under the retention's own source no clinical column of a locked record changes.
    await expect(
      change('retention', sql`update probes set is_cito = not is_cito where id = ${locked.id}`),
    ).resolves.toBe('record_locked');

    // The others are untouched.
    expect((await patientRow(recent.id)).anonymised_at).toBeNull();
    expect((await patientRow(ongoing.id)).anonymised_at).toBeNull();

    // The patient's own document is gone, the visit's ECG file stays.
    const { rows: left } = await t.handle.executeSql(
      'select ref_type from files where patient_id = $1 order by ref_type',
      [due.id],
    );
    expect(left).toEqual([{ ref_type: 'visit' }]);

    // The account signs in no more.
    const signIn = await t.request('POST', '/api/auth/login/patient', {
      body: { login: due.login, password: due.password },
    });
    expect(signIn.statusCode).not.toBe(200);
    const card = await t.request('GET', '/api/me/visits', { token: due.session.token });
    expect(card.statusCode).toBe(401);

    // Nothing of the identity is left in clear in the patient's audit trail, earlier entries
    // included; the run's own entries are there, without old values.
    const { rows: trail } = await t.handle.executeSql(
      `select column_name, old_value, new_value, source from audit_entries where patient_id = $1`,
      [due.id],
    );
    const text = JSON.stringify(trail);
    for (const identity of [duePesel, 'Pigwa', 'Genowefa', 'Lipowa', 'Radom', 'genowefa.pigwa']) {
      expect(text).not.toContain(identity);
    }
    const own = trail.filter((entry) => entry.source === 'retention');
    expect(own.map((entry) => entry.column_name)).toEqual(
      expect.arrayContaining(['firstname', 'surname', 'pesel', 'anonymised_at']),
    );
    expect(own.every((entry) => entry.old_value === null)).toBe(true);
    // Clinical entries stay as they were.
    expect(trail.some((entry) => entry.column_name === 'is_finished')).toBe(true);

    // A second run finds nobody.
    const again = await run();
    expect(again.statusCode).toBe(202);
    const nothing = await executeRetentionRun(t.db, again.json<{ run: { id: number } }>().run.id);
    expect(nothing).toMatchObject({ status: 'done', total: 0, done: 0 });
  });

  it('lets no one blank the audit values of a patient who is not anonymised', async () => {
    await expect(
      t.handle.executeSql('select portal_blank_identity_audit($1::integer)', [ongoing.id]),
    ).rejects.toThrow(/not anonymised/);
    if (t.kind === 'postgres' && process.env.TEST_DATABASE_APP_URL) {
      // The app's role has no UPDATE on the audit trail at all.
      await expect(
        t.handle.executeSql('update audit_entries set old_value = null where patient_id = $1', [
          due.id,
        ]),
      ).rejects.toThrow();
    }
    // Even the owner's own UPDATE is refused outside the function.
    await expect(
      asOwner([`update audit_entries set new_value = 'x' where patient_id = ${due.id}`]),
    ).rejects.toThrow(/never changed/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two administrators at once', () => {
  it('start one run: the other is told a run is going', async () => {
    expect((await saveYears(10)).statusCode).toBe(200);
    const other = await t.readyAdmin();
    const answers = await Promise.all([run(), run(other.session.token), run()]);
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes).toEqual([202, 409, 409]);
    const accepted = answers.find((res) => res.statusCode === 202)!;
    await executeRetentionRun(t.db, accepted.json<{ run: { id: number } }>().run.id);
  });
});
