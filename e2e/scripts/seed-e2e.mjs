#!/usr/bin/env node
// Seeds the browser tests' fresh embedded database with what the UI cannot make: visits in the
// past (booking refuses past slots). Run by playwright.config's webServer before the portal
// starts, on the same DATA_DIR: it unpacks the build's migrated image into the empty directory
// (as main.js would), adds ONLY a dedicated unit, its doctor, two patients and their visits,
// and closes the database (CHECKPOINT) so that main.js opens an ordinary data directory. The
// first administrator is still created by main.js from PORTAL_ADMIN_*, so nothing else changes
// for the other specs. The ids and the doctor's credentials are written to seedFile(PORT) for
// the specs (e2e/seed.ts reads it).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays, buildPesel, warsawToday } from '@portal/shared';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/dist/db/client.js';
import { builtImage } from '../../apps/server/dist/db/pglite-image.js';
import { migrateDatabase } from '../../apps/server/dist/db/roles.js';
import { carriers, probes, users, visits } from '../../apps/server/dist/db/schema.js';
import * as schema from '../../apps/server/dist/db/schema.js';
import { hashPassword } from '../../apps/server/dist/lib/passwords.js';
import { createDoctor } from '../../apps/server/dist/modules/doctors/service.js';
import { createPatient } from '../../apps/server/dist/modules/patients/commands.js';
import { createUnit } from '../../apps/server/dist/modules/units/service.js';
import { polishLabReport } from '../../apps/server/dist/modules/lab/hl7-fixtures.js';
import { receiveHl7 } from '../../apps/server/dist/modules/lab/hl7-service.js';

const dataDir = process.env.DATA_DIR;
if (!dataDir) {
  console.error('seed-e2e: DATA_DIR is required');
  process.exit(2);
}
const port = process.env.PORT ?? '3199';
const DOCTOR = { login: 'lekarz.wizyty@e2e.example.pl', password: 'Lekarz-Wizyty-2026' };

