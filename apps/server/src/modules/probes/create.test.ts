import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Probe, ProbeBodyInput } from '@portal/shared';
import { and, count, eq, inArray } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import {
  auditEntries,
  carriers,
  medicines,
  patientInclusions,
  patients,
  probeMedicines,
  probes,
  visits,
} from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let stranger: ReadyDoctor;
let medicineIds: number[];
let carrierId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  stranger = await t.readyDoctor((await t.unit()).id);
  const meds = await t.db.select({ id: medicines.id }).from(medicines).limit(2);
  medicineIds = meds.map((m) => m.id);
  const [carrier] = await t.db
    .select({ id: carriers.id })
    .from(carriers)
    .where(eq(carriers.is_visible, true))
    .limit(1);
  carrierId = carrier!.id;
});
afterAll(() => t?.close());

const as = (who: { session: { token: string } }) => ({ token: who.session.token });

function body(patientId: number, extra: Partial<ProbeBodyInput> = {}): ProbeBodyInput {
  return {
    patient_id: patientId,
    medicine_ids: medicineIds,
    date_of_sample: '2026-01-10',
    carrier_id: carrierId,
    ordered_by_firstname: 'Anna',
    ordered_by_surname: 'Lekarska',
    ordered_at: '2026-01-10',
    patient_firstname: 'Tadeusz',
    patient_surname: 'Mazur',
    patient_address_street: 'Długa',
    patient_address_building: '5',
    patient_address_postcode: '00-001',
    patient_address_city: 'Łódź',
    ...extra,
  };
}

function create(patientId: number, extra: Partial<ProbeBodyInput> = {}, who = doctor) {
  return t.request('POST', '/api/probes', { ...as(who), body: body(patientId, extra) });
}

function preview(patientId: number, form: Record<string, unknown> = {}, who = doctor) {
  return t.request('POST', `/api/probes/generate_code/${patientId}`, { ...as(who), body: form });
}

async function setConfig(value: string[]) {
  const current = await t.request('GET', '/api/settings/probe_config', as(admin));
  const version = current.json<{ data: { version: number } }>().data.version;
  const res = await t.request('POST', '/api/settings/probe_config', {
    ...as(admin),
    body: { value, version },
  });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
}

async function setLaboratory(value: { address: string; postcode: string; city: string }) {
  const res = await t.request('POST', '/api/settings/laboratory', {
    ...as(admin),
    body: { value },
  });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
}

/** What a refused call must leave as it was. */
async function footprint() {
  const [p] = await t.db.select({ n: count() }).from(probes);
  const [m] = await t.db.select({ n: count() }).from(probeMedicines);
  const [a] = await t.db
    .select({ n: count() })
    .from(auditEntries)
    .where(inArray(auditEntries.entity_name, ['probes', 'probe_medicines']));
  return { probes: p!.n, medicines: m!.n, audit: a!.n };
}

const DEFAULT_CONFIG = [
  'sex',
  'project_number',
  'unit_id',
  'next_probe_number',
  'group_id',
  'material_type_and_place',
];

async function setProjectNumber(patientId: number, value: string) {
  await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx.update(patients).set({ project_number: value }).where(eq(patients.id, patientId)),
  );
}

