import { buildPesel } from '@portal/shared';
import type { PatientCreateBody, PatientDetail, PatientListItem } from '@portal/shared';
import { eq, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { medicines, patients, users } from '../../db/schema.js';
import { countAll, searchAny } from '../../lib/listing.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { patientSearchText } from './search.js';
import { putWithReason } from '../../test/versions.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorB: ReadyDoctor;
let unitA: number;
let unitB: number;
let serial = 0;

/** A fresh, valid PESEL for each registration (born 1960-03-15, serial increments). */
function nextPesel(sex: 'M' | 'K' = 'K'): string {
  serial += 1;
  return buildPesel({ year: 1960, month: 3, day: 15 }, serial * 10, sex);
}

function registration(
  doctor: ReadyDoctor,
  overrides: Partial<PatientCreateBody['personal']> = {},
): PatientCreateBody {
  const pesel = nextPesel();
  return {
    personal: {
      firstname: 'Zofia',
      surname: 'Wójcik',
      pesel,
      address_street: 'ul. Łąkowa',
      address_building: '3',
      address_apartment: '12',
      address_postcode: '90-001',
      address_city: 'Łódź',
      phone_number: '+48 501 234 567',
      // One active patient per e-mail: each registration gets its own.
      email: `Zofia.Wojcik.${pesel}@example.pl`,
      weight: 72.5,
      height: 168,
      // One active patient per project number (ADR 041): each registration gets its own.
      project_number: `FDC-${pesel}`,
      doctor_id: doctor.doctor.id,
      unit_id: doctor.doctor.unit_id,
      acceptance: true,
      ...overrides,
    },
    exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
    // Subgroup 2 (1B walsartan + HCTZ) offers 80/160/320 mg.
    inclusion: { group_id: 1, subgroup_id: 2, dose: 160, interval: null },
    medicines: [
      { medicine_id: 13, dose: 160 },
      { medicine_id: 12, dose: 12.5 },
    ],
    additional_medicines: [{ name: 'Metformina', dose: 500 }],
  };
}

async function register(token: string, body: PatientCreateBody) {
  const res = await t.request('POST', '/api/patients', { token, body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{
    status: 'success';
    patient: { id: number; login: string; password: string; login_url: string };
  }>().patient;
}

async function auditOf(patientId: number) {
  const res = await t.request('GET', '/api/audit_trial', {
    token: admin.session.token,
    query: { patientIds: String(patientId), limit: '100' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{
    data: {
      entity_name: string;
      column_name: string;
      old_value: string | null;
      new_value: string | null;
      user: { login: string | null };
    }[];
    total: number;
  }>();
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unitA = (await t.unit({ name: 'Poradnia A' })).id;
  unitB = (await t.unit({ name: 'Poradnia B' })).id;
  doctorA = await t.readyDoctor(unitA);
  doctorB = await t.readyDoctor(unitB);
});
afterAll(() => t?.close());

describe('study configuration', () => {
  it('ships groups with subgroups, exclusion criteria and 17 medicines with CAS links', async () => {
    const token = doctorA.session.token;
    const groups = (await t.request('GET', '/api/inclusion_criteria_group', { token })).json<{
      data: { nr: number; sub_groups: { doses: number[]; is_fixed_dose: number }[] }[];
    }>().data;
    expect(groups.map((g) => g.nr)).toEqual([1, 2, 3]);
    expect(groups.every((g) => g.sub_groups.length > 0)).toBe(true);
    expect(groups[0]!.sub_groups[1]).toMatchObject({ doses: [80, 160, 320], is_fixed_dose: 0 });
    const exclusions = (await t.request('GET', '/api/exclusion_criteria', { token })).json<{
      data: unknown[];
    }>().data;
    expect(exclusions.length).toBeGreaterThan(3);
    const medicines = (await t.request('GET', '/api/medicine', { token })).json<{
      data: { name: string; cas: string; link: string; doses: number[] }[];
    }>().data;
    expect(medicines).toHaveLength(17);
    expect(medicines.find((m) => m.name === 'amlodypina')).toMatchObject({
      cas: '111470-99-6',
      link: 'https://commonchemistry.cas.org/detail?cas_rn=111470-99-6',
      doses: [5, 10],
    });
  });
});

describe('registration', () => {
  it('creates the patient with an account, derives sex and birth date, and audits every field', async () => {
    const body = registration(doctorA);
    const created = await register(doctorA.session.token, body);
    expect(created.login).toMatch(/^pac\d{6}$/);
    expect(created.login_url).toBe(PUBLIC_URL);
    expect(created.password).toHaveLength(12);

    const res = await t.request('GET', `/api/patients/${created.id}`, {
      token: doctorA.session.token,
    });
    const patient = res.json<PatientDetail>();
    expect(patient).toMatchObject({
      firstname: 'Zofia',
      pesel: body.personal.pesel,
      sex: 'K',
      birth_date: '1960-03-15',
      phone_number: '501234567',
      email: `zofia.wojcik.${body.personal.pesel}@example.pl`,
      weight: 72.5,
      is_classified: true,
      is_finished: 0,
      login: created.login,
      inclusion: { group_id: 1, subgroup_id: 2, dose: 160, interval: null },
      additional_medicines: [{ name: 'Metformina', dose: 500 }],
    });
    expect(patient.medicines.map((m) => [m.medicine_id, m.dose])).toEqual([
      [12, 12.5],
      [13, 160],
    ]);

    const audit = await auditOf(created.id);
    const firstname = audit.data.find(
      (e) => e.entity_name === 'patients' && e.column_name === 'firstname',
    );
    expect(firstname).toMatchObject({
      old_value: null,
      new_value: 'Zofia',
      user: { login: doctorA.login },
    });
    expect(audit.data.some((e) => e.entity_name === 'patient_medicines')).toBe(true);
    expect(
      audit.data.some((e) => e.entity_name === 'patient_inclusions' && e.column_name === 'dose'),
    ).toBe(true);
  });

  it('refuses a PESEL that is already registered with 409 exist_patient', async () => {
    const body = registration(doctorA);
    await register(doctorA.session.token, body);
    const again = await t.request('POST', '/api/patients', {
      token: admin.session.token,
      body: { ...body, personal: { ...body.personal } },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: 'exist_patient' });
  });

  it('answers 422 with Polish messages per field', async () => {
    const body = registration(doctorA, {
      firstname: '',
      pesel: '12345678901',
      phone_number: '12',
      acceptance: false as unknown as true,
    });
    const res = await t.request('POST', '/api/patients', {
      token: doctorA.session.token,
      body: { ...body, inclusion: { group_id: 1, subgroup_id: null, dose: null, interval: null } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        'personal.firstname': ['To pole musi być wypełnione'],
        'personal.pesel': ['Niepoprawny numer PESEL'],
        'personal.phone_number': ['Numer telefonu musi składać się z 9 cyfr'],
        'personal.acceptance': ['Pacjent musi wyrazić zgodę na przetwarzanie danych osobowych'],
      },
    });
  });

  it('requires a subgroup on registration and a listed dose', async () => {
    const noSubgroup = registration(doctorA);
    noSubgroup.inclusion = { group_id: 1, subgroup_id: null, dose: null, interval: null };
    const res = await t.request('POST', '/api/patients', {
      token: doctorA.session.token,
      body: noSubgroup,
    });
    expect(res.statusCode).toBe(422);
    expect(
      res.json<{ errors: Record<string, string[]> }>().errors['inclusion.subgroup_id'],
    ).toEqual(['Wybierz kryterium włączenia']);

    const wrongDose = registration(doctorA);
    wrongDose.inclusion = { group_id: 1, subgroup_id: 2, dose: 999, interval: null };
    const res2 = await t.request('POST', '/api/patients', {
      token: doctorA.session.token,
      body: wrongDose,
    });
    expect(res2.statusCode).toBe(422);
    expect(res2.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'inclusion.dose': ['Wybierz dawkę z listy'],
    });
  });

  it('refuses "qualified" for a patient under 18 or meeting an exclusion criterion', async () => {
    const body = registration(doctorA);
    body.exclusion = { is_above_18: false, exclusion_criteria_id: null, is_classified: true };
    const res = await t.request('POST', '/api/patients', { token: doctorA.session.token, body });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'exclusion.is_classified': [
        'Pacjent niespełniający kryteriów nie może zostać zakwalifikowany',
      ],
    });
  });

  it('does not let a doctor register a patient in another unit', async () => {
    const res = await t.request('POST', '/api/patients', {
      token: doctorA.session.token,
      body: registration(doctorB),
    });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a doctor of another unit than the chosen one', async () => {
    const body = registration(doctorA, { unit_id: unitB });
    const res = await t.request('POST', '/api/patients', { token: admin.session.token, body });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'personal.doctor_id': ['Lekarz nie należy do wybranej jednostki'],
    });
  });
});

