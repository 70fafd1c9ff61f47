import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskPesel, restoreResult } from '@portal/shared';
import type { ImportBatch, RestoreResult } from '@portal/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { importBatches, patients, users } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { csvOf, postImport } from '../../test/import-fixture.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { columnNames } from './columns.js';

/**
 * "Fix the file and import it again" after "Wyczyść dane" (issue 21 item 11, ADR 032): a flushed
 * batch's patients hold no PESEL, e-mail or project number; a restore brings back those nobody
 * active replaced and names the others.
 */
let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let mail = 0;

const COLUMNS = columnNames('patient_data');

interface Row {
  firstname: string;
  surname: string;
  pesel: string;
  email?: string;
  project_number?: string;
}

function row(surname: string, extra: Partial<Row> = {}): Row {
  return { firstname: 'Anna', surname, pesel: freshPesel('K'), ...extra };
}

function email(): string {
  mail += 1;
  return `import.again.${mail}@example.pl`;
}

const importRows = (rows: Row[], name = 'pacjenci.csv') =>
  postImport(t, admin.session.token, 'patient_data', [
    {
      name,
      content: csvOf(
        COLUMNS,
        rows.map((r) => ({
          ...r,
          phone_number: '601202303',
          unit_id: doctor.doctor.unit_id,
          doctor_id: doctor.doctor.id,
          group_id: 1,
          subgroup_id: 1,
          dose: 5,
          is_above_18: 1,
          is_classified: 1,
        })),
      ),
    },
  ]);

async function importOk(rows: Row[], name?: string): Promise<number> {
  const res = await importRows(rows, name);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ batch_id: number }>().batch_id;
}

async function flush() {
  const res = await t.request('POST', '/api/data_import/flush', { token: admin.session.token });
  expect(res.statusCode, res.body).toBe(200);
}

const restore = (id: number, token = admin.session.token) =>
  t.request('PUT', `/api/data_import/batches/${id}/restore`, { token });

async function restoreOk(id: number): Promise<RestoreResult> {
  const res = await restore(id);
  expect(res.statusCode, res.body).toBe(200);
  // The answer is exactly the shared schema's shape (the web parses it with the same schema).
  return restoreResult.parse(res.json());
}

/** The patients with these PESELs: which batch brought each, and whether it is active. */
async function patientsOf(pesels: string[]) {
  return t.db
    .select({
      id: patients.id,
      pesel: patients.pesel,
      batch: patients.import_batch_id,
      deleted: sql<boolean>`${patients.deleted_at} is not null`,
      accountDeleted: sql<boolean>`${users.deleted_at} is not null`,
    })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.user_id))
    .where(inArray(patients.pesel, pesels))
    .orderBy(patients.id);
}

/**
 * DDL as the tables' owner: on PostgreSQL the tests' handle is the app role, which may not
 * create an index.
 */