describe('carriers and the order link', () => {
  it('lists the visible carriers by name', async () => {
    const res = await t.request('GET', '/api/probes/carriers', as(doctor));
    expect(res.statusCode).toBe(200);
    const names = res.json<{ data: { name: string }[] }>().data.map((c) => c.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('hides a carrier no longer offered', async () => {
    const [hidden] = await t.db
      .insert(carriers)
      .values({ name: 'Zz ukryty nośnik', is_visible: false })
      .returning({ id: carriers.id });
    const res = await t.request('GET', '/api/probes/carriers', as(doctor));
    expect(res.json<{ data: { id: number }[] }>().data.map((c) => c.id)).not.toContain(hidden!.id);
  });

  it('says which materials each carrier takes: a DBS card and a microsampler capillary blood only (ADR 041)', async () => {
    const res = await t.request('GET', '/api/probes/carriers', as(doctor));
    const byName = new Map(
      res.json<{ data: { name: string; materials: string[] }[] }>().data.map((c) => [c.name, c]),
    );
    expect(byName.get('Karta DBS (sucha kropla krwi)')?.materials).toEqual(['capillary']);
    expect(byName.get('Mikrosampler wolumetryczny (VAMS)')?.materials).toEqual(['capillary']);
    expect(byName.get('Probówka EDTA')?.materials).toEqual(['venous', 'capillary']);
  });

  it('takes a DBS card with venous blood as sent: the dialog asks, the API does not refuse (ADR 041)', async () => {
    const [dbs] = await t.db
      .select({ id: carriers.id })
      .from(carriers)
      .where(eq(carriers.name, 'Karta DBS (sucha kropla krwi)'));
    const patient = await registerPatient(t, doctor);
    const capillary = await create(patient.id, {
      carrier_id: dbs!.id,
      type_of_material: 'capillary',
    });
    expect(capillary.statusCode, capillary.body).toBe(201);
    const venous = await create(patient.id, { carrier_id: dbs!.id, type_of_material: 'venous' });
    expect(venous.statusCode, venous.body).toBe(201);
    expect(venous.json<{ probe: Probe }>().probe).toMatchObject({
      type_of_material: 'venous',
      carrier: { id: dbs!.id },
    });
  });

  it("answers the postal service's page from the shipping setting", async () => {
    const res = await t.request('GET', '/api/probes/order_link', as(doctor));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: 'https://www.pocztex.pl/' });
  });
});

describe('the number preview', () => {
  it('builds the code from the default configuration without reserving it', async () => {
    await setConfig(DEFAULT_CONFIG);
    const patient = await registerPatient(t, doctor, {
      pesel: freshPesel('K'),
      project_number: 'P77',
    });
    const unit = doctor.doctor.unit_id;
    const first = await preview(patient.id);
    expect(first.statusCode, first.body).toBe(200);
    // Group 1 from the registration fixture, venous at the clinic by default.
    expect(first.json()).toEqual({ code: `KP77${unit}11ZP` });
    const again = await preview(patient.id, {
      type_of_material: 'capillary',
      collect_place: 'home',
    });
    expect(again.json()).toEqual({ code: `KP77${unit}11WD` });
    // Two previews, the same code: nothing was reserved.
    expect((await preview(patient.id)).json()).toEqual(first.json());

    const created = await create(patient.id);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ probe: Probe }>().probe.code).toBe(`KP77${unit}11ZP`);
    // The creation took it; the next preview moves on.
    expect((await preview(patient.id)).json()).toEqual({ code: `KP77${unit}21ZP` });
  });

  it('falls back to the default configuration when the saved one gives an empty code', async () => {
    await setConfig(['group_id']);
    const patient = await registerPatient(t, doctor);
    await t.db.delete(patientInclusions).where(eq(patientInclusions.patient_id, patient.id));
    const res = await preview(patient.id);
    // The default's participant part: the id, as the patient has no project number (ADR 041).
    const participant = String(patient.id).padStart(3, '0');
    expect(res.json()).toEqual({ code: `M${participant}${doctor.doctor.unit_id}1ZP` });
    await setConfig(DEFAULT_CONFIG);
  });

  it('names the participant by the id where the patient has no project number (ADR 041)', async () => {
    await setConfig(['project_number', 'group_id']);
    const patient = await registerPatient(t, doctor);
    await t.db.delete(patientInclusions).where(eq(patientInclusions.patient_id, patient.id));
    expect((await preview(patient.id)).json()).toEqual({
      code: String(patient.id).padStart(3, '0'),
    });
    // A number that gives nothing to a code is no number either.
    await setProjectNumber(patient.id, '~ ^');
    expect((await preview(patient.id)).json()).toEqual({
      code: String(patient.id).padStart(3, '0'),
    });
    await setProjectNumber(patient.id, 'FDC-9');
    expect((await preview(patient.id)).json()).toEqual({ code: 'FDC-9' });
    await setConfig(DEFAULT_CONFIG);
  });

  it('takes a half-filled form and refuses a wrong material', async () => {
    const patient = await registerPatient(t, doctor);
    const half = await preview(patient.id, { date_of_sample: '', medicine_ids: [] });
    expect(half.statusCode, half.body).toBe(200);
    const wrong = await preview(patient.id, { type_of_material: 'krew' });
    expect(wrong.statusCode).toBe(422);
  });

  it("answers 404 for another unit's or a missing patient", async () => {
    const patient = await registerPatient(t, doctor);
    expect((await preview(patient.id, {}, stranger)).statusCode).toBe(404);
    expect((await preview(999999)).statusCode).toBe(404);
    expect((await preview(patient.id, {}, admin as unknown as ReadyDoctor)).statusCode).toBe(200);
  });
});