describe('validate_pesel', () => {
  it('tells free, taken and invalid numbers apart', async () => {
    const token = doctorA.session.token;
    const body = registration(doctorA);
    await register(token, body);
    const ask = async (pesel: string) =>
      (await t.request('GET', '/api/patients/validate_pesel', { token, query: { pesel } })).json<{
        status: string;
      }>().status;
    expect(await ask(nextPesel())).toBe('success');
    expect(await ask(body.personal.pesel)).toBe('exist_patient');
    expect(await ask('12345678901')).toBe('validation_error');
  });
});

describe('list', () => {
  it('searches by surname, first name and PESEL, filters and pages with total_count', async () => {
    const token = admin.session.token;
    const body = registration(doctorB, { surname: 'Źdźbło', firstname: 'Ignacy' });
    body.inclusion = { group_id: 3, subgroup_id: 7, dose: 100, interval: 'co 2 dni' };
    body.medicines = [{ medicine_id: 16, dose: 100 }];
    const created = await register(token, body);

    const bySurname = (
      await t.request('GET', '/api/patients', { token, query: { search: 'źdźb' } })
    ).json<{ data: { id: number }[]; total_count: number }>();
    expect(bySurname.data.map((p) => p.id)).toEqual([created.id]);
    const byPesel = (
      await t.request('GET', '/api/patients', {
        token,
        query: { search: body.personal.pesel.slice(0, 8) },
      })
    ).json<{ data: { id: number }[] }>();
    expect(byPesel.data.map((p) => p.id)).toContain(created.id);

    const filtered = (
      await t.request('GET', '/api/patients', {
        token,
        query: {
          groups: '3',
          sub_groups: '7',
          medicines: '16',
          doctors: String(doctorB.doctor.id),
          is_finished: '0',
        },
      })
    ).json<{
      data: {
        id: number;
        group: { nr: number };
        subgroup: { id: number };
        medicines: { id: number }[];
      }[];
      total_count: number;
    }>();
    expect(filtered.total_count).toBe(1);
    expect(filtered.data[0]).toMatchObject({
      id: created.id,
      group: { nr: 3 },
      subgroup: { id: 7 },
      medicines: [{ id: 16 }],
    });

    const paged = (
      await t.request('GET', '/api/patients', { token, query: { limit: '1', offset: '1' } })
    ).json<{ data: unknown[]; total_count: number }>();
    expect(paged.data).toHaveLength(1);
    expect(paged.total_count).toBeGreaterThan(1);
    expect(
      (await t.request('GET', '/api/patients', { token, query: { order_by: 'password' } }))
        .statusCode,
    ).toBe(422);
    expect(
      (await t.request('GET', '/api/patients', { token, query: { limit: '101' } })).statusCode,
    ).toBe(422);
  });
});