/** The nearest weekday on or before `day` (visits are booked on weekdays only). */
function weekdayOnOrBefore(day) {
  let current = day;
  for (;;) {
    const weekday = new Date(`${current}T12:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) return current;
    current = addDays(current, -1);
  }
}

const database = await openDatabase({ kind: 'pglite', dataDir, image: builtImage });
try {
  await migrateDatabase(database, null);
  const { db } = database;
  const unit = await createUnit(db, {
    name: 'Poradnia E2E wizyt',
    street: 'ul. Kardiologów',
    building_nr: '12',
    postcode: '90-001',
    city: 'Łódź',
  });
  const doctor = await createDoctor(db, null, {
    firstname: 'Wiktor',
    surname: 'Wizytowy',
    email: DOCTOR.login,
    phone_number: '501234567',
    unit_id: unit.id,
  });
  const [account] = await db
    .update(users)
    .set({ password_hash: await hashPassword(DOCTOR.password), changed_password_at: new Date() })
    .where(eq(users.login, DOCTOR.login))
    .returning({ id: users.id });
  const actor = {
    userId: account.id,
    sessionId: 0,
    login: DOCTOR.login,
    role: 'doctor',
    doctorId: doctor.id,
    unitId: unit.id,
    changedPasswordAt: new Date(),
  };

  const patient = (firstname, surname, born, serial) =>
    createPatient(db, actor, {
      personal: {
        firstname,
        surname,
        pesel: buildPesel(born, serial, 'M'),
        address_street: 'ul. Piotrkowska',
        address_building: '100',
        address_apartment: null,
        address_postcode: '90-001',
        address_city: 'Łódź',
        phone_number: '501000999',
        email: null,
        weight: 80,
        height: 178,
        project_number: `FDC-E2E-SEED-${born.year}-${serial}`,
        doctor_id: doctor.id,
        unit_id: unit.id,
        acceptance: true,
      },
      exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
      inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
      medicines: [{ medicine_id: 5, dose: 5 }],
      additional_medicines: [],
    });
  const recorded = await patient(
    'Edward',
    'Elektrokardiogramowski',
    { year: 1958, month: 3, day: 14 },
    711,
  );
  const overdue = await patient('Zenon', 'Zaległy', { year: 1962, month: 7, day: 21 }, 712);

  const today = warsawToday();
  const visit = (patientId, date) => ({
    patient_id: patientId,
    unit_id: unit.id,
    doctor_id: doctor.id,
    date,
    started_at: '09:00:00',
    ended_at: '09:30:00',
    created_by: account.id,
  });
  const [pastVisit] = await db
    .insert(visits)
    .values(visit(recorded.id, weekdayOnOrBefore(addDays(today, -2))))
    .returning({ id: visits.id, date: visits.date });
  // The first visit 60 days ago and no other: visit 2's window (day 28 ± 3) has closed.
  const [overdueVisit] = await db
    .insert(visits)
    .values(visit(overdue.id, weekdayOnOrBefore(addDays(today, -60))))
    .returning({ id: visits.id, date: visits.date });

  // --- the visit of today (ADR 045) ---
  // Per screen size a patient whose only visit is today and has begun: from midnight, and to 23:59
  // so that it is under way whenever the test runs (booking refuses a begun slot).
  const todayVisit = async (firstname, serial, startedAt) => {
    const born = { year: 1970, month: 1, day: 15 };
    const owner = await patient(firstname, 'Dzisiejszy', born, serial);
    const [row] = await db
      .insert(visits)
      .values({ ...visit(owner.id, today), started_at: startedAt, ended_at: '23:59:00' })
      .returning({ id: visits.id, date: visits.date });
    return { patient_id: owner.id, visit_id: row.id, date: row.date };
  };
  const visitOfToday = {
    // One visit per unit and start: the two begin a minute apart.
    desktop: await todayVisit('Dawid', 721, '00:00:00'),
    phone: await todayVisit('Tomasz', 722, '00:01:00'),
  };

  // --- sample detail (issue 10) ---
  // A woman (her ALT range is 8–41 U/l) with one collected sample of amlodipine, inserted by
  // SQL as the nurse's dialog would leave it; probe-detail.spec.ts opens it, enters results
  // (55 flags ALT, Hy's-law values open an alert) and finds the changes in the audit trail.
  const sampleWoman = await createPatient(db, actor, {
    personal: {
      firstname: 'Barbara',
      surname: 'Biochemiczna',
      pesel: buildPesel({ year: 1966, month: 5, day: 9 }, 714, 'K'),
      address_street: 'ul. Laboratoryjna',
      address_building: '7',
      address_apartment: null,
      address_postcode: '90-002',
      address_city: 'Łódź',
      phone_number: '501000998',
      email: null,
      weight: 64,
      height: 165,
      project_number: 'FDC-E2E-SEED-2',
      doctor_id: doctor.id,
      unit_id: unit.id,
      acceptance: true,
    },
    exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [{ medicine_id: 7, dose: 5 }],
    additional_medicines: [],
  });
  const [carrier] = await db.select({ id: schema.carriers.id }).from(schema.carriers).limit(1);
  const sampleDay = addDays(warsawToday(), -1);
  const [sampleProbe] = await db
    .insert(schema.probes)
    .values({
      code: 'E2E-DETAIL-001',
      patient_id: sampleWoman.id,
      probe_number: 1,
      date_of_sample: sampleDay,
      carrier_id: carrier.id,
      ordered_by_firstname: 'Wiktor',
      ordered_by_surname: 'Wizytowy',
      ordered_at: sampleDay,
      patient_firstname: 'Barbara',
      patient_surname: 'Biochemiczna',
      patient_address_street: 'ul. Laboratoryjna',
      patient_address_building: '7',
      patient_address_postcode: '90-002',
      patient_address_city: 'Łódź',
      laboratory_address: 'ul. Banacha 1a',
      laboratory_postcode: '02-097',
      laboratory_city: 'Warszawa',
      created_by: account.id,
    })
    .returning({ id: schema.probes.id, code: schema.probes.code });
  await db
    .insert(schema.probeMedicines)
    .values({ probe_id: sampleProbe.id, patient_id: sampleWoman.id, medicine_id: 7 });
  // A second sample of hers whose results came from the laboratory as a real one sends them
  // (issue 20, ADR 033): bilirubin "<0,5" below the detection limit and the laboratory's comments.
  const [hl7Probe] = await db
    .insert(schema.probes)
    .values({
      code: 'E2E-HL7-001',
      patient_id: sampleWoman.id,
      probe_number: 2,
      date_of_sample: sampleDay,
      carrier_id: carrier.id,
      ordered_by_firstname: 'Wiktor',
      ordered_by_surname: 'Wizytowy',
      ordered_at: sampleDay,
      patient_firstname: 'Barbara',
      patient_surname: 'Biochemiczna',
      patient_address_street: 'ul. Laboratoryjna',
      patient_address_building: '7',
      patient_address_postcode: '90-002',
      patient_address_city: 'Łódź',
      created_by: account.id,
    })
    .returning({ id: schema.probes.id, code: schema.probes.code });
  const [woman] = await db
    .select({ birth_date: schema.patients.birth_date })
    .from(schema.patients)
    .where(eq(schema.patients.id, sampleWoman.id));
  const hl7 = await receiveHl7(
    db,
    polishLabReport({
      controlId: 'E2E-HL7-1',
      code: hl7Probe.code,
      patient: { birthDate: woman.birth_date.replaceAll('-', ''), sex: 'F' },
      charset: 'UNICODE UTF-8',
      withUnknown: false,
      when: `${sampleDay.replaceAll('-', '')}0930`,
    }),
  );
  if (hl7.code !== 'AA') throw new Error(`seed: the laboratory message was refused: ${hl7.reason}`);
  const sampleDetail = {
    patient_id: sampleWoman.id,
    probe_id: sampleProbe.id,
    code: sampleProbe.code,
    hl7_probe_id: hl7Probe.id,
    hl7_code: hl7Probe.code,
  };
  // --- end of sample detail (issue 10) ---

  // --- labels and reception (issue 10) ---
  // A patient with samples written directly (the creation dialog is another test's): one to
  // print labels of, and one per attempt of the reception test (a retry scans a fresh one).
  const labelled = await patient('Lucjan', 'Etykietowy', { year: 1966, month: 5, day: 9 }, 713);
  const [firstCarrier] = await db
    .select({ id: sql`min(${carriers.id})`.mapWith(Number) })
    .from(carriers);
  const sample = (number, code, extra = {}) => ({
    code,
    patient_id: labelled.id,
    probe_number: number,
    date_of_sample: addDays(today, -1),
    carrier_id: firstCarrier.id,
    ordered_by_firstname: 'Anna',
    ordered_by_surname: 'Zlecająca',
    ordered_at: addDays(today, -1),
    patient_firstname: 'Lucjan',
    patient_surname: 'Etykietowy',
    patient_address_street: 'ul. Piotrkowska',
    patient_address_building: '100',
    patient_address_postcode: '90-001',
    patient_address_city: 'Łódź',
    created_by: account.id,
    ...extra,
  });
  const labelSamples = await db
    .insert(probes)
    .values([
      sample(1, 'E2EDW0001', { type_of_material: 'capillary', collect_place: 'home' }),
      sample(2, 'E2EPZ0002'),
      sample(3, 'E2EPZ0003'),
    ])
    .returning({ id: probes.id, code: probes.code });
  const labels = {
    patient_id: labelled.id,
    print: labelSamples[0],
    reception: labelSamples.slice(1),
  };
  // --- end of labels and reception ---
  // --- probes list (issue 10) ---
  // Samples for e2e/tests/probes-list.spec.ts: three of this unit's patients (one created now,
  // two days ago) and one of a patient of another unit, which this unit's doctor never sees.
  // Written directly: only the list is under test. Numbers start E2E-PL, so the test can search
  // them apart from samples other specs create.
  const otherUnit = await createUnit(db, {
    name: 'Poradnia E2E próbek',
    street: 'ul. Laboratoryjna',
    building_nr: '3',
    postcode: '90-002',
    city: 'Łódź',
  });
  const otherLogin = 'lekarz.probki@e2e.example.pl';
  const otherDoctor = await createDoctor(db, null, {
    firstname: 'Piotr',
    surname: 'Próbkowy',
    email: otherLogin,
    phone_number: '501234568',
    unit_id: otherUnit.id,
  });
  const [otherAccount] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.login, otherLogin));
  const otherPatient = await createPatient(
    db,
    {
      ...actor,
      userId: otherAccount.id,
      login: otherLogin,
      doctorId: otherDoctor.id,
      unitId: otherUnit.id,
    },
    {
      personal: {
        firstname: 'Łukasz',
        surname: 'Ćwikliński',
        pesel: buildPesel({ year: 1960, month: 5, day: 5 }, 713, 'M'),
        address_street: 'ul. Laboratoryjna',
        address_building: '3',
        address_apartment: null,
        address_postcode: '90-002',
        address_city: 'Łódź',
        phone_number: '501000998',
        email: null,
        weight: 75,
        height: 175,
        project_number: 'FDC-E2E-SEED-3',
        doctor_id: otherDoctor.id,
        unit_id: otherUnit.id,
        acceptance: true,
      },
      exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
      inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
      medicines: [{ medicine_id: 5, dose: 5 }],
      additional_medicines: [],
    },
  );
  const listProbe = async (code, owner, names, material, daysAgo) => {
    const result = await db.execute(sql`
      insert into probes (code, patient_id, probe_number, date_of_sample, type_of_material,
        carrier_id, ordered_by_firstname, ordered_by_surname, ordered_at, patient_firstname,
        patient_surname, patient_address_street, patient_address_building,
        patient_address_postcode, patient_address_city, created_by, created_at)
      values (${code}, ${owner},
        (select coalesce(max(probe_number), 0) + 1 from probes where patient_id = ${owner}),
        current_date - ${daysAgo}::int, ${material}, (select min(id) from carriers), 'Wiktor',
        'Wizytowy', current_date - ${daysAgo}::int, ${names[1]}, ${names[0]}, 'ul. Piotrkowska',
        '100', '90-001', 'Łódź', ${account.id}, now() - ${daysAgo}::int * interval '1 day')
      returning id`);
    const id = result.rows[0].id;
    await db.execute(
      sql`insert into probe_medicines (probe_id, patient_id, medicine_id) values (${id}, ${owner}, 5)`,
    );
    return { id, code };
  };
  const probeList = {
    other_unit: { id: otherUnit.id, name: otherUnit.name },
    today: await listProbe(
      'E2E-PL-001',
      recorded.id,
      ['Elektrokardiogramowski', 'Edward'],
      'venous',
      0,
    ),
    zalegly_recent: await listProbe('E2E-PL-002', overdue.id, ['Zaległy', 'Zenon'], 'capillary', 3),
    zalegly_old: await listProbe('E2E-PL-003', overdue.id, ['Zaległy', 'Zenon'], 'venous', 10),
    other: await listProbe('E2E-PL-004', otherPatient.id, ['Ćwikliński', 'Łukasz'], 'venous', 5),
  };
  // --- end of probes list (issue 10) ---

  // ---- panel documents and laboratory integration (issue 11, documents.spec.ts and
  // settings-synevo.spec.ts): a doctor-panel document for the doctor's reading screen, and the
  // laboratory connector's last error, shown as a toast on the integration screen.
  const doctorDocumentText = Buffer.from('Procedura pobrania krwi w domu pacjenta.\n', 'utf8');
  const [doctorDocument] = await db
    .insert(schema.files)
    .values({
      ref_type: 'doctor_documents',
      ref_id: 0,
      patient_id: null,
      original_name: 'Procedura pobrania – E2E.txt',
      mime_type: 'text/plain; charset=utf-8',
      size_bytes: doctorDocumentText.length,
      content: doctorDocumentText,
      uploaded_by: account.id,
    })
    .returning({ id: schema.files.id, name: schema.files.original_name });
  const synevoError = 'Laboratorium odrzuciło logowanie: nieprawidłowy login (E2E)';
  await db
    .insert(schema.settings)
    .values({ key: 'synevo_last_error_message', value: { message: synevoError } });
  const documents = { doctor_document: doctorDocument, synevo_error: synevoError };
  // ---- end of panel documents and laboratory integration ----

  // ---- unmatched laboratory results (issue 12, unmatched.spec.ts) ----
  // A man's two collected samples (one per screen size) and, per screen size, two results the
  // laboratory sent for codes no sample has: one the test matches to the sample, one it discards.
  const labPatient = await patient(
    'Ludwik',
    'Laboratoryjny',
    { year: 1971, month: 3, day: 9 },
    721,
  );
  const unmatchedSamples = await db
    .insert(probes)
    .values(
      ['E2E-UNM-DESK', 'E2E-UNM-PHONE'].map((code, i) => ({
        code,
        patient_id: labPatient.id,
        probe_number: i + 1,
        date_of_sample: addDays(today, -2),
        carrier_id: carrier.id,
        ordered_by_firstname: 'Anna',
        ordered_by_surname: 'Zlecająca',
        ordered_at: addDays(today, -2),
        patient_firstname: 'Ludwik',
        patient_surname: 'Laboratoryjny',
        patient_address_street: 'ul. Piotrkowska',
        patient_address_building: '100',
        patient_address_postcode: '90-001',
        patient_address_city: 'Łódź',
        created_by: account.id,
      })),
    )
    .returning({ id: probes.id, code: probes.code });
  const unmatchedRow = (code, analyte, value, unit, labRange, reason) => ({
    probe_code: code,
    analyte,
    value,
    unit,
    lab_range: labRange,
    date_of_analysis: addDays(today, -1),
    patient_sex: 'M',
    patient_birth_date: '1971-03-09',
    reason,
    raw: { 'OBR-3': code, 'OBX-3': analyte.toUpperCase(), 'OBX-5': String(value), 'OBX-6': unit },
  });
  const unmatchedRows = await db
    .insert(schema.unmatchedResults)
    .values([
      unmatchedRow('E2E-UNM-DESC', 'alt', 87, 'U/l', '10-40', 'no_probe'),
      unmatchedRow('E2E-UNM-XD', 'creatine', 1.3, 'mg/dl', '0,7-1,2', 'sex_mismatch'),
      unmatchedRow('E2E-UNM-PHON', 'ast', 65, 'U/l', '10-34', 'no_probe'),
      unmatchedRow('E2E-UNM-XP', 'bilirubine', 2.5, 'mg/dl', '<1.2', 'birth_date_mismatch'),
    ])
    .returning({ id: schema.unmatchedResults.id, code: schema.unmatchedResults.probe_code });
  const unmatched = {
    desktop: { probe: unmatchedSamples[0], match: unmatchedRows[0], discard: unmatchedRows[1] },
    phone: { probe: unmatchedSamples[1], match: unmatchedRows[2], discard: unmatchedRows[3] },
  };
  // ---- end of unmatched laboratory results ----

  // ---- data import (issue 12, data-import.spec.ts): a unit and a doctor of its own, so that the
  // imported patients' ids in the test's csv are known and no other spec lists them.
  const importUnit = await createUnit(db, {
    name: 'Poradnia E2E importu',
    street: 'ul. Importowa',
    building_nr: '3',
    postcode: '90-002',
    city: 'Łódź',
  });
  const importDoctor = await createDoctor(db, null, {
    firstname: 'Igor',
    surname: 'Importowy',
    email: 'lekarz.importu@e2e.example.pl',
    phone_number: '501234568',
    unit_id: importUnit.id,
  });
  const imports = {
    unit_id: importUnit.id,
    doctor_id: importDoctor.id,
    // The shipped study configuration: group 1, its first subgroup at 5 mg, medicine 5.
    group_id: 1,
    subgroup_id: 1,
    dose: 5,
    medicines: '5:5',
  };
  // ---- end of data import ----

  // ---- monitor (issue 23 item 4, monitor.spec.ts): a patient of the doctor's unit with one
  // past visit, not yet recorded; the test records it, a monitor verifies it and queries it.
  const monitored = await patient('Monika', 'Monitorowana', { year: 1961, month: 4, day: 2 }, 731);
  const [monitoredVisit] = await db
    .insert(visits)
    .values({
      ...visit(monitored.id, weekdayOnOrBefore(addDays(today, -3))),
      started_at: '10:00:00',
      ended_at: '10:30:00',
    })
    .returning({ id: visits.id, date: visits.date });
  const monitor = { patient_id: monitored.id, visit_id: monitoredVisit.id };
  // ---- end of monitor ----

  // ---- retention (issue 24, retention.spec.ts): in a unit of its own, a patient whose
  // participation ended 12 years ago, which only the database's clock can say: the finish is
  // written without the audit trigger and its audit entry back-dated, as 12 years would leave it.
  const retentionUnit = await createUnit(db, {
    name: 'Poradnia E2E retencji',
    street: 'ul. Archiwalna',
    building_nr: '9',
    postcode: '90-003',
    city: 'Łódź',
  });
  const retentionDoctor = await createDoctor(db, null, {
    firstname: 'Roman',
    surname: 'Retencyjny',
    email: 'lekarz.retencji@e2e.example.pl',
    phone_number: '501234569',
    unit_id: retentionUnit.id,
  });
  const [retentionAccount] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.login, 'lekarz.retencji@e2e.example.pl'));
  const retentionActor = {
    ...actor,
    userId: retentionAccount.id,
    login: 'lekarz.retencji@e2e.example.pl',
    doctorId: retentionDoctor.id,
    unitId: retentionUnit.id,
  };
  const retained = await createPatient(db, retentionActor, {
    personal: {
      firstname: 'Rozalia',
      surname: 'Retencyjna',
      pesel: buildPesel({ year: 1940, month: 2, day: 3 }, 731, 'K'),
      address_street: 'ul. Archiwalna',
      address_building: '9',
      address_apartment: null,
      address_postcode: '90-003',
      address_city: 'Łódź',
      phone_number: '501000997',
      email: null,
      weight: 61,
      height: 160,
      project_number: 'FDC-E2E-SEED-1940-731',
      doctor_id: retentionDoctor.id,
      unit_id: retentionUnit.id,
      acceptance: true,
    },
    exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [{ medicine_id: 5, dose: 5 }],
    additional_medicines: [],
  });
  await db.execute(sql`set session_replication_role = replica`);
  await db.execute(
    sql`update patients set is_finished = true, updated_at = now() - interval '12 years'
        where id = ${retained.id}`,
  );
  await db.execute(sql`set session_replication_role = origin`);
  await db.execute(
    sql`insert into audit_entries (patient_id, entity_name, entity_id, operation, column_name,
          old_value, new_value, updated_at)
        values (${retained.id}, 'patients', ${String(retained.id)}, 'update', 'is_finished',
          'false', 'true', now() - interval '12 years')`,
  );
  const retention = { patient_id: retained.id };
  // ---- end of retention ----
  // ---- signing and locks (issue 23, signing.spec.ts) ----
  // A patient of the doctor's unit with a recorded visit (QT 400, RR 640) and a sample with
  // biochemistry results, both unsigned: signing.spec.ts signs, locks, unlocks and corrects them.
  const signer = await patient('Stanisław', 'Podpisowy', { year: 1955, month: 11, day: 2 }, 741);
  const [signedVisit] = await db
    .insert(visits)
    .values({
      ...visit(signer.id, weekdayOnOrBefore(addDays(today, -3))),
      started_at: '11:00:00',
      ended_at: '11:30:00',
      is_done: true,
      qt: 400,
      rr: 640,
      pq: 160,
      qrs: 90,
      qtcb: 500,
      qtcfra: 464,
      comment: '<p>Rytm zatokowy miarowy.</p>',
    })
    .returning({ id: visits.id });
  const [signedProbe] = await db
    .insert(probes)
    .values({
      code: 'E2E-SIGN-001',
      patient_id: signer.id,
      probe_number: 1,
      date_of_sample: addDays(today, -3),
      carrier_id: firstCarrier.id,
      ordered_by_firstname: 'Wiktor',
      ordered_by_surname: 'Wizytowy',
      ordered_at: addDays(today, -3),
      patient_firstname: 'Stanisław',
      patient_surname: 'Podpisowy',
      patient_address_street: 'ul. Piotrkowska',
      patient_address_building: '100',
      patient_address_postcode: '90-001',
      patient_address_city: 'Łódź',
      created_by: account.id,
      status: 'received',
      alt: '30',
      ast: '25',
      creatine: '0.9',
      bilirubine: '0.6',
      results_at: new Date(),
    })
    .returning({ id: probes.id, code: probes.code });
  const signing = {
    patient_id: signer.id,
    visit_id: signedVisit.id,
    probe_id: signedProbe.id,
    probe_code: signedProbe.code,
  };
  // ---- end of signing and locks ----

  const seed = {
    documents,
    unmatched,
    imports,
    retention,
    monitor,
    signing,
    labels,
    unit: { id: unit.id, name: unit.name },
    doctor: { id: doctor.id, ...DOCTOR },
    recorded: { patient_id: recorded.id, visit_id: pastVisit.id, date: pastVisit.date },
    overdue: { patient_id: overdue.id, visit_id: overdueVisit.id, date: overdueVisit.date },
    visitOfToday,
    sampleDetail,
    probeList,
  };
  writeFileSync(seedFile(port), JSON.stringify(seed, null, 2));
} finally {
  await database.close();
}

function seedFile(forPort) {
  return path.join(tmpdir(), `portal-e2e-seed-${forPort}.json`);
}
