import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  ODM_CODELIST_MATERIAL,
  ODM_CODELIST_SEX,
  ODM_EVENT_PATIENT,
  ODM_EVENT_SAMPLES,
  ODM_FORM_ECG,
  ODM_FORM_PATIENT,
  ODM_FORM_SAMPLES,
  ODM_GROUP_ECG,
  ODM_GROUP_PATIENT,
  ODM_GROUP_SAMPLE,
  ODM_ITEMS_ECG,
  ODM_ITEMS_PATIENT,
  ODM_ITEMS_SAMPLE,
  ODM_METADATA_VERSION_OID,
  ODM_STUDY_OID,
  ODM_UNITS,
  odmDrugItemOid,
  odmVisitEventOid,
} from './odm-oids.js';
import { subjectIdSql } from './subjects.js';

/**
 * The CDISC ODM 1.3.2 export (GET /api/exports/odm.xml, ADR 032): the study's metadata, then
 * the clinical data of every live patient, written patient page by patient page (a string per
 * subject), so that memory holds one page, never the whole file.
 */

export const ODM_FILE_NAME = 'odm.xml';
const PATIENT_PAGE = 200;

type Unit = keyof typeof ODM_UNITS;
type DataType = 'text' | 'integer' | 'float' | 'date';

interface RangeRow {
  kind: string;
  analyte: string;
  sex: string | null;
  min: string | null;
  max: string | null;
  below: string | null;
}

