import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/client.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { xmlEscape } from './odm-service.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let patientId: number;
let otherPatientId: number;
let probeId: number;
const awkwardCode = `A&B<"x'>-ł`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  patientId = (await registerPatient(t, doctor)).id;
  otherPatientId = (await registerPatient(t, doctor)).id;
  const actor = doctor.session.user.id;
  const visitIds = await inTransaction(t.db, actor, async (tx) => {
    const result: unknown = await tx.execute(sql`
      insert into visits (patient_id, unit_id, date, started_at, ended_at, is_done, qt, rr, pq, qrs, qtcb, qtcfra)
      values (${patientId}, ${doctor.doctor.unit_id}, '2026-01-05', '08:00', '08:30', true, 400, 800, 160, 95, 447, 431),
             (${patientId}, ${doctor.doctor.unit_id}, '2026-02-02', '09:00', '09:30', true, 410, 810, 150, 100, 455, 439),
             (${patientId}, ${doctor.doctor.unit_id}, '2026-03-02', '09:00', '09:30', false, null, null, null, null, null, null)
      returning id`);
    return (result as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
  });
  const probe = await insertProbe(t.db, actor, patientId, {
    code: awkwardCode,
    visit_id: visitIds[1]!,
    alt: 42.5,
    ast: 30,
    creatine: 0.91,
    bilirubine: 1.1,
    concentration_hours: 3.5,
    concentration_date_of_analysis: '2026-02-03',
    date_of_sample: '2026-02-02',
    medicineIds: [7, 3],
  });
  probeId = probe.id;
  await inTransaction(t.db, actor, async (tx) => {
    await tx.execute(
      sql`update probe_medicines set concentration = 12.5 where probe_id = ${probeId} and medicine_id = 7`,
    );
  });
  await insertProbe(t.db, actor, otherPatientId, { code: 'KZP-2' });
});
afterAll(() => t?.close());

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: true,
  parseAttributeValue: false,
  isArray: (name) =>
    [
      'SubjectData',
      'StudyEventData',
      'FormData',
      'ItemGroupData',
      'ItemData',
      'StudyEventDef',
      'FormDef',
      'ItemGroupDef',
      'ItemDef',
      'CodeList',
      'MeasurementUnit',
      'MeasurementUnitRef',
      'StudyEventRef',
      'FormRef',
      'ItemGroupRef',
      'ItemRef',
      'RangeCheck',
    ].includes(name),
});

type Node = Record<string, unknown>;
const list = (node: Node, name: string) => (node[name] as Node[] | undefined) ?? [];

async function exportOdm() {
  const res = await t.request('GET', '/api/exports/odm.xml', { token: admin.session.token });
  expect(res.statusCode).toBe(200);
  return res;
}

