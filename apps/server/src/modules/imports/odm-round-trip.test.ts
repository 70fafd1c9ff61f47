import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/client.js';
import { probeMedicines, probes } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { postImport } from '../../test/import-fixture.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { buildZip } from '../../test/zip-fixture.js';

/*
 * Issue 12 §6: the ODM export read back through the data import gives back the same values. The
 * import reads the samples (IG.SAMPLE) only; the patients' and the visits' ECG items in the same
 * file are the portal's own records, not laboratory results, and are left as they are.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let full: { id: number; code: string };
let drugOnly: { id: number; code: string };
let ids: number[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  const actor = doctor.session.user.id;
  const patient = await registerPatient(t, doctor);
  const other = await registerPatient(t, doctor);
  // A done visit with ECG, so that the file carries IG.ECG next to the samples.
  await inTransaction(t.db, actor, (tx) =>
    tx.execute(sql`
      insert into visits (patient_id, unit_id, date, started_at, ended_at, is_done, qt, rr, pq, qrs, qtcb, qtcfra)
      values (${patient.id}, ${doctor.doctor.unit_id}, '2026-01-05', '08:00', '08:30', true, 400, 800, 160, 95, 447, 431)`),
  );
  full = await insertProbe(t.db, actor, patient.id, {
    code: `ODM&<"ł'-1`,
    alt: 42.5,
    ast: 30,
    creatine: 0.91,
    bilirubine: 1.1,
    concentration_hours: 3.5,
    concentration_date_of_analysis: '2026-02-03',
    medicineIds: [7, 3],
  });
  drugOnly = await insertProbe(t.db, actor, other.id, {
    concentration_hours: 12,
    concentration_date_of_analysis: '2026-02-10',
    medicineIds: [7],
  });
  // A sample without results: in the file, and nothing to import.
  await insertProbe(t.db, actor, other.id, { medicineIds: [3] });
  ids = [full.id, drugOnly.id];
  await setConcentration(full.id, 7, 12.5);
  await setConcentration(full.id, 3, 0.75);
  await setConcentration(drugOnly.id, 7, 8);
});
afterAll(() => t?.close());

async function setConcentration(probeId: number, medicineId: number, value: number | null) {
  await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx
      .update(probeMedicines)
      .set({ concentration: value })
      .where(and(eq(probeMedicines.probe_id, probeId), eq(probeMedicines.medicine_id, medicineId))),
  );
}

/**
 * Changes and clears the results the export holds. (A result the export does not hold stays as
 * it is after the import: the file has no item for an absent value, and an import never clears.)
 */
async function spoil() {
  await inTransaction(t.db, admin.session.user.id, async (tx) => {
    await tx
      .update(probes)
      .set({ alt: 1, ast: null, creatine: null, bilirubine: 9 })
      .where(eq(probes.id, full.id));
    await tx
      .update(probes)
      .set({ concentration_hours: null, concentration_date_of_analysis: null })
      .where(inArray(probes.id, ids));
  });
  await setConcentration(full.id, 7, null);
  await setConcentration(full.id, 3, 99);
  await setConcentration(drugOnly.id, 7, null);
}

async function exportOdm(): Promise<string> {
  const res = await t.request('GET', '/api/exports/odm.xml', { token: admin.session.token });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** Everything from ClinicalData on: the file less its header (which holds its creation time). */
const clinicalData = (odm: string) => odm.slice(odm.indexOf('<ClinicalData'));

async function results() {
  const samples = await t.db
    .select({
      id: probes.id,
      alt: probes.alt,
      ast: probes.ast,
      creatine: probes.creatine,
      bilirubine: probes.bilirubine,
      hours: probes.concentration_hours,
      date: probes.concentration_date_of_analysis,
    })
    .from(probes)
    .where(inArray(probes.id, ids))
    .orderBy(probes.id);
  const drugs = await t.db
    .select({
      probe_id: probeMedicines.probe_id,
      medicine_id: probeMedicines.medicine_id,
      concentration: probeMedicines.concentration,
    })
    .from(probeMedicines)
    .where(inArray(probeMedicines.probe_id, ids))
    .orderBy(probeMedicines.probe_id, probeMedicines.medicine_id);
  return { samples, drugs };
}

describe('ODM export → data import', () => {
  it('gives back the exported values, and a second export holds the same clinical data', async () => {
    const before = await results();
    expect(before.samples[0]).toMatchObject({ alt: 42.5, hours: 3.5, date: '2026-02-03' });
    const first = await exportOdm();
    expect(first).toContain('ItemGroupOID="IG.ECG"');
    await spoil();
    expect(await results()).not.toEqual(before);

    const res = await postImport(t, admin.session.token, 'results', [
      { name: 'odm.xml', content: first },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    // 4 biochemistry results and 2 concentrations of one sample, 1 concentration of the other.
    expect(res.json<{ imported: Record<string, number> }>().imported).toEqual({
      results: 7,
      unmatched: 0,
    });
    expect(await results()).toEqual(before);
    expect(clinicalData(await exportOdm())).toEqual(clinicalData(first));
  });

  it('reads the same file inside a zip', async () => {
    const before = await results();
    const first = await exportOdm();
    await spoil();
    const res = await postImport(t, admin.session.token, 'results', [
      { name: 'eksport.zip', content: buildZip([{ name: 'odm.xml', data: Buffer.from(first) }]) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ imported: Record<string, number> }>().imported.results).toBe(7);
    expect(await results()).toEqual(before);
    expect(clinicalData(await exportOdm())).toEqual(clinicalData(first));
  });
});