export interface OdmMetadata {
  medicines: { id: number; name: string; inn: string }[];
  ranges: RangeRow[];
  /** The highest visit ordinal of any patient (at least 1): one study event per ordinal. */
  maxOrdinal: number;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

// XML 1.0 forbids these code points even as references; they never belong in study data.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text or an attribute value, escaped (quotes included) and stripped of what XML cannot hold. */
export function xmlEscape(value: string | number): string {
  return String(value)
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(value)}"`)
    .join('');
const pl = (text: string) => `<TranslatedText xml:lang="pl">${xmlEscape(text)}</TranslatedText>`;

export async function loadOdmMetadata(db: Database): Promise<OdmMetadata> {
  const [medicines, ranges, ordinal] = await Promise.all([
    db.execute(sql`select id, name, inn from medicines order by id`),
    db.execute(sql`select kind, analyte, sex, min::text as min, max::text as max,
      below::text as below from reference_ranges order by id`),
    db.execute(sql`select coalesce(max(n), 1) as n from (select count(*) as n from visits
      where cancelled_at is null group by patient_id) c`),
  ]);
  return {
    medicines: rowsOf<{ id: number; name: string; inn: string }>(medicines).map((m) => ({
      ...m,
      id: Number(m.id),
    })),
    ranges: rowsOf<RangeRow>(ranges),
    maxOrdinal: Math.max(1, Number(rowsOf<{ n: number }>(ordinal)[0]?.n ?? 1)),
  };
}

/** Soft range checks of an item: one range for both sexes, or the widest of the two. */
function rangeChecks(ranges: RangeRow[]): string {
  if (ranges.length === 0) return '';
  const numbers = (pick: (r: RangeRow) => string | null) =>
    ranges
      .map(pick)
      .filter((v): v is string => v !== null)
      .map(Number);
  const mins = numbers((r) => r.min);
  const maxes = numbers((r) => r.max);
  const belows = numbers((r) => r.below);
  const bySex = ranges.some((r) => r.sex !== null);
  const note = bySex ? ' (zakres zależny od płci: podano najszerszy)' : '';
  const check = (comparator: string, value: number, message: string) =>
    `<RangeCheck${attrs({ Comparator: comparator, SoftHard: 'Soft' })}><CheckValue>${value}</CheckValue><ErrorMessage>${pl(message + note)}</ErrorMessage></RangeCheck>`;
  let out = '';
  if (mins.length === ranges.length) out += check('GE', Math.min(...mins), 'Poniżej normy');
  if (maxes.length === ranges.length) out += check('LE', Math.max(...maxes), 'Powyżej normy');
  if (belows.length === ranges.length)
    out += check('LT', Math.max(...belows), 'Powyżej granicy normy');
  return out;
}

function itemDef(
  oid: string,
  name: string,
  dataType: DataType,
  options: { unit?: Unit; ranges?: RangeRow[]; codeList?: string } = {},
): string {
  const unit = options.unit
    ? `<MeasurementUnitRef MeasurementUnitOID="${ODM_UNITS[options.unit]}"/>`
    : '';
  const codeList = options.codeList ? `<CodeListRef CodeListOID="${options.codeList}"/>` : '';
  return `<ItemDef${attrs({ OID: oid, Name: name, DataType: dataType })}><Question>${pl(name)}</Question>${unit}${rangeChecks(options.ranges ?? [])}${codeList}</ItemDef>`;
}

function itemGroupDef(oid: string, name: string, repeating: boolean, items: string[]): string {
  const refs = items
    .map(
      (item, index) =>
        `<ItemRef${attrs({ ItemOID: item, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
    )
    .join('');
  return `<ItemGroupDef${attrs({ OID: oid, Name: name, Repeating: repeating ? 'Yes' : 'No' })}>${refs}</ItemGroupDef>`;
}

/** Everything before ClinicalData: the ODM element, the study and its metadata. */
export function odmHeader(meta: OdmMetadata, now: Date): string {
  const rangesOf = (kind: string, analyte: string) =>
    meta.ranges.filter((r) => r.kind === kind && r.analyte === analyte);
  const ordinals = Array.from({ length: meta.maxOrdinal }, (_, i) => i + 1);
  const drugItems = meta.medicines.map((m) => odmDrugItemOid(m.id));
  const events = [ODM_EVENT_PATIENT, ...ordinals.map(odmVisitEventOid), ODM_EVENT_SAMPLES];
  const units = Object.entries(ODM_UNITS)
    .map(
      ([symbol, oid]) =>
        `<MeasurementUnit${attrs({ OID: oid, Name: symbol })}><Symbol>${pl(symbol)}</Symbol></MeasurementUnit>`,
    )
    .join('');
  const eventDef = (oid: string, name: string, type: string, form: string) =>
    `<StudyEventDef${attrs({ OID: oid, Name: name, Repeating: 'No', Type: type })}><FormRef${attrs({ FormOID: form, OrderNumber: 1, Mandatory: 'No' })}/></StudyEventDef>`;
  const formDef = (oid: string, name: string, group: string) =>
    `<FormDef${attrs({ OID: oid, Name: name, Repeating: 'No' })}><ItemGroupRef${attrs({ ItemGroupOID: group, OrderNumber: 1, Mandatory: 'No' })}/></FormDef>`;
  const codeList = (oid: string, name: string, items: [string, string][]) =>
    `<CodeList${attrs({ OID: oid, Name: name, DataType: 'text' })}>${items
      .map(
        ([coded, decode]) =>
          `<CodeListItem${attrs({ CodedValue: coded })}><Decode>${pl(decode)}</Decode></CodeListItem>`,
      )
      .join('')}</CodeList>`;
  const s = ODM_ITEMS_SAMPLE;
  const e = ODM_ITEMS_ECG;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<ODM${attrs({
      xmlns: 'http://www.cdisc.org/ns/odm/v1.3',
      ODMVersion: '1.3.2',
      FileType: 'Snapshot',
      FileOID: `ODM.${now.toISOString().replace(/[-:.]/g, '')}`,
      CreationDateTime: now.toISOString(),
      SourceSystem: 'Portal badania FDC-KARDIO',
    })}>\n`,
    `<Study OID="${ODM_STUDY_OID}"><GlobalVariables><StudyName>FDC-KARDIO</StudyName>`,
    '<StudyDescription>Badanie kardiologiczne leków złożonych (fixed-dose combinations)</StudyDescription>',
    '<ProtocolName>FDC-KARDIO</ProtocolName></GlobalVariables>',
    `<BasicDefinitions>${units}</BasicDefinitions>\n`,
    `<MetaDataVersion${attrs({ OID: ODM_METADATA_VERSION_OID, Name: 'Wersja 1' })}><Protocol>`,
    events
      .map(
        (oid, index) =>
          `<StudyEventRef${attrs({ StudyEventOID: oid, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
      )
      .join(''),
    '</Protocol>',
    eventDef(ODM_EVENT_PATIENT, 'Pacjent', 'Common', ODM_FORM_PATIENT),
    ...ordinals.map((n) => eventDef(odmVisitEventOid(n), `Wizyta ${n}`, 'Scheduled', ODM_FORM_ECG)),
    eventDef(ODM_EVENT_SAMPLES, 'Próbki', 'Unscheduled', ODM_FORM_SAMPLES),
    formDef(ODM_FORM_PATIENT, 'Pacjent', ODM_GROUP_PATIENT),
    formDef(ODM_FORM_ECG, 'EKG', ODM_GROUP_ECG),
    formDef(ODM_FORM_SAMPLES, 'Próbki', ODM_GROUP_SAMPLE),
    itemGroupDef(ODM_GROUP_PATIENT, 'Pacjent', false, Object.values(ODM_ITEMS_PATIENT)),
    itemGroupDef(ODM_GROUP_ECG, 'EKG', false, Object.values(ODM_ITEMS_ECG)),
    itemGroupDef(ODM_GROUP_SAMPLE, 'Próbka', true, [
      ...Object.values(ODM_ITEMS_SAMPLE),
      ...drugItems,
    ]),
    '\n',
    itemDef(ODM_ITEMS_PATIENT.sex, 'Płeć', 'text', { codeList: ODM_CODELIST_SEX }),
    itemDef(ODM_ITEMS_PATIENT.group, 'Numer grupy', 'integer'),
    itemDef(e.date, 'Data wizyty', 'date'),
    ...(['qt', 'rr', 'pq', 'qrs', 'qtcb', 'qtcfra'] as const).map((key) =>
      itemDef(
        e[key],
        key === 'qtcfra' ? 'QTcF' : key === 'qtcb' ? 'QTcB' : key.toUpperCase(),
        'integer',
        {
          unit: 'ms',
          ranges: rangesOf('ecg', key),
        },
      ),
    ),
    itemDef(s.probe_code, 'Numer próbki', 'text'),
    itemDef(s.material, 'Rodzaj materiału', 'text', { codeList: ODM_CODELIST_MATERIAL }),
    itemDef(s.alt, 'ALT', 'float', { unit: 'U/l', ranges: rangesOf('biochemistry', 'alt') }),
    itemDef(s.ast, 'AST', 'float', { unit: 'U/l', ranges: rangesOf('biochemistry', 'ast') }),
    itemDef(s.creatine, 'Kreatynina', 'float', {
      unit: 'mg/dl',
      ranges: rangesOf('biochemistry', 'creatine'),
    }),
    itemDef(s.bilirubine, 'Bilirubina', 'float', {
      unit: 'mg/dl',
      ranges: rangesOf('biochemistry', 'bilirubine'),
    }),
    itemDef(s.hours, 'Godziny od ostatniej dawki', 'float', { unit: 'h' }),
    itemDef(s.date_of_analysis, 'Data analizy', 'date'),
    itemDef(s.date_of_sample, 'Data pobrania', 'date'),
    itemDef(s.visit_ordinal, 'Numer wizyty', 'integer'),
    ...meta.medicines.map((m) =>
      itemDef(odmDrugItemOid(m.id), `Stężenie: ${m.name}`, 'float', {
        unit: 'ng/ml',
        ranges: rangesOf('drug', m.inn),
      }),
    ),
    '\n',
    codeList(ODM_CODELIST_SEX, 'Płeć', [
      ['M', 'Mężczyzna'],
      ['K', 'Kobieta'],
    ]),
    codeList(ODM_CODELIST_MATERIAL, 'Rodzaj materiału', [
      ['venous', 'Krew żylna'],
      ['capillary', 'Krew włośniczkowa'],
    ]),
    '</MetaDataVersion></Study>\n',
    `<ClinicalData${attrs({ StudyOID: ODM_STUDY_OID, MetaDataVersionOID: ODM_METADATA_VERSION_OID })}>\n`,
  ].join('');
}

export const ODM_FOOTER = '</ClinicalData>\n</ODM>\n';

interface PatientRow {
  id: number;
  /** The study subject id (ADR 054), used as the SubjectKey of a pseudonymised export. */
  subject?: string;
  sex: string;
  group_nr: number | null;
}
interface VisitRow {
  patient_id: number;
  ordinal: number;
  date: string;
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
  type_of_material: string;
  alt: string | null;
  ast: string | null;
  creatine: string | null;
  bilirubine: string | null;
  hours: string | null;
  date_of_analysis: string | null;
  date_of_sample: string;
  visit_ordinal: number | null;
  drugs: { medicine_id: number; value: string | null }[] | null;
}

type Items = [oid: string, value: string | number | null | undefined][];

const itemData = (items: Items) =>
  items
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([oid, value]) => `<ItemData${attrs({ ItemOID: oid, Value: value! })}/>`)
    .join('');

const dateText = (value: string | Date | null): string | null =>
  value === null
    ? null
    : typeof value === 'string'
      ? value.slice(0, 10)
      : value.toISOString().slice(0, 10);

function event(oid: string, form: string, groups: string): string {
  return `<StudyEventData StudyEventOID="${oid}"><FormData FormOID="${form}">${groups}</FormData></StudyEventData>`;
}

/** One patient's SubjectData. */
export function subjectXml(
  patient: PatientRow,
  visits: VisitRow[],
  probes: ProbeRow[],
  pseudonymised = false,
): string {
  const e = ODM_ITEMS_ECG;
  const s = ODM_ITEMS_SAMPLE;
  const key = pseudonymised ? (patient.subject ?? '') : String(patient.id);
  let out = `<SubjectData${attrs({ SubjectKey: key })}>`;
  out += event(
    ODM_EVENT_PATIENT,
    ODM_FORM_PATIENT,
    `<ItemGroupData ItemGroupOID="${ODM_GROUP_PATIENT}">${itemData([
      [ODM_ITEMS_PATIENT.sex, patient.sex],
      [ODM_ITEMS_PATIENT.group, patient.group_nr],
    ])}</ItemGroupData>`,
  );
  for (const v of visits) {
    out += event(
      odmVisitEventOid(Number(v.ordinal)),
      ODM_FORM_ECG,
      `<ItemGroupData ItemGroupOID="${ODM_GROUP_ECG}">${itemData([
        [e.date, dateText(v.date)],
        [e.qt, v.qt],
        [e.rr, v.rr],
        [e.pq, v.pq],
        [e.qrs, v.qrs],
        [e.qtcb, v.qtcb],
        [e.qtcfra, v.qtcfra],
      ])}</ItemGroupData>`,
    );
  }
  if (probes.length > 0) {
    const groups = probes
      .map(
        (p) =>
          `<ItemGroupData${attrs({ ItemGroupOID: ODM_GROUP_SAMPLE, ItemGroupRepeatKey: p.id })}>${itemData(
            [
              // A sample code carries the participant number (ADR 041): left out when
              // pseudonymised (ADR 054); the repeat key (the sample's id) still tells them apart.
              [s.probe_code, pseudonymised ? null : p.code],
              [s.material, p.type_of_material],
              [s.alt, p.alt],
              [s.ast, p.ast],
              [s.creatine, p.creatine],
              [s.bilirubine, p.bilirubine],
              [s.hours, p.hours],
              [s.date_of_analysis, dateText(p.date_of_analysis)],
              [s.date_of_sample, dateText(p.date_of_sample)],
              [s.visit_ordinal, p.visit_ordinal],
              ...(p.drugs ?? []).map((d): Items[number] => [
                odmDrugItemOid(Number(d.medicine_id)),
                d.value,
              ]),
            ],
          )}</ItemGroupData>`,
      )
      .join('');
    out += event(ODM_EVENT_SAMPLES, ODM_FORM_SAMPLES, groups);
  }
  return `${out}</SubjectData>\n`;
}

/** The subjects, a page of patients at a time, each page's visits and samples in two queries. */
export async function* odmSubjects(db: Database, pseudonymised = false): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const patients = rowsOf<PatientRow>(
      await db.execute(sql`
        select pt.id, ${subjectIdSql} as subject, pt.sex, g.nr as group_nr from patients pt
        join study_subjects s on s.patient_id = pt.id
        left join patient_inclusions pi on pi.patient_id = pt.id
        left join inclusion_criteria_groups g on g.id = pi.group_id
        where pt.deleted_at is null and pt.id > ${after}
        order by pt.id limit ${PATIENT_PAGE}`),
    );
    if (patients.length === 0) return;
    const first = Number(patients[0]!.id);
    const last = Number(patients[patients.length - 1]!.id);
    const [visits, probes] = await Promise.all([
      db.execute(sql`
        select * from (
          select v.patient_id, v.date::text as date, v.is_done, v.qt, v.rr, v.pq, v.qrs, v.qtcb, v.qtcfra,
            row_number() over (partition by v.patient_id order by v.date, v.started_at) as ordinal
          from visits v
          where v.cancelled_at is null and v.patient_id between ${first} and ${last}) o
        where o.is_done
        order by o.patient_id, o.ordinal`),
      db.execute(sql`
        select p.id, p.patient_id, p.code, p.type_of_material, p.alt::text as alt,
          p.ast::text as ast, p.creatine::text as creatine, p.bilirubine::text as bilirubine,
          p.concentration_hours::text as hours,
          p.concentration_date_of_analysis::text as date_of_analysis,
          p.date_of_sample::text as date_of_sample, o.ordinal as visit_ordinal,
          (select json_agg(json_build_object('medicine_id', pm.medicine_id,
             'value', pm.concentration::text) order by pm.medicine_id)
           from probe_medicines pm where pm.probe_id = p.id and pm.concentration is not null) as drugs
        from probes p
        left join (
          select v.id, row_number() over (partition by v.patient_id order by v.date, v.started_at) as ordinal
          from visits v where v.cancelled_at is null and v.patient_id between ${first} and ${last}
        ) o on o.id = p.visit_id
        where p.patient_id between ${first} and ${last}
        order by p.patient_id, p.id`),
    ]);
    const visitsOf = groupBy(rowsOf<VisitRow>(visits));
    const probesOf = groupBy(rowsOf<ProbeRow>(probes));
    let chunk = '';
    for (const patient of patients) {
      const id = Number(patient.id);
      chunk += subjectXml(patient, visitsOf.get(id) ?? [], probesOf.get(id) ?? [], pseudonymised);
    }
    yield chunk;
    if (patients.length < PATIENT_PAGE) return;
    after = last;
  }
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

/** The whole document as a sequence of strings: header, subjects, footer. */
export async function* odmDocument(
  db: Database,
  meta: OdmMetadata,
  now = new Date(),
  pseudonymised = false,
) {
  yield odmHeader(meta, now);
  yield* odmSubjects(db, pseudonymised);
  yield ODM_FOOTER;
}
