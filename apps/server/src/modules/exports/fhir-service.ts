import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { rangeFor } from '@portal/shared';
import type { FhirResourceType, ReferenceRange, ReferenceRangeRow, Sex } from '@portal/shared';
import type { Database, Queryable } from '../../db/client.js';
import { loadReferenceRanges } from '../probes/index.js';
import {
  ACT_CODE,
  ATC,
  ATC_OF,
  ECG_CODES,
  INTERPRETATION,
  INTERPRETATION_CODES,
  LAB_CODES,
  LOCAL,
  LOINC,
  OBSERVATION_CATEGORY,
  PESEL_SYSTEM,
  SNOMED,
  SPECIMEN_TYPE,
  STUDY_ID,
  UCUM,
  UCUM_OF,
} from './fhir-codes.js';
import { subjectIdSql } from './subjects.js';

/**
 * The HL7 FHIR R4 export (ADR 055): ResearchStudy, ResearchSubject, Patient, Encounter (visits),
 * Observation (ECG and laboratory), Specimen (samples), MedicationStatement, built from the
 * database a page of patients at a time. Every resource of a patient is named by the patient's
 * study subject id (ADR 054), never by a database id of the patient, so that a pseudonymised
 * export carries nothing that leads back to a person: the identity columns are not even read
 * unless an identified export was asked for.
 */

export type FhirResource = { resourceType: string; id: string } & Record<string, unknown>;

const PATIENT_PAGE = 200;
type Row = Record<string, unknown>;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

interface Identity {
  firstname: string;
  surname: string;
  pesel: string;
  birth_date: string;
  address_street: string | null;
  address_building: string | null;
  address_apartment: string | null;
  address_postcode: string | null;
  address_city: string | null;
  phone_number: string;
  email: string | null;
}

interface PatientRow {
  id: number;
  subject: string;
  sex: Sex;
  birth_year: number;
  is_finished: boolean;
  registered: string;
  arm: string | null;
  /** Only in an identified export. */
  identity?: Identity;
}

interface VisitRow {
  id: number;
  patient_id: number;
  date: string;
  started_at: string;
  ended_at: string;
  is_done: boolean;
  cancelled: boolean;
  qt: number | null;
  rr: number | null;
  pq: number | null;
  qrs: number | null;
  qtcb: number | null;
  qtcfra: number | null;
}

interface ProbeRow {
  id: number;
  patient_id: number;
  code: string;
  visit_id: number | null;
  type_of_material: string;
  date_of_sample: string;
  alt: string | null;
  ast: string | null;
  creatine: string | null;
  bilirubine: string | null;
  drugs: { medicine_id: number; value: string }[] | null;
}

interface MedicineRow {
  patient_id: number;
  medicine_id: number | null;
  name: string;
  inn: string | null;
  dose: string | null;
  additional_id: number | null;
}

interface Page {
  patients: PatientRow[];
  visits: Map<number, VisitRow[]>;
  probes: Map<number, ProbeRow[]>;
  medicines: Map<number, MedicineRow[]>;
}

export interface FhirContext {
  ranges: ReferenceRangeRow[];
  medicines: Map<number, { name: string; inn: string }>;
  arms: string[];
  pseudonymised: boolean;
}

export async function loadFhirContext(db: Queryable, pseudonymised: boolean): Promise<FhirContext> {
  const [ranges, medicines, groups] = await Promise.all([
    loadReferenceRanges(db),
    db.execute(sql`select id, name, inn from medicines order by id`),
    db.execute(sql`select name from inclusion_criteria_groups order by id`),
  ]);
  return {
    ranges,
    medicines: new Map(
      rowsOf<{ id: number; name: string; inn: string }>(medicines).map((m) => [
        Number(m.id),
        { name: m.name, inn: m.inn },
      ]),
    ),
    arms: rowsOf<{ name: string }>(groups).map((g) => g.name),
    pseudonymised,
  };
}

function groupBy<T extends { patient_id: number }>(rows: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const id = Number(row.patient_id);
    const list = map.get(id);
    if (list) list.push(row);
    else map.set(id, [row]);
  }
  return map;
}