describe('edit', () => {
  it('saves changed sections and audits old and new values per column', async () => {
    const token = doctorA.session.token;
    const body = registration(doctorA);
    const created = await register(token, body);
    const update = {
      personal: {
        ...body.personal,
        acceptance: undefined,
        surname: 'Wójcik-Nowak',
        is_finished: 1 as const,
      },
      exclusion: body.exclusion,
      inclusion: { group_id: 1, subgroup_id: 2, dose: 320, interval: null },
      medicines: [{ medicine_id: 13, dose: 320 }],
      additional_medicines: [],
      version: 1,
    };
    const res = await putWithReason(t, `/api/patients/${created.id}`, { token, body: update });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'success' });

    const patient = (
      await t.request('GET', `/api/patients/${created.id}`, { token })
    ).json<PatientDetail>();
    expect(patient).toMatchObject({
      surname: 'Wójcik-Nowak',
      is_finished: 1,
      inclusion: { dose: 320 },
      additional_medicines: [],
    });
    expect(patient.medicines.map((m) => [m.medicine_id, m.dose])).toEqual([[13, 320]]);

    const audit = (await auditOf(created.id)).data;
    expect(audit).toContainEqual(
      expect.objectContaining({
        entity_name: 'patients',
        column_name: 'surname',
        old_value: 'Wójcik',
        new_value: 'Wójcik-Nowak',
      }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        entity_name: 'patient_inclusions',
        column_name: 'dose',
        old_value: '160',
        new_value: '320',
      }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        entity_name: 'patient_medicines',
        column_name: 'medicine_id',
        old_value: '12',
        new_value: null,
      }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        entity_name: 'patient_additional_medicines',
        column_name: 'name',
        old_value: 'Metformina',
        new_value: null,
      }),
    );
    // Unchanged columns leave no entry.
    expect(audit.filter((e) => e.column_name === 'firstname')).toHaveLength(1);
  });

  it('requires a group when editing', async () => {
    const body = registration(doctorA);
    const created = await register(doctorA.session.token, body);
    const res = await putWithReason(t, `/api/patients/${created.id}`, {
      token: doctorA.session.token,
      body: {
        ...body,
        inclusion: { group_id: null, subgroup_id: null, dose: null, interval: null },
        version: 1,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors['inclusion.group_id']).toEqual([
      'Wybierz kryterium włączenia',
    ]);
  });
});

