import { readFile } from 'node:fs/promises';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

/**
 * A patient's copy from the card and the pseudonymised exports on the reports page (ADR 054,
 * ADR 055), walked by an administrator in Polish.
 */

test("the card's 'Kopia danych pacjenta': a PDF and a JSON of everything stored", async ({
  page,
  request,
}) => {
  const seed = e2eSeed();
  const id = seed.sampleDetail.patient_id;
  await openSignedIn(page, request, `/patients/card/${id}`);
  const menu = page.getByRole('button', { name: 'Kopia danych pacjenta' });
  await expect(menu).toBeVisible();
  await menu.click();
  await expect(page.getByRole('menuitem', { name: 'Pobierz PDF (do odczytu)' })).toBeVisible();
  await expectAccessible(page, 'karta pacjenta: kopia danych');

  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Pobierz PDF (do odczytu)' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`pacjent-${id}-kopia-danych.pdf`);
  expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');

  await menu.click();
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Pobierz JSON (do przeniesienia)' }).click(),
  ]);
  const copy = JSON.parse(await readFile(await json.path(), 'utf8')) as {
    format: string;
    patient: { id: number };
    samples: { code: string }[];
  };
  expect(copy.format).toBe('portal-patient-copy/1');
  expect(copy.patient.id).toBe(id);
  expect(copy.samples.map((s) => s.code)).toContain(seed.sampleDetail.code);
});

test('a doctor has no copy on the card', async ({ page, request, api }) => {
  const unit = await api.createUnit();
  const { doctor, credentials } = await api.readyDoctor(unit.id);
  const patient = await registerPatient(api, doctor);
  await openSignedIn(page, request, `/patients/card/${patient.id}`, 'doctor', credentials);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Kopia danych pacjenta' })).toHaveCount(0);
});

test('reports: the pseudonymised ODM and the FHIR export', async ({ page, request }) => {
  const seed = e2eSeed();
  await openSignedIn(page, request, '/reports');
  await expect(page.getByRole('heading', { name: 'Generuj raport', level: 1 })).toBeVisible();
  const toggle = page.getByRole('switch', { name: 'Eksport spseudonimizowany' });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(toggle).toBeChecked();
  await expectAccessible(page, 'raporty: eksport spseudonimizowany');

  const [odm] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Eksport CDISC ODM' }).click(),
  ]);
  const xml = await readFile(await odm.path(), 'utf8');
  expect(xml).toMatch(/<SubjectData SubjectKey="S-\d+-\d+">/);
  expect(xml).not.toContain(`SubjectKey="${seed.sampleDetail.patient_id}"`);
  expect(xml).not.toContain(seed.sampleDetail.code);

  await expect(
    page.getByRole('switch', {
      name: 'Dołącz dane identyfikujące (imię, nazwisko, PESEL, adres, kontakt)',
    }),
  ).not.toBeChecked();
  const [fhir] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Eksport FHIR (NDJSON)' }).click(),
  ]);
  expect(fhir.suggestedFilename()).toBe('fhir.ndjson');
  const lines = (await readFile(await fhir.path(), 'utf8')).trim().split('\n');
  const resources = lines.map(
    (line) => JSON.parse(line) as { resourceType: string; name?: unknown },
  );
  expect(resources[0]!.resourceType).toBe('ResearchStudy');
  const patients = resources.filter((r) => r.resourceType === 'Patient');
  expect(patients.length).toBeGreaterThan(0);
  expect(patients.every((p) => p.name === undefined)).toBe(true);
});