/** One page of patients (live ones, by id) with everything the resources need. */
async function loadPage(db: Queryable, where: SQL, identified: boolean): Promise<Page> {
  const identity = identified
    ? sql`, json_build_object('firstname', pt.firstname, 'surname', pt.surname, 'pesel', pt.pesel,
          'birth_date', pt.birth_date::text, 'address_street', pt.address_street,
          'address_building', pt.address_building, 'address_apartment', pt.address_apartment,
          'address_postcode', pt.address_postcode, 'address_city', pt.address_city,
          'phone_number', pt.phone_number, 'email', pt.email) as identity`
    : sql``;
  const patients = rowsOf<PatientRow>(
    await db.execute(sql`
      select pt.id, ${subjectIdSql} as subject, pt.sex,
        extract(year from pt.birth_date)::int as birth_year, pt.is_finished,
        pt.created_at::date::text as registered, g.name as arm ${identity}
      from patients pt
      join study_subjects s on s.patient_id = pt.id
      left join patient_inclusions pi on pi.patient_id = pt.id
      left join inclusion_criteria_groups g on g.id = pi.group_id
      where pt.deleted_at is null and ${where}
      order by pt.id limit ${PATIENT_PAGE}`),
  ).map((p) => ({ ...p, id: Number(p.id), birth_year: Number(p.birth_year) }));
  if (patients.length === 0)
    return { patients, visits: new Map(), probes: new Map(), medicines: new Map() };
  const ids = sql.join(
    patients.map((p) => sql`${p.id}`),
    sql`, `,
  );
  const [visits, probes, medicines] = await Promise.all([
    db.execute(sql`
      select v.id, v.patient_id, v.date::text as date, v.started_at::text as started_at,
        v.ended_at::text as ended_at, v.is_done, v.cancelled_at is not null as cancelled,
        v.qt, v.rr, v.pq, v.qrs, v.qtcb, v.qtcfra
      from visits v where v.patient_id in (${ids}) order by v.patient_id, v.date, v.started_at, v.id`),
    db.execute(sql`
      select p.id, p.patient_id, p.code, p.visit_id, p.type_of_material,
        p.date_of_sample::text as date_of_sample, p.alt::text as alt, p.ast::text as ast,
        p.creatine::text as creatine, p.bilirubine::text as bilirubine,
        (select json_agg(json_build_object('medicine_id', pm.medicine_id,
           'value', pm.concentration::text) order by pm.medicine_id)
         from probe_medicines pm where pm.probe_id = p.id and pm.concentration is not null) as drugs
      from probes p where p.patient_id in (${ids}) order by p.patient_id, p.id`),
    db.execute(sql`
      select pm.patient_id, pm.medicine_id, m.name, m.inn, pm.dose::text as dose,
        null::int as additional_id
      from patient_medicines pm join medicines m on m.id = pm.medicine_id
      where pm.patient_id in (${ids})
      union all
      select a.patient_id, null, a.name, null, a.dose::text, a.id
      from patient_additional_medicines a where a.patient_id in (${ids})
      order by 1, 2, 6`),
  ]);
  return {
    patients,
    visits: groupBy(rowsOf<VisitRow>(visits)),
    probes: groupBy(rowsOf<ProbeRow>(probes)),
    medicines: groupBy(rowsOf<MedicineRow>(medicines)),
  };
}

const quantity = (value: number, unit: string) => ({
  value,
  unit,
  system: UCUM,
  code: unit,
});

/** A visit's local date and time as a FHIR dateTime with Poland's offset on that day. */
export function warsawDateTime(date: string, time: string): string {
  const hhmmss = time.length === 5 ? `${time}:00` : time.slice(0, 8);
  const probe = new Date(`${date}T${hhmmss}Z`);
  const name = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Europe/Warsaw',
    timeZoneName: 'longOffset',
  })
    .formatToParts(probe)
    .find((part) => part.type === 'timeZoneName')?.value;
  const offset = name && name !== 'GMT' ? name.slice(3) : '+00:00';
  return `${date}T${hhmmss}${offset}`;
}

