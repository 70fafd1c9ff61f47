import { doctorBody } from '@portal/shared';
import { performance } from 'node:perf_hooks';
import { createDoctor } from '../modules/doctors/index.js';
import { buildTemplate, examplePatients } from '../modules/imports/index.js';
import { createUnit } from '../modules/units/index.js';
import type { Client } from './cases.js';
import type { BenchDatabase } from './databases.js';

const PATIENTS = Number(process.env.BENCH_IMPORT_PATIENTS ?? 10_000);

/** A unit and its doctor to import patients into: the references every imported row names. */
export async function importRefs(db: BenchDatabase) {
  const unit = await createUnit(db.handle.db, {
    name: 'Poradnia importu',
    street: 'Marszałkowska',
    building_nr: '10',
    postcode: '00-001',
    city: 'Warszawa',
  });
  const doctor = await createDoctor(
    db.handle.db,
    null,
    doctorBody.parse({
      firstname: 'Jan',
      surname: 'Importer',
      email: 'importer@example.pl',
      phone_number: '600100200',
      unit_id: unit.id,
    }),
  );
  const refs = { unit_id: unit.id, doctor_id: doctor.id, group_id: 1, subgroup_id: 1, dose: 5 };
  return refs;
}

/**
 * `BENCH_ONLY=import` (issue 12): 10,000 patients in one xlsx through
 * POST /api/data_import/patient_data over HTTP — reading, checking every row with the
 * registration rules and the one-transaction bulk write (target ≤ 10 s on PostgreSQL).
 */
export async function measureImport(db: BenchDatabase, client: Client): Promise<string[]> {
  const refs = await importRefs(db);
  // Distinct, valid PESELs and phone numbers for any count (templates.ts).
  const rows = examplePatients(PATIENTS, refs);
  const built = performance.now();
  const xlsx = await buildTemplate('patient_data', rows);
  const buildMs = performance.now() - built;

  const form = new FormData();
  form.append('files[0]', new Blob([new Uint8Array(xlsx)]), 'pacjenci.xlsx');
  const started = performance.now();
  const response = await fetch(`${client.baseUrl}/api/data_import/patient_data`, {
    method: 'POST',
    headers: client.headers,
    body: form,
  });
  const body = (await response.json()) as { imported?: { patients?: number }; errors?: string[] };
  const importMs = performance.now() - started;
  if (response.status !== 200) {
    return [`import: ${response.status} ${JSON.stringify(body.errors?.slice(0, 3))}`];
  }
  return [
    `import: ${body.imported?.patients} patients from a ${(xlsx.length / 1024 / 1024).toFixed(1)} MB xlsx ` +
      `in ${(importMs / 1000).toFixed(2)} s over HTTP (target ≤ 10 s on PostgreSQL); ` +
      `writing the xlsx took ${(buildMs / 1000).toFixed(2)} s`,
  ];
}