describe('POST /api/probes', () => {
  it('creates a sample with the defaults, its medicines and the audit entries', async () => {
    await setConfig(DEFAULT_CONFIG);
    await setLaboratory({ address: 'Wołoska 41', postcode: '02-507', city: 'Warszawa' });
    const patient = await registerPatient(t, doctor);
    const res = await create(patient.id);
    expect(res.statusCode, res.body).toBe(201);
    const probe = res.json<{ status: string; probe: Probe }>();
    expect(probe.status).toBe('success');
    expect(probe.probe).toMatchObject({
      status: 'collected',
      is_cito: true,
      type_of_test: 'biochemistry',
      type_of_material: 'venous',
      collect_place: 'clinic',
      patient_id: patient.id,
      patient_sex: 'M',
      visit_id: null,
      carrier_id: carrierId,
      medicine_ids: [...medicineIds].sort((a, b) => a - b),
      laboratory: { address: 'Wołoska 41', postcode: '02-507', city: 'Warszawa' },
      adverse_events: null,
      results_out_of_norm: [],
      version: 1,
    });
    // No project number: the participant's id stands in (ADR 041).
    expect(probe.probe.code).toBe(
      `M${String(patient.id).padStart(3, '0')}${doctor.doctor.unit_id}11ZP`,
    );

    const rows = await t.db
      .select()
      .from(probeMedicines)
      .where(eq(probeMedicines.probe_id, probe.probe.id));
    expect(rows.map((r) => r.patient_id)).toEqual(rows.map(() => patient.id));
    const [stored] = await t.db.select().from(probes).where(eq(probes.id, probe.probe.id));
    expect(stored!.created_by).toBe(doctor.session.user.id);
    expect(stored!.probe_number).toBe(1);

    const audit = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.patient_id, patient.id),
          inArray(auditEntries.entity_name, ['probes', 'probe_medicines']),
        ),
      );
    expect(audit.some((e) => e.entity_name === 'probes' && e.column_name === 'code')).toBe(true);
    expect(audit.filter((e) => e.entity_name === 'probe_medicines').length).toBeGreaterThan(0);
    expect(new Set(audit.map((e) => e.user_id))).toEqual(new Set([doctor.session.user.id]));

    const read = await t.request('GET', `/api/probes/${probe.probe.id}`, as(doctor));
    expect(read.statusCode).toBe(200);
    // The page's answer adds the laboratory's refusals of its results (none here, ADR 032), its
    // signatures, its lock and what the reader may do with both (ADRs 048, 050), verification
    // mark and unresolved queries (ADR 051).
    expect(read.json()).toEqual({
      ...probe.probe,
      lab_refusals: [],
      signatures: [],
      lock: null,
      record_abilities: { sign: false, lock: false, unlock: false, verify: false },
      verified: null,
      changed_after_verification_at: null,
      open_queries: 0,
    });
    await setLaboratory({ address: '', postcode: '', city: '' });
  });

  it('keeps the laboratory empty while its setting is', async () => {
    const patient = await registerPatient(t, doctor);
    const res = await create(patient.id, { is_cito: false, type_of_test: 'drug_concentration' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ probe: Probe }>().probe).toMatchObject({
      laboratory: null,
      is_cito: false,
      type_of_test: 'drug_concentration',
    });
  });

  it("links a live visit of the patient and refuses another patient's or a cancelled one", async () => {
    const patient = await registerPatient(t, doctor);
    const other = await registerPatient(t, doctor);
    let hour = 8;
    const visitOf = async (p: { id: number }, cancelled = false) => {
      hour += 1;
      const [row] = await inTransaction(t.db, admin.session.user.id, (tx) =>
        tx
          .insert(visits)
          .values({
            patient_id: p.id,
            unit_id: doctor.doctor.unit_id,
            doctor_id: doctor.doctor.id,
            date: '2026-01-05',
            started_at: `${String(hour).padStart(2, '0')}:00`,
            ended_at: `${String(hour).padStart(2, '0')}:30`,
            ...(cancelled ? { cancelled_at: new Date() } : {}),
          })
          .returning({ id: visits.id }),
      );
      return row!.id;
    };
    const own = await visitOf(patient);
    const ok = await create(patient.id, { visit_id: own });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<{ probe: Probe }>().probe.visit_id).toBe(own);
    const visit = await t.request('GET', `/api/visits/${own}`, as(doctor));
    expect(visit.json<{ probes: { id: number }[] }>().probes.map((p) => p.id)).toEqual([
      ok.json<{ probe: Probe }>().probe.id,
    ]);

    const before = await footprint();
    for (const visitId of [await visitOf(other), await visitOf(patient, true), 999999]) {
      const res = await create(patient.id, { visit_id: visitId });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json<{ status: string }>().status).toBe('validation_error');
      expect(Object.keys(res.json<{ errors: object }>().errors)).toEqual(['visit_id']);
    }
    expect(await footprint()).toEqual(before);
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const patient = await registerPatient(t, doctor);
    const [hidden] = await t.db
      .insert(carriers)
      .values({ name: 'Nośnik wycofany', is_visible: false })
      .returning({ id: carriers.id });
    const before = await footprint();
    const cases: [Partial<ProbeBodyInput> | Record<string, unknown>, string, string][] = [
      [{ medicine_ids: [] }, 'medicine_ids', 'required'],
      [{ medicine_ids: [999999] }, 'medicine_ids', 'invalid'],
      [{ carrier_id: 999999 }, 'carrier_id', 'invalid'],
      [{ carrier_id: hidden!.id }, 'carrier_id', 'invalid'],
      [{ date_of_sample: '2999-01-01' }, 'date_of_sample', 'future_date'],
      [{ ordered_at: '2999-01-01' }, 'ordered_at', 'future_date'],
      [{ date_of_sample: '2026-02-30' }, 'date_of_sample', 'invalid_date'],
      [{ patient_surname: '' }, 'patient_surname', 'required'],
      [{ patient_surname: 'Ma\u0000zur' }, 'patient_surname', 'invalid'],
      [{ type_of_material: 'krew' }, 'type_of_material', 'invalid'],
      [{ is_cito: 'tak' }, 'is_cito', 'invalid'],
    ];
    for (const [extra, field] of cases) {
      const res = await t.request('POST', '/api/probes', {
        ...as(doctor),
        body: { ...body(patient.id), ...extra },
      });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
      expect(Object.keys(res.json<{ errors: object }>().errors)).toContain(field);
    }
    const future = await create(patient.id, { date_of_sample: '2999-01-01' });
    expect(future.json()).toEqual({
      status: 'validation_error',
      errors: { date_of_sample: ['Ta data nie może być z przyszłości'] },
    });
    expect(await footprint()).toEqual(before);
  });

  it("answers 404 for another unit's or a missing patient and 409 for a deleted one", async () => {
    const patient = await registerPatient(t, doctor);
    const before = await footprint();
    const elsewhere = await create(patient.id, {}, stranger);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ status: 'not_found' });
    expect((await create(999999)).statusCode).toBe(404);

    const removed = await t.request('DELETE', `/api/patients/${patient.id}`, as(doctor));
    expect(removed.statusCode, removed.body).toBe(200);
    const deleted = await create(patient.id);
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json()).toEqual({ status: 'patient_deleted' });
    expect(await footprint()).toEqual(before);
  });

  it('appends -2, -3 when the configuration gives another sample the same code', async () => {
    await setConfig(['sex', '1']);
    const first = await registerPatient(t, doctor, { pesel: freshPesel('K') });
    const second = await registerPatient(t, doctor, { pesel: freshPesel('K') });
    const codes: string[] = [];
    for (const p of [first, second, first]) {
      const res = await create(p.id);
      expect(res.statusCode, res.body).toBe(201);
      codes.push(res.json<{ probe: Probe }>().probe.code);
    }
    // Earlier tests may have taken "K1" already; what matters is one series without gaps.
    const base = 'K1';
    const suffix = (code: string) => (code === base ? 1 : Number(code.slice(base.length + 1)));
    const numbers = codes.map(suffix);
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
    expect(codes[0]!.startsWith(base)).toBe(true);
    await setConfig(DEFAULT_CONFIG);
  });
});