function interpretation(value: number, range: ReferenceRange | null) {
  if (!range) return undefined;
  let code: keyof typeof INTERPRETATION_CODES = 'N';
  if (range.min !== null && value < range.min) code = 'L';
  else if (range.max !== null && value > range.max) code = 'H';
  else if (range.below !== null && !(value < range.below)) code = 'H';
  return [{ coding: [{ system: INTERPRETATION, code, display: INTERPRETATION_CODES[code] }] }];
}

function referenceRange(range: ReferenceRange | null, unit: string) {
  if (!range) return undefined;
  const high = range.max ?? range.below;
  if (range.min === null && high === null) return undefined;
  return [
    {
      ...(range.min !== null ? { low: quantity(Number(range.min), unit) } : {}),
      ...(high !== null ? { high: quantity(Number(high), unit) } : {}),
      ...(range.below !== null ? { text: `< ${Number(range.below)} ${unit}` } : {}),
    },
  ];
}

const ref = (type: string, id: string) => ({ reference: `${type}/${id}` });

export function researchStudy(ctx: FhirContext): FhirResource {
  return {
    resourceType: 'ResearchStudy',
    id: STUDY_ID,
    identifier: [{ system: LOCAL.study, value: 'FDC-KARDIO' }],
    title: 'FDC-KARDIO: badanie kardiologiczne leków złożonych (fixed-dose combinations)',
    status: 'active',
    ...(ctx.arms.length > 0 ? { arm: ctx.arms.map((name) => ({ name })) } : {}),
  };
}

function patientResource(p: PatientRow): FhirResource {
  const gender = p.sex === 'M' ? 'male' : 'female';
  const subjectIdentifier = { system: LOCAL.subject, value: p.subject };
  const who = p.identity;
  if (!who) {
    return {
      resourceType: 'Patient',
      id: p.subject,
      identifier: [subjectIdentifier],
      gender,
      birthDate: String(p.birth_year),
    };
  }
  const line = [
    [who.address_street, who.address_building].filter(Boolean).join(' ') +
      (who.address_apartment ? `/${who.address_apartment}` : ''),
  ].filter((l) => l.trim() !== '');
  return {
    resourceType: 'Patient',
    id: p.subject,
    identifier: [subjectIdentifier, { system: PESEL_SYSTEM, value: who.pesel }],
    name: [{ family: who.surname, given: [who.firstname] }],
    telecom: [
      { system: 'phone', value: who.phone_number },
      ...(who.email ? [{ system: 'email', value: who.email }] : []),
    ],
    gender,
    birthDate: who.birth_date,
    ...(who.address_city || line.length > 0
      ? {
          address: [
            {
              ...(line.length > 0 ? { line } : {}),
              ...(who.address_postcode ? { postalCode: who.address_postcode } : {}),
              ...(who.address_city ? { city: who.address_city } : {}),
              country: 'PL',
            },
          ],
        }
      : {}),
  };
}

function researchSubject(p: PatientRow): FhirResource {
  return {
    resourceType: 'ResearchSubject',
    id: p.subject,
    identifier: [{ system: LOCAL.subject, value: p.subject }],
    status: p.is_finished ? 'off-study' : 'on-study',
    period: { start: p.registered },
    study: ref('ResearchStudy', STUDY_ID),
    individual: ref('Patient', p.subject),
    ...(p.arm ? { assignedArm: p.arm } : {}),
  };
}

function encounter(p: PatientRow, v: VisitRow): FhirResource {
  return {
    resourceType: 'Encounter',
    id: `visit-${v.id}`,
    status: v.cancelled ? 'cancelled' : v.is_done ? 'finished' : 'planned',
    class: { system: ACT_CODE, code: 'AMB', display: 'ambulatory' },
    type: [{ text: 'Wizyta w badaniu' }],
    subject: ref('Patient', p.subject),
    period: {
      start: warsawDateTime(v.date, v.started_at),
      end: warsawDateTime(v.date, v.ended_at),
    },
  };
}