/** A project number that would end an HL7 segment and write a result line (ADR 037). */
const INJECTED_PROJECT = 'X\rOBX|1|NM|ALT||999';

describe('single-line fields and JSON numbers (issue 20)', () => {
  const singleLine = ['To pole nie może zawierać znaków nowej linii ani znaków sterujących'];

  it('refuses a project number carrying a CR and an HL7 segment on registration and on edit', async () => {
    const token = doctorA.session.token;
    for (const project_number of [INJECTED_PROJECT, 'X\nOBX|1', 'X\r\n', 'P\t1', 'P\u2028']) {
      const body = registration(doctorA, { project_number });
      const res = await t.request('POST', '/api/patients', { token, body });
      expect(res.statusCode, JSON.stringify(project_number)).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { 'personal.project_number': singleLine },
      });
      const [row] = await t.db
        .select({ id: patients.id })
        .from(patients)
        .where(eq(patients.pesel, body.personal.pesel));
      expect(row).toBeUndefined();
    }

    const body = registration(doctorA);
    const created = await register(token, body);
    const res = await putWithReason(t, `/api/patients/${created.id}`, {
      token,
      body: {
        ...body,
        personal: { ...body.personal, acceptance: undefined, project_number: INJECTED_PROJECT },
        version: 1,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: object }>().errors).toEqual({
      'personal.project_number': singleLine,
    });
    const stored = (
      await t.request('GET', `/api/patients/${created.id}`, { token })
    ).json<PatientDetail>();
    expect(stored).toMatchObject({ project_number: body.personal.project_number, version: 1 });
  });

  it('refuses a line break in every single-line field of the wizard, and keeps no trailing one', async () => {
    const token = doctorA.session.token;
    const fields = [
      'firstname',
      'surname',
      'address_street',
      'address_building',
      'address_apartment',
      'address_postcode',
      'address_city',
      'phone_number',
      'email',
    ] as const;
    for (const field of fields) {
      const body = registration(doctorA);
      const value = `${String(body.personal[field])}\n`;
      const res = await t.request('POST', '/api/patients', {
        token,
        body: { ...body, personal: { ...body.personal, [field]: value } },
      });
      expect(res.statusCode, field).toBe(422);
      expect(res.json<{ errors: object }>().errors, field).toEqual({
        [`personal.${field}`]: singleLine,
      });
    }
    const body = registration(doctorA);
    const other = await t.request('POST', '/api/patients', {
      token,
      body: { ...body, additional_medicines: [{ name: 'Metformina\r\nOBX|1', dose: 500 }] },
    });
    expect(other.json<{ errors: object }>().errors).toEqual({
      'additional_medicines.0.name': singleLine,
    });
  });

  it("refuses numbers sent as strings like any wrong type, with the field's message", async () => {
    const token = doctorA.session.token;
    const number = ['To pole musi być liczbą'];
    const cases: [Partial<PatientCreateBody['personal']>, string][] = [
      [{ weight: '80' as unknown as number }, 'personal.weight'],
      [{ height: '168' as unknown as number }, 'personal.height'],
      [{ unit_id: String(doctorA.doctor.unit_id) as unknown as number }, 'personal.unit_id'],
      [{ doctor_id: String(doctorA.doctor.id) as unknown as number }, 'personal.doctor_id'],
    ];
    for (const [override, field] of cases) {
      const res = await t.request('POST', '/api/patients', {
        token,
        body: registration(doctorA, override),
      });
      expect(res.statusCode, field).toBe(422);
      expect(res.json<{ errors: object }>().errors, field).toEqual({ [field]: number });
    }
    const body = registration(doctorA);
    const group = await t.request('POST', '/api/patients', {
      token,
      body: { ...body, inclusion: { ...body.inclusion, dose: '160' } },
    });
    expect(group.json<{ errors: object }>().errors).toEqual({ 'inclusion.dose': number });
    const created = await register(token, body);
    const res = await putWithReason(t, `/api/patients/${created.id}`, {
      token,
      body: { ...body, personal: { ...body.personal, acceptance: undefined }, version: '1' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: object }>().errors).toHaveProperty('version');
    // The same body with JSON numbers, and no weight at all (null), is taken.
    const ok = await putWithReason(t, `/api/patients/${created.id}`, {
      token,
      body: {
        ...body,
        personal: { ...body.personal, acceptance: undefined, weight: null },
        version: 1,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('the patient card', () => {
  it("counts the patient's samples (probes_count), not another patient's", async () => {
    const token = doctorA.session.token;
    const mine = await register(token, registration(doctorA));
    const other = await register(token, registration(doctorA));
    const count = async (id: number) =>
      (await t.request('GET', `/api/patients/${id}`, { token })).json<PatientDetail>().probes_count;
    expect(await count(mine.id)).toBe(0);
    await insertProbe(t.db, doctorA.session.user.id, mine.id);
    await insertProbe(t.db, doctorA.session.user.id, mine.id);
    await insertProbe(t.db, doctorA.session.user.id, other.id);
    expect(await count(mine.id)).toBe(2);
    expect(await count(other.id)).toBe(1);
  });
});

describe('delete, restore and password', () => {
  it('soft-deletes and restores; the list keeps the row with deleted_at', async () => {
    const token = doctorA.session.token;
    const body = registration(doctorA);
    const created = await register(token, body);
    expect((await t.request('DELETE', `/api/patients/${created.id}`, { token })).json()).toEqual({
      status: 'success',
    });
    const listed = (
      await t.request('GET', '/api/patients', { token, query: { search: body.personal.pesel } })
    ).json<{ data: PatientListItem[] }>();
    // The deleted patient is still listed, marked with the time of the deletion.
    expect(listed.data.map((row) => [row.id, typeof row.deleted_at])).toEqual([
      [created.id, 'string'],
    ]);
    expect(Number.isNaN(Date.parse(listed.data[0]!.deleted_at!))).toBe(false);
    const one = (
      await t.request('GET', `/api/patients/${created.id}`, { token })
    ).json<PatientDetail>();
    expect(one.deleted_at).not.toBeNull();
    expect(
      (await t.request('GET', '/api/patients/all', { token }))
        .json<{ data: { id: number }[] }>()
        .data.map((p) => p.id),
    ).not.toContain(created.id);
    expect(
      (await t.request('PUT', `/api/patients/restore/${created.id}`, { token })).statusCode,
    ).toBe(200);
    expect(
      (await t.request('GET', `/api/patients/${created.id}`, { token })).json<PatientDetail>()
        .deleted_at,
    ).toBeNull();
    const audit = (await auditOf(created.id)).data.filter((e) => e.column_name === 'deleted_at');
    expect(audit).toHaveLength(2);
  });

  it('print_password sets a new password each time', async () => {
    const token = doctorA.session.token;
    const created = await register(token, registration(doctorA));
    const res = await t.request('GET', `/api/patients/print_password/${created.id}`, { token });
    expect(res.statusCode).toBe(200);
    const details = res.json<{ login: string; password: string; login_url: string }>();
    expect(details.login).toBe(created.login);
    // Patients sign in at PUBLIC_URL itself; staff on its /login page.
    expect(details.login_url).toBe(PUBLIC_URL);
    expect(details.password).toHaveLength(12);
    expect(details.password).not.toBe(created.password);
    const [account] = await t.db
      .select({ hash: users.password_hash })
      .from(users)
      .where(eq(users.login, created.login));
    expect(account?.hash).toMatch(/^\$argon2id\$/);
  });
});

describe('unit scope', () => {
  it("hides other units' patients from doctors with 404 in every call", async () => {
    const other = await register(doctorB.session.token, registration(doctorB));
    const token = doctorA.session.token;
    const body = registration(doctorB);
    const calls: ['GET' | 'PUT' | 'POST' | 'DELETE', string, unknown?][] = [
      ['GET', `/api/patients/${other.id}`],
      ['GET', `/api/patients/${other.id}/basic`],
      [
        'PUT',
        `/api/patients/${other.id}`,
        { ...body, personal: { ...body.personal, acceptance: undefined }, version: 1 },
      ],
      ['DELETE', `/api/patients/${other.id}`],
      ['PUT', `/api/patients/restore/${other.id}`],
      ['GET', `/api/patients/print_password/${other.id}`],
      ['GET', `/api/patients/notes?ref_id=${other.id}`],
      [
        'POST',
        '/api/patients/notes',
        { content: '<p>x</p>', ref_type: 'patient', ref_id: other.id },
      ],
      ['GET', `/api/files?ref_type=patient&ref_id=${other.id}`],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.request(method, url, { token, body: payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const listed = (
      await t.request('GET', '/api/patients', { token, query: { limit: '100' } })
    ).json<{ data: { unit_id: number }[] }>();
    expect(listed.data.every((p) => p.unit_id === unitA)).toBe(true);
    const all = (await t.request('GET', '/api/patients/all', { token })).json<{
      data: { unit_id: number }[];
    }>();
    expect(all.data.every((p) => p.unit_id === unitA)).toBe(true);
  });

  it('offers a doctor only the doctors of the own unit', async () => {
    const res = await t.request('GET', '/api/doctors/all', { token: doctorA.session.token });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { unit_id: number }[] }>().data.every((d) => d.unit_id === unitA)).toBe(
      true,
    );
    const other = await t.request('GET', '/api/doctors/all', {
      token: doctorA.session.token,
      query: { unit_id: String(unitB) },
    });
    expect(other.json()).toEqual({ data: [] });
  });
});

describe('audit trail', () => {
  it('cannot be changed or removed, even directly in the database', async () => {
    await register(doctorA.session.token, registration(doctorA));
    await expect(t.db.execute(sql`update audit_entries set new_value = 'x'`)).rejects.toThrow();
    await expect(t.db.execute(sql`delete from audit_entries`)).rejects.toThrow();
    await expect(t.db.execute(sql`truncate audit_entries`)).rejects.toThrow();
  });

  it('filters by doctor and date range and is for administrators only', async () => {
    const created = await register(doctorA.session.token, registration(doctorA));
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
    const res = await t.request('GET', '/api/audit_trial', {
      token: admin.session.token,
      query: { doctorIds: String(doctorA.doctor.id), from_date: today, to_date: today, limit: '5' },
    });
    const body = res.json<{
      data: { user: { login: string }; patient: { id: number } }[];
      total: number;
    }>();
    expect(body.data).toHaveLength(5);
    expect(body.total).toBeGreaterThan(5);
    expect(body.data.every((e) => e.user.login === doctorA.login)).toBe(true);
    expect(body.data[0]?.patient.id).toBe(created.id);
    const yesterday = (
      await t.request('GET', '/api/audit_trial', {
        token: admin.session.token,
        query: { to_date: '2020-01-01' },
      })
    ).json<{ total: number }>();
    expect(yesterday.total).toBe(0);
    expect(
      (await t.request('GET', '/api/audit_trial', { token: doctorA.session.token })).statusCode,
    ).toBe(403);
  });
});

describe('changes to the study configuration', () => {
  it('keeps a medicine that was hidden after the patient got it, but does not offer it anew', async () => {
    const token = admin.session.token;
    const body = registration(doctorA);
    body.medicines = [{ medicine_id: 10, dose: 25 }];
    const created = await register(token, body);
    await t.db.update(medicines).set({ is_visible: false }).where(eq(medicines.id, 10));
    try {
      const update = {
        ...body,
        personal: { ...body.personal, acceptance: undefined },
        version: 1,
      };
      const kept = await putWithReason(t, `/api/patients/${created.id}`, { token, body: update });
      expect(kept.statusCode, kept.body).toBe(200);
      const fresh = registration(doctorA);
      fresh.medicines = [{ medicine_id: 10, dose: 25 }];
      const refused = await t.request('POST', '/api/patients', { token, body: fresh });
      expect(refused.statusCode).toBe(422);
      expect(refused.json<{ errors: Record<string, string[]> }>().errors).toEqual({
        medicines: ['Niektóre pola są nieprawidłowe'],
      });
    } finally {
      await t.db.update(medicines).set({ is_visible: true }).where(eq(medicines.id, 10));
    }
  });

  it('lists patients of any chosen group or subgroup when both filters are given', async () => {
    const token = admin.session.token;
    const inGroup2 = registration(doctorA);
    inGroup2.inclusion = { group_id: 2, subgroup_id: 4, dose: 10, interval: null };
    const a = await register(token, inGroup2);
    const inSubgroup8 = registration(doctorA);
    inSubgroup8.inclusion = { group_id: 3, subgroup_id: 8, dose: 5, interval: null };
    const b = await register(token, inSubgroup8);
    const res = await t.request('GET', '/api/patients', {
      token,
      query: { groups: '2', sub_groups: '8', limit: '100' },
    });
    const ids = res.json<{ data: { id: number }[] }>().data.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    const groups = res.json<{ data: { group: { nr: number } }[] }>().data.map((p) => p.group.nr);
    expect(new Set(groups)).toEqual(new Set([2, 3]));
  });
});

describe('one active patient per e-mail', () => {
  const EXIST = { status: 'exist_patient' };
  const updateOf = (body: PatientCreateBody, email: string) => ({
    ...body,
    personal: { ...body.personal, acceptance: undefined, email },
    version: 1,
  });

  it('refuses a taken e-mail in any letter case on registration and on edit', async () => {
    const token = doctorA.session.token;
    const first = registration(doctorA);
    await register(token, first);
    const taken = first.personal.email!.toUpperCase();
    const again = await t.request('POST', '/api/patients', {
      token,
      body: registration(doctorA, { email: taken }),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(EXIST);

    // Another unit's doctor is told the same: the rule is the study's, not the unit's.
    const elsewhere = await t.request('POST', '/api/patients', {
      token: doctorB.session.token,
      body: registration(doctorB, { email: taken }),
    });
    expect(elsewhere.statusCode).toBe(409);

    const second = registration(doctorA);
    const other = await register(token, second);
    const edit = await putWithReason(t, `/api/patients/${other.id}`, {
      token,
      body: updateOf(second, taken),
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json()).toEqual(EXIST);
    // Keeping the own e-mail is no conflict; no e-mail at all neither.
    const own = await putWithReason(t, `/api/patients/${other.id}`, {
      token,
      body: updateOf(second, second.personal.email!),
    });
    expect(own.statusCode, own.body).toBe(200);
    await register(token, registration(doctorA, { email: null }));
    await register(token, registration(doctorA, { email: null }));
  });

  it("frees a deleted patient's e-mail, and refuses the restore once it is taken again", async () => {
    const token = doctorA.session.token;
    const body = registration(doctorA);
    const gone = await register(token, body);
    await t.request('DELETE', `/api/patients/${gone.id}`, { token });
    const successor = await register(token, registration(doctorA, { email: body.personal.email }));
    const restore = await t.request('PUT', `/api/patients/restore/${gone.id}`, { token });
    expect(restore.statusCode).toBe(409);
    expect(restore.json()).toEqual(EXIST);
    // Once the successor's e-mail changes, the restore goes through.
    await t.request('DELETE', `/api/patients/${successor.id}`, { token });
    expect((await t.request('PUT', `/api/patients/restore/${gone.id}`, { token })).statusCode).toBe(
      200,
    );
  });

  it("frees a deleted patient's PESEL (0026), and refuses the restore once it is taken again", async () => {
    const token = doctorA.session.token;
    const body = registration(doctorA);
    const gone = await register(token, body);
    await t.request('DELETE', `/api/patients/${gone.id}`, { token });
    const ask = await t.request('GET', '/api/patients/validate_pesel', {
      token,
      query: { pesel: body.personal.pesel },
    });
    expect(ask.json()).toEqual({ status: 'success' });
    const successor = await register(
      token,
      registration(doctorA, { pesel: body.personal.pesel, email: null }),
    );
    const restore = await t.request('PUT', `/api/patients/restore/${gone.id}`, { token });
    expect(restore.statusCode).toBe(409);
    expect(restore.json()).toEqual(EXIST);
    await t.request('DELETE', `/api/patients/${successor.id}`, { token });
    expect((await t.request('PUT', `/api/patients/restore/${gone.id}`, { token })).statusCode).toBe(
      200,
    );
  });

  it('lets exactly one of two simultaneous registrations with the same e-mail win', async () => {
    // On PostgreSQL both requests run at once and the unique index decides; PGlite serialises.
    const email = `Blizniak.${nextPesel()}@example.pl`;
    const answers = await Promise.all(
      [doctorA, doctorA].map((doctor) =>
        t.request('POST', '/api/patients', {
          token: doctor.session.token,
          body: registration(doctor, { email }),
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)?.json()).toEqual(EXIST);
    const [stored] = await t.db
      .select({ total: countAll })
      .from(patients)
      .where(sql`lower(${patients.email}) = lower(${email})`);
    expect(stored?.total).toBe(1);
  });
});

describe('search ignoring Polish diacritics', () => {
  it('finds Górski when gorski is typed, and by first name, full name in either order or PESEL', async () => {
    const token = admin.session.token;
    const surname = `Górski${nextPesel().slice(-4)}`;
    const body = registration(doctorA, { surname, firstname: 'Łucja' });
    const created = await register(token, body);
    const search = async (term: string) =>
      (await t.request('GET', '/api/patients', { token, query: { search: term, limit: '100' } }))
        .json<{ data: { id: number }[] }>()
        .data.map((p) => p.id);
    const typed = surname.replace('ó', 'o').toLowerCase();
    expect(await search(typed)).toEqual([created.id]);
    expect(await search(`lucja ${typed}`)).toEqual([created.id]);
    expect(await search(`${typed} lucja`)).toEqual([created.id]);
    expect(await search(`GÓRSKI${surname.slice(-4)}`)).toEqual([created.id]);
    expect(await search(body.personal.pesel)).toEqual([created.id]);
    expect(await search('lucja')).toContain(created.id);
  });

  it('can answer the search from the trigram index instead of reading every patient', async () => {
    const plan = await inTransaction(t.db, null, async (tx) => {
      // With a handful of rows a sequential scan is cheaper; forbid it to see the index is usable.
      await tx.execute(sql`set local enable_seqscan = off`);
      const result: unknown = await tx.execute(
        sql`explain select ${patients.id} from ${patients} where ${searchAny('gorski', [patientSearchText])}`,
      );
      // Both drivers answer { rows }; the shared Database type leaves the result unknown.
      const { rows } = result as { rows: Record<string, unknown>[] };
      return rows.map((row) => Object.values(row).join('')).join('\n');
    });
    expect(plan).toContain('patients_search_trgm_idx');
  });
});