describe('GET /api/exports/odm.xml', () => {
  it('is well-formed ODM 1.3.2 in which every OID used is defined', async () => {
    const res = await exportOdm();
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="odm.xml"');
    expect(XMLValidator.validate(res.body)).toBe(true);
    const odm = (parser.parse(res.body) as { ODM: Node }).ODM;
    expect(odm.ODMVersion).toBe('1.3.2');
    expect(odm.FileType).toBe('Snapshot');
    const study = odm.Study as Node;
    const mdv = study.MetaDataVersion as Node;
    const defined = (name: string) => new Set(list(mdv, name).map((d) => String(d.OID)));
    const events = defined('StudyEventDef');
    const forms = defined('FormDef');
    const groups = defined('ItemGroupDef');
    const items = defined('ItemDef');
    const codeLists = defined('CodeList');
    const units = new Set(
      list(study.BasicDefinitions as Node, 'MeasurementUnit').map((u) => String(u.OID)),
    );
    // The metadata refers only to what it defines.
    for (const ref of list(mdv.Protocol as Node, 'StudyEventRef'))
      expect(events).toContain(ref.StudyEventOID);
    for (const def of list(mdv, 'StudyEventDef'))
      for (const ref of list(def, 'FormRef')) expect(forms).toContain(ref.FormOID);
    for (const def of list(mdv, 'FormDef'))
      for (const ref of list(def, 'ItemGroupRef')) expect(groups).toContain(ref.ItemGroupOID);
    for (const def of list(mdv, 'ItemGroupDef'))
      for (const ref of list(def, 'ItemRef')) expect(items).toContain(ref.ItemOID);
    for (const def of list(mdv, 'ItemDef')) {
      for (const ref of list(def, 'MeasurementUnitRef'))
        expect(units).toContain(ref.MeasurementUnitOID);
      const codeList = def.CodeListRef as Node | undefined;
      if (codeList) expect(codeLists).toContain(codeList.CodeListOID);
    }
    // The data uses only what the metadata defines.
    const clinical = odm.ClinicalData as Node;
    let itemCount = 0;
    for (const subject of list(clinical, 'SubjectData'))
      for (const event of list(subject, 'StudyEventData')) {
        expect(events).toContain(event.StudyEventOID);
        for (const form of list(event, 'FormData')) {
          expect(forms).toContain(form.FormOID);
          for (const group of list(form, 'ItemGroupData')) {
            expect(groups).toContain(group.ItemGroupOID);
            for (const item of list(group, 'ItemData')) {
              expect(items).toContain(item.ItemOID);
              itemCount += 1;
            }
          }
        }
      }
    expect(itemCount).toBeGreaterThan(20);
    // A range from reference_ranges: ALT, by sex, the widest (8–59 U/l).
    const alt = list(mdv, 'ItemDef').find((d) => d.OID === 'IT.ALT')!;
    expect(list(alt, 'RangeCheck').map((r) => [r.Comparator, String(r.CheckValue)])).toEqual([
      ['GE', '8'],
      ['LE', '59'],
    ]);
  });

  it("holds the database's values: ECG of done visits by ordinal, samples with results", async () => {
    const odm = (parser.parse((await exportOdm()).body) as { ODM: Node }).ODM;
    const subjects = list(odm.ClinicalData as Node, 'SubjectData');
    const subject = subjects.find((s) => s.SubjectKey === String(patientId))!;
    expect(subjects.some((s) => s.SubjectKey === String(otherPatientId))).toBe(true);
    const values = (group: Node): Record<string, unknown> =>
      Object.fromEntries(list(group, 'ItemData').map((i) => [String(i.ItemOID), i.Value]));
    const byEvent = new Map(
      list(subject, 'StudyEventData').map((e) => [
        String(e.StudyEventOID),
        list(list(e, 'FormData')[0]!, 'ItemGroupData'),
      ]),
    );
    expect([...byEvent.keys()]).toEqual(['SE.PATIENT', 'SE.VISIT.1', 'SE.VISIT.2', 'SE.SAMPLES']);
    expect(values(byEvent.get('SE.PATIENT')![0]!)).toEqual({ 'IT.SEX': 'M', 'IT.GROUP': '1' });
    expect(values(byEvent.get('SE.VISIT.2')![0]!)).toEqual({
      'IT.VISIT_DATE': '2026-02-02',
      'IT.QT': '410',
      'IT.RR': '810',
      'IT.PQ': '150',
      'IT.QRS': '100',
      'IT.QTCB': '455',
      'IT.QTCF': '439',
    });
    const [sample] = byEvent.get('SE.SAMPLES')!;
    expect(sample!.ItemGroupRepeatKey).toBe(String(probeId));
    expect(values(sample!)).toEqual({
      'IT.PROBE_CODE': awkwardCode,
      'IT.MATERIAL': 'venous',
      'IT.ALT': '42.5',
      'IT.AST': '30',
      'IT.CREA': '0.91',
      'IT.BIL': '1.1',
      'IT.HOURS': '3.5',
      'IT.DATE_OF_ANALYSIS': '2026-02-03',
      'IT.DATE_OF_SAMPLE': '2026-02-02',
      'IT.VISIT_ORDINAL': '2',
      'IT.DRUG_7': '12.5',
    });
  });

  it('escapes everything and drops what XML cannot hold', () => {
    expect(xmlEscape(`a&b<c>"d'\u0001`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;');
  });

  it('is for administrators only', async () => {
    const res = await t.request('GET', '/api/exports/odm.xml', { token: doctor.session.token });
    expect(res.statusCode).toBe(403);
    expect((await t.request('GET', '/api/exports/odm.xml')).statusCode).toBe(401);
  });
});