describe('barcode-safe codes (ADR 035)', () => {
  /** The SQLSTATE a statement failed with (Drizzle wraps the driver's error as `cause`). */
  async function pgCode(statement: Promise<unknown>): Promise<string | undefined> {
    try {
      await statement;
      return undefined;
    } catch (error) {
      return (error as { cause?: { code?: string } }).cause?.code;
    }
  }

  /** A sample row for inserting straight into the table (the database's own checks). */
  const row = (patientId: number) => ({
    patient_id: patientId,
    date_of_sample: '2026-01-10',
    carrier_id: carrierId,
    ordered_by_firstname: 'Anna',
    ordered_by_surname: 'Lekarska',
    ordered_at: '2026-01-10',
    patient_firstname: 'Tadeusz',
    patient_surname: 'Mazur',
    patient_address_street: 'Długa',
    patient_address_building: '5',
    patient_address_postcode: '00-001',
    patient_address_city: 'Łódź',
  });

  it('transliterates and strips a hostile participant number in the preview, the sample and its labels', async () => {
    await setConfig(DEFAULT_CONFIG);
    const patient = await registerPatient(t, doctor, { pesel: freshPesel('K') });
    // Written straight into the row: the form may refuse CR one day, the builder must not rely on it.
    await setProjectNumber(patient.id, 'ŁÓDŹ~^\r\nłódź_ 7');
    const shown = await preview(patient.id);
    expect(shown.statusCode, shown.body).toBe(200);
    const code = shown.json<{ code: string }>().code;
    expect(code).toMatch(/^KLODZlodz7[0-9]+1ZP$/);
    const res = await create(patient.id);
    expect(res.statusCode, res.body).toBe(201);
    const probe = res.json<{ probe: Probe }>().probe;
    expect(probe.code).toBe(code);
    // The ZPL carries the same bytes in the DataMatrix and the text, with nothing to escape.
    const zpl = await t.request('GET', `/api/probes/${probe.id}/label.zpl`, as(doctor));
    expect(zpl.body).toContain(`^BXN,6,200^FH^FD${code}^FS`);
    const text = [...zpl.body.matchAll(/\^A[DF]N,\d+,\d+\^FH\^FD([^^]*)\^FS/g)].map((m) => m[1]);
    expect(text.join('')).toBe(code);
    // And the reception finds it by those bytes.
    const scanned = await t.request('POST', '/api/probes/receive', {
      ...as(doctor),
      body: { code: code.toLowerCase() },
    });
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(scanned.json<{ probe: { id: number } }>().probe.id).toBe(probe.id);
  });

  it('keeps a code within 32 characters with a long participant number and its suffixes', async () => {
    await setConfig(['project_number']);
    const long = `FDC-${Date.now()}-${'X'.repeat(60)}`;
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const patient = await registerPatient(t, doctor);
      // Unique numbers (ADR 041) that differ only past what the code can hold.
      await setProjectNumber(patient.id, `${long}${i}`);
      const res = await create(patient.id);
      expect(res.statusCode, res.body).toBe(201);
      codes.push(res.json<{ probe: Probe }>().probe.code);
    }
    const base = long.slice(0, 29);
    expect(codes).toEqual([base, `${base}-2`, `${base}-3`]);
    for (const code of codes) expect(code.length).toBeLessThanOrEqual(32);
    await setConfig(DEFAULT_CONFIG);
  });

  it('treats a code in another letter case, or an old code that reads alike, as taken', async () => {
    await setConfig(['project_number']);
    const stamp = Date.now() % 1_000_000;
    const first = await registerPatient(t, doctor);
    await setProjectNumber(first.id, `ab${stamp}`);
    const a = await create(first.id);
    // One active patient per project number (ADR 041): the number is free again once its
    // patient is deleted, and the earlier sample's code stays taken.
    expect((await t.request('DELETE', `/api/patients/${first.id}`, as(doctor))).statusCode).toBe(
      200,
    );
    const second = await registerPatient(t, doctor);
    await setProjectNumber(second.id, `AB${stamp}`);
    const b = await create(second.id);
    expect(a.json<{ probe: Probe }>().probe.code).toBe(`ab${stamp}`);
    expect(b.json<{ probe: Probe }>().probe.code).toBe(`AB${stamp}-2`);
    // An old code "Łk 123" (made before migration 0021) takes "Lk123".
    const third = await registerPatient(t, doctor);
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.insert(probes).values({
        ...row(third.id),
        code: `Łk ${stamp}`,
        legacy_code: true,
        probe_number: 99,
      }),
    );
    await setProjectNumber(third.id, `Łk${stamp}`);
    const c = await create(third.id);
    expect(c.json<{ probe: Probe }>().probe.code).toBe(`Lk${stamp}-2`);
    await setConfig(DEFAULT_CONFIG);
  });

  it('is kept by the database: CHECK on the code, one code whatever the case', async () => {
    const patient = await registerPatient(t, doctor);
    const insert = (code: string, legacy?: true) =>
      inTransaction(t.db, admin.session.user.id, (tx) =>
        tx.insert(probes).values({
          ...row(patient.id),
          code,
          probe_number: Math.floor(Math.random() * 1_000_000) + 1000,
          ...(legacy ? { legacy_code: legacy } : {}),
        }),
      );
    const stamp = Date.now() % 1_000_000;
    for (const bad of [
      `ŁÓDŹ${stamp}`,
      `A B${stamp}`,
      `A^${stamp}`,
      `A\r${stamp}`,
      'X'.repeat(33),
      '',
    ]) {
      expect(await pgCode(insert(bad)), JSON.stringify(bad)).toBe('23514');
    }
    await insert(`Qq${stamp}`);
    expect(await pgCode(insert(`QQ${stamp}`))).toBe('23505');
    // Only the migration marks old codes: legacy_code is true or null, never false.
    const unmarked = inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.insert(probes).values({
        ...row(patient.id),
        code: `OK${stamp}`,
        probe_number: 5,
        legacy_code: false,
      }),
    );
    expect(await pgCode(unmarked)).toBe('23514');
  });
});