async function asOwner(statement: string) {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl || !t.databaseName) {
    await t.db.execute(sql.raw(statement));
    return;
  }
  const url = new URL(ownerUrl);
  url.pathname = `/${t.databaseName}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function batchOf(id: number): Promise<ImportBatch | undefined> {
  const res = await t.request('GET', '/api/data_import/batches', { token: admin.session.token });
  return res.json<{ data: ImportBatch[] }>().data.find((b) => b.id === id);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

describe('import again after a flush', () => {
  it('imports the corrected file; the restore brings back the rest and names who stayed deleted', async () => {
    const kept = row('Zostaje', { email: email() });
    const fixed = row('Literowka');
    const mailed = row('Mailowa', { email: email() });
    const first = await importOk([kept, fixed, mailed], 'pierwszy.csv');
    await flush();

    // The corrected file: the same PESEL with the right surname, and one more patient.
    const corrected = { ...fixed, surname: 'Poprawiona' };
    const added = row('Dodana');
    const second = await importOk([corrected, added], 'poprawiony.csv');
    // Meanwhile a doctor registers a patient with the e-mail of another flushed one.
    const registered = await registerPatient(t, doctor, { email: mailed.email!.toUpperCase() });

    const answer = await restoreOk(first);
    const [fixedOld, mailedOld] = (await patientsOf([fixed.pesel, mailed.pesel])).filter(
      (p) => p.batch === first,
    );
    expect(answer).toEqual({
      status: 'success',
      restored: { patients: 1 },
      skipped: [
        {
          patient_id: fixedOld!.id,
          firstname: 'Anna',
          surname: 'Literowka',
          pesel_masked: `${fixed.pesel.slice(0, 6)}*****`,
          reason: 'pesel_taken',
        },
        {
          patient_id: mailedOld!.id,
          firstname: 'Anna',
          surname: 'Mailowa',
          pesel_masked: `${mailed.pesel.slice(0, 6)}*****`,
          reason: 'email_taken',
        },
      ],
    });
    // The whole PESEL is never in the answer.
    expect(JSON.stringify(answer)).not.toContain(fixed.pesel);

    const stored = await patientsOf([kept.pesel, fixed.pesel, mailed.pesel, added.pesel]);
    const state = stored.map((p) => ({
      pesel: p.pesel,
      batch: p.batch,
      deleted: p.deleted,
      accountDeleted: p.accountDeleted,
    }));
    expect(state).toEqual([
      { pesel: kept.pesel, batch: first, deleted: false, accountDeleted: false },
      // Replaced by the corrected file: stays deleted, with its account.
      { pesel: fixed.pesel, batch: first, deleted: true, accountDeleted: true },
      { pesel: mailed.pesel, batch: first, deleted: true, accountDeleted: true },
      { pesel: fixed.pesel, batch: second, deleted: false, accountDeleted: false },
      { pesel: added.pesel, batch: second, deleted: false, accountDeleted: false },
    ]);
    expect((await batchOf(first))?.flushed_at).toBeNull();
    expect(registered.id).toBeGreaterThan(0);

    // The one left behind comes back on its own once nobody active holds its e-mail.
    const alone = await t.request('PUT', `/api/patients/restore/${mailedOld!.id}`, {
      token: admin.session.token,
    });
    expect(alone.statusCode).toBe(409);
    expect(alone.json()).toEqual({ status: 'exist_patient' });
    await t.request('DELETE', `/api/patients/${registered.id}`, { token: admin.session.token });
    const later = await t.request('PUT', `/api/patients/restore/${mailedOld!.id}`, {
      token: admin.session.token,
    });
    expect(later.statusCode, later.body).toBe(200);
  });

  it('a flushed PESEL is free for validate_pesel and registration, and its patient then stays deleted', async () => {
    const gone = row('Wyczyszczona');
    const batch = await importOk([gone]);
    await flush();
    const ask = await t.request('GET', '/api/patients/validate_pesel', {
      token: doctor.session.token,
      query: { pesel: gone.pesel },
    });
    expect(ask.json()).toEqual({ status: 'success' });
    await registerPatient(t, doctor, { pesel: gone.pesel });
    const answer = await restoreOk(batch);
    expect(answer.restored).toEqual({ patients: 0 });
    expect(answer.skipped.map((s) => s.reason)).toEqual(['pesel_taken']);
    const active = await t.db
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.pesel, gone.pesel), isNull(patients.deleted_at)));
    expect(active).toHaveLength(1);
  });

  it('a taken project number holds its patient back (compared as the unique index compares them)', async () => {
    const numbered = row('Numerowana', { project_number: `FDC-${freshPesel().slice(-6)}` });
    const plain = row('Bez numeru');
    const batch = await importOk([numbered, plain]);
    await flush();
    // Lower case: the same participant key (ADR 041), so the same number.
    await registerPatient(t, doctor, { project_number: numbered.project_number!.toLowerCase() });
    const answer = await restoreOk(batch);
    expect(answer.restored).toEqual({ patients: 1 });
    expect(answer.skipped).toMatchObject([
      { surname: 'Numerowana', reason: 'project_number_taken' },
    ]);
  });

  it('all or nothing: a conflict the check cannot see refuses the whole restore and changes nothing', async () => {
    const a = row('Jedynaczka');
    const b = row('Druga');
    const batch = await importOk([a, b]);
    await flush();
    // A rule the restore's check does not know (one active "Jedynaczka" at most): the index
    // refuses the write after the check let the patient through, every time.
    await asOwner(
      "create unique index patients_surname_test_key on patients ((1)) where deleted_at is null and lower(surname) = 'jedynaczka'",
    );
    try {
      await registerPatient(t, doctor, { surname: 'jedynaczka' });
      const res = await restore(batch);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ status: 'exist_patient' });
    } finally {
      await asOwner('drop index patients_surname_test_key');
    }
    // Not even the patient without a conflict came back, and the batch is still flushed.
    expect((await patientsOf([a.pesel, b.pesel])).map((p) => p.deleted)).toEqual([true, true]);
    expect((await batchOf(batch))?.flushed_at).not.toBeNull();
    // Without the stricter rule the same restore goes through.
    expect((await restoreOk(batch)).restored).toEqual({ patients: 2 });
  });

  it('answers 401 without a session, 403 to a doctor, 404 for no batch, 409 when not flushed', async () => {
    const batch = await importOk([row('Dostep')]);
    expect((await t.request('PUT', `/api/data_import/batches/${batch}/restore`)).statusCode).toBe(
      401,
    );
    const byDoctor = await restore(batch, doctor.session.token);
    expect(byDoctor.statusCode).toBe(403);
    expect((await restore(2_000_000)).statusCode).toBe(404);
    const notFlushed = await restore(batch);
    expect(notFlushed.statusCode).toBe(409);
    expect(notFlushed.json()).toEqual({ status: 'not_flushed' });
    await flush();
    // The doctor's refusal changed nothing: the batch restores whole.
    expect((await restoreOk(batch)).restored).toEqual({ patients: 1 });
  });

  it('masks the PESEL as every answer does: the first six digits, then five stars (ADR 053)', () => {
    expect(maskPesel('85010112345')).toBe('850101*****');
  });
});

describe('an import and a restore of the same PESEL at once', () => {
  // On PostgreSQL both run at the same time and the unique index among active patients decides;
  // on PGlite they take turns. Either way exactly one patient holds the PESEL, and whichever
  // lost says so: the import with its error, the restore by naming the patient it left deleted.
  it('leaves exactly one active patient with the PESEL, every time', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const person = row(`Wyscig${round}`);
      const other = row(`Obok${round}`);
      const batch = await importOk([person, other]);
      await flush();
      const [imported, restored] = await Promise.all([
        importRows([{ ...person, surname: `Poprawiona${round}` }], `ponownie${round}.csv`),
        restore(batch),
      ]);
      expect(restored.statusCode, restored.body).toBe(200);
      const answer = restoreResult.parse(restored.json());
      const active = (await patientsOf([person.pesel])).filter((p) => !p.deleted);
      expect(active).toHaveLength(1);
      if (imported.statusCode === 200) {
        expect(active[0]!.batch).not.toBe(batch);
        expect(answer.skipped.map((s) => s.reason)).toEqual(['pesel_taken']);
        expect(answer.restored).toEqual({ patients: 1 });
        outcomes.add('import won');
      } else {
        expect(imported.statusCode).toBe(422);
        expect(active[0]!.batch).toBe(batch);
        expect(answer).toMatchObject({ restored: { patients: 2 }, skipped: [] });
        outcomes.add('restore won');
      }
      // The other patient of the batch came back whichever won.
      expect((await patientsOf([other.pesel]))[0]!.deleted).toBe(false);
      // Nothing else of the race stays behind: the batches are flushed for the next round.
      await flush();
      const [open] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(importBatches)
        .where(isNull(importBatches.flushed_at));
      expect(open!.n).toBe(0);
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});