function ecgObservations(ctx: FhirContext, p: PatientRow, v: VisitRow): FhirResource[] {
  if (v.cancelled || !v.is_done) return [];
  const out: FhirResource[] = [];
  for (const key of Object.keys(ECG_CODES) as (keyof typeof ECG_CODES)[]) {
    const raw = v[key];
    if (raw === null || raw === undefined) continue;
    const value = Number(raw);
    const codes = ECG_CODES[key];
    const range = rangeFor(ctx.ranges, 'ecg', key, p.sex);
    out.push({
      resourceType: 'Observation',
      id: `ecg-${v.id}-${key}`,
      status: 'final',
      category: [
        { coding: [{ system: OBSERVATION_CATEGORY, code: 'procedure', display: 'Procedure' }] },
      ],
      code: {
        coding: [
          { system: LOINC, ...codes.loinc },
          { system: LOCAL.ecg, ...codes.local },
        ],
        text: codes.local.display,
      },
      subject: ref('Patient', p.subject),
      encounter: ref('Encounter', `visit-${v.id}`),
      effectiveDateTime: warsawDateTime(v.date, v.started_at),
      valueQuantity: quantity(value, 'ms'),
      ...withRange(value, range, 'ms'),
    });
  }
  return out;
}

function withRange(value: number, range: ReferenceRange | null, unit: string) {
  const rr = referenceRange(range, unit);
  const flag = interpretation(value, range);
  return { ...(flag ? { interpretation: flag } : {}), ...(rr ? { referenceRange: rr } : {}) };
}

function labObservations(ctx: FhirContext, p: PatientRow, s: ProbeRow): FhirResource[] {
  const out: FhirResource[] = [];
  const common = (id: string) => ({
    resourceType: 'Observation',
    id,
    status: 'final',
    category: [
      { coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] },
    ],
    subject: ref('Patient', p.subject),
    ...(s.visit_id ? { encounter: ref('Encounter', `visit-${s.visit_id}`) } : {}),
    effectiveDateTime: s.date_of_sample.slice(0, 10),
    specimen: ref('Specimen', `sample-${s.id}`),
  });
  for (const key of Object.keys(LAB_CODES) as (keyof typeof LAB_CODES)[]) {
    const raw = s[key];
    if (raw === null || raw === undefined) continue;
    const value = Number(raw);
    const codes = LAB_CODES[key];
    const range = rangeFor(ctx.ranges, 'biochemistry', key, p.sex);
    out.push({
      ...common(`lab-${s.id}-${key}`),
      code: { coding: [{ system: LOINC, ...codes.loinc }], text: codes.text },
      valueQuantity: quantity(value, codes.unit),
      ...withRange(value, range, codes.unit),
    });
  }
  for (const drug of s.drugs ?? []) {
    const medicine = ctx.medicines.get(Number(drug.medicine_id));
    if (!medicine) continue;
    const value = Number(drug.value);
    const range = rangeFor(ctx.ranges, 'drug', medicine.inn, p.sex);
    const unit = UCUM_OF[range?.unit ?? 'ng/ml'] ?? 'ng/mL';
    out.push({
      ...common(`drug-${s.id}-${Number(drug.medicine_id)}`),
      code: {
        coding: [
          {
            system: LOCAL.drugConcentration,
            code: medicine.inn,
            display: `${medicine.inn} concentration`,
          },
        ],
        text: `Stężenie: ${medicine.name}`,
      },
      valueQuantity: quantity(value, unit),
      ...withRange(value, range, unit),
    });
  }
  return out;
}

function specimen(p: PatientRow, s: ProbeRow, identified: boolean): FhirResource {
  const type = SPECIMEN_TYPE[s.type_of_material];
  return {
    resourceType: 'Specimen',
    id: `sample-${s.id}`,
    // The sample code carries the participant number (ADR 041), which the site's own records
    // link to the person: only an identified export names it (ADR 054).
    ...(identified ? { accessionIdentifier: { system: LOCAL.sample, value: s.code } } : {}),
    status: 'available',
    ...(type ? { type: { coding: [{ system: SNOMED, ...type }] } } : {}),
    subject: ref('Patient', p.subject),
    collection: { collectedDateTime: s.date_of_sample.slice(0, 10) },
  };
}