describe('adverse events', () => {
  it('sanitises the text, clears it when blank and refuses a stale version', async () => {
    const patient = await registerPatient(t, doctor);
    const created = (await create(patient.id)).json<{ probe: Probe }>().probe;
    const put = (adverse_events: string | null, version?: number) =>
      t.request('PUT', `/api/probes/${created.id}`, {
        ...as(doctor),
        body: { adverse_events, ...(version === undefined ? {} : { version }) },
      });

    const saved = await put('<p>Zasinienie <script>alert(1)</script><b>po pobraniu</b></p>', 1);
    expect(saved.statusCode, saved.body).toBe(200);
    const probe = saved.json<{ status: string; probe: Probe }>();
    expect(probe.status).toBe('success');
    expect(probe.probe.adverse_events).toBe('<p>Zasinienie <b>po pobraniu</b></p>');
    expect(probe.probe.version).toBe(2);

    const stale = await put('<p>Inne</p>', 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });

    const blank = await put('<p> </p>', 2);
    expect(blank.json<{ probe: Probe }>().probe.adverse_events).toBeNull();
    // The contract's body has no version (ADR 018): without one the edit is claimed and wins.
    const unversioned = await put(null);
    expect(unversioned.statusCode).toBe(200);
    expect(unversioned.json<{ probe: Probe }>().probe).toMatchObject({
      adverse_events: null,
      version: 4,
    });

    const audit = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'probes'),
          eq(auditEntries.entity_id, String(created.id)),
          eq(auditEntries.column_name, 'adverse_events'),
        ),
      );
    expect(audit.length).toBeGreaterThanOrEqual(2);

    const removed = await t.request('DELETE', `/api/patients/${patient.id}`, as(doctor));
    expect(removed.statusCode, removed.body).toBe(200);
    const readOnly = await put('<p>Po usunięciu</p>', 4);
    expect(readOnly.statusCode).toBe(409);
    expect(readOnly.json()).toEqual({ status: 'patient_deleted' });

    const elsewhere = await t.request('PUT', `/api/probes/${created.id}`, {
      ...as(stranger),
      body: { adverse_events: '<p>x</p>', version: 4 },
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});

describe('reading samples', () => {
  it("lists a patient's samples newest first, for the own unit only", async () => {
    const patient = await registerPatient(t, doctor);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create(patient.id)).json<{ probe: Probe }>().probe.id);
    const res = await t.request('GET', `/api/patients/${patient.id}/probes`, as(doctor));
    expect(res.statusCode).toBe(200);
    const list = res.json<{ data: Probe[] }>().data;
    expect(list.map((p) => p.id)).toEqual([...ids].reverse());

    expect(
      (await t.request('GET', `/api/patients/${patient.id}/probes`, as(stranger))).statusCode,
    ).toBe(404);
    expect((await t.request('GET', `/api/probes/${ids[0]}`, as(stranger))).statusCode).toBe(404);
    expect((await t.request('GET', `/api/probes/${ids[0]}`, as(admin))).statusCode).toBe(200);
    expect((await t.request('GET', '/api/probes/999999', as(admin))).statusCode).toBe(404);
  });

  it("follows the patient to a new unit: the old unit's doctor loses it", async () => {
    const patient = await registerPatient(t, doctor);
    const id = (await create(patient.id)).json<{ probe: Probe }>().probe.id;
    await t.db
      .update(patients)
      .set({ unit_id: stranger.doctor.unit_id, doctor_id: stranger.doctor.id })
      .where(eq(patients.id, patient.id));
    expect((await t.request('GET', `/api/probes/${id}`, as(doctor))).statusCode).toBe(404);
    expect((await t.request('GET', `/api/probes/${id}`, as(stranger))).statusCode).toBe(200);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('gives codes that differ only in letter case, saved at once, a suffix (ADR 035)', async () => {
    await setConfig(['project_number']);
    const stamp = Date.now() % 1_000_000;
    const crowd = [];
    // Unique project numbers (ADR 041) whose codes, cut to the 29 characters the builder
    // gives, differ only in letter case.
    const tail = 'X'.repeat(30);
    for (const number of [
      `kz${stamp}${tail}1`,
      `KZ${stamp}${tail}2`,
      `Kz${stamp}${tail}3`,
      `kZ${stamp}${tail}4`,
    ]) {
      const patient = await registerPatient(t, doctor);
      await inTransaction(t.db, admin.session.user.id, (tx) =>
        tx.update(patients).set({ project_number: number }).where(eq(patients.id, patient.id)),
      );
      crowd.push(patient);
    }
    const answers = await Promise.all(crowd.map((p) => create(p.id)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    const codes = answers.map((a) => a.json<{ probe: Probe }>().probe.code.toLowerCase());
    expect(new Set(codes).size).toBe(4);
    await setConfig(DEFAULT_CONFIG);
  });

  it('gives 20 samples of one patient saved at once 20 numbers and codes', async () => {
    await setConfig(DEFAULT_CONFIG);
    const patient = await registerPatient(t, doctor);
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(patient.id)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    const codes = answers.map((a) => a.json<{ probe: Probe }>().probe.code);
    expect(new Set(codes).size).toBe(20);
    const rows = await t.db
      .select({ n: probes.probe_number })
      .from(probes)
      .where(eq(probes.patient_id, patient.id));
    expect(rows.map((r) => r.n).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('gives two patients of the same sex distinct codes under ["sex", "1"]', async () => {
    await setConfig(['sex', '1']);
    const crowd = [];
    for (let i = 0; i < 6; i++) crowd.push(await registerPatient(t, doctor));
    const answers = await Promise.all(crowd.map((p) => create(p.id)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    const codes = answers.map((a) => a.json<{ probe: Probe }>().probe.code);
    expect(new Set(codes).size).toBe(codes.length);
    await setConfig(DEFAULT_CONFIG);
  });
});