function medicationStatement(p: PatientRow, m: MedicineRow): FhirResource {
  const atc = m.inn ? ATC_OF[m.inn] : undefined;
  const coding = [
    ...(atc ? [{ system: ATC, code: atc, display: m.inn! }] : []),
    ...(m.medicine_id !== null
      ? [{ system: LOCAL.medicine, code: String(m.medicine_id), display: m.name }]
      : []),
  ];
  const id =
    m.additional_id !== null
      ? `additional-${m.additional_id}`
      : `medicine-${p.subject}-${m.medicine_id}`;
  return {
    resourceType: 'MedicationStatement',
    id,
    status: p.is_finished ? 'completed' : 'active',
    medicationCodeableConcept: { ...(coding.length > 0 ? { coding } : {}), text: m.name },
    subject: ref('Patient', p.subject),
    ...(m.dose ? { dosage: [{ text: `${Number(m.dose)} mg` }] } : {}),
  };
}

/** The resources of one type for one page of patients. */
function resourcesOf(ctx: FhirContext, type: FhirResourceType, page: Page): FhirResource[] {
  const out: FhirResource[] = [];
  for (const p of page.patients) {
    const visits = page.visits.get(p.id) ?? [];
    const probes = page.probes.get(p.id) ?? [];
    switch (type) {
      case 'ResearchStudy':
        break;
      case 'ResearchSubject':
        out.push(researchSubject(p));
        break;
      case 'Patient':
        out.push(patientResource(p));
        break;
      case 'Encounter':
        for (const v of visits) out.push(encounter(p, v));
        break;
      case 'Observation':
        for (const v of visits) out.push(...ecgObservations(ctx, p, v));
        for (const s of probes) out.push(...labObservations(ctx, p, s));
        break;
      case 'Specimen':
        for (const s of probes) out.push(specimen(p, s, !ctx.pseudonymised));
        break;
      case 'MedicationStatement':
        for (const m of page.medicines.get(p.id) ?? []) out.push(medicationStatement(p, m));
        break;
    }
  }
  return out;
}

/**
 * The NDJSON export: the types in the order asked, each type's resources together (as a Bulk
 * Data `$export` writes one file per type), every patient page read once per type so that
 * memory holds one page. One string per page.
 */
export async function* fhirNdjson(
  db: Database,
  ctx: FhirContext,
  types: readonly FhirResourceType[],
): AsyncGenerator<string> {
  for (const type of types) {
    if (type === 'ResearchStudy') {
      yield `${JSON.stringify(researchStudy(ctx))}\n`;
      continue;
    }
    let after = 0;
    for (;;) {
      const page = await loadPage(db, sql`pt.id > ${after}`, !ctx.pseudonymised);
      if (page.patients.length === 0) break;
      const lines = resourcesOf(ctx, type, page).map((r) => JSON.stringify(r));
      if (lines.length > 0) yield `${lines.join('\n')}\n`;
      if (page.patients.length < PATIENT_PAGE) break;
      after = page.patients[page.patients.length - 1]!.id;
    }
  }
}

export const FHIR_ORDER: readonly FhirResourceType[] = [
  'ResearchStudy',
  'ResearchSubject',
  'Patient',
  'Encounter',
  'Observation',
  'Specimen',
  'MedicationStatement',
];

/** One patient's resources as a Bundle of type `collection` (null: no such live patient). */
export async function fhirPatientBundle(
  db: Queryable,
  ctx: FhirContext,
  patientId: number,
): Promise<Row | null> {
  const page = await loadPage(db, sql`pt.id = ${patientId}`, !ctx.pseudonymised);
  if (page.patients.length === 0) return null;
  const resources = [
    researchStudy(ctx),
    ...FHIR_ORDER.flatMap((type) => resourcesOf(ctx, type, page)),
  ];
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: new Date().toISOString(),
    entry: resources.map((resource) => ({ resource })),
  };
}
