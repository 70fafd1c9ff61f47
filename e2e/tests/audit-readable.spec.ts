import type { APIRequestContext, Page } from '@playwright/test';
import {
  expect,
  openSignedIn,
  peselBirthDate,
  PortalApi,
  registerPatient,
  test,
} from '../fixtures.js';
import type { RegisteredPatient } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/**
 * Issue 21 item 5 (ADR 042): a doctor takes a sample, the laboratory sends its results over HL7,
 * and the administrator reads the patient's audit trail in Polish: people by name, the
 * laboratory as the author of the results, statuses, carriers and medicines in words, and none
 * of the database's own names.
 */

const LAB = { login: 'audit-e2e-lab', password: 'Haslo-Laboratorium-E2E-1' };
const AMLODIPINE = 7;

interface Story {
  patient: RegisteredPatient;
  code: string;
  doctorName: string;
  carrier: string;
  medicine: string;
}

/** An ORU^R01 with normal biochemistry for one sample, as the laboratory sends it. */
function oru(code: string, patient: RegisteredPatient): string {
  const birth = peselBirthDate(patient.pesel).replaceAll('-', '');
  const obx = (n: number, analyte: string, value: number, unit: string, range: string) =>
    `OBX|${n}|NM|${analyte}^${analyte}^L||${value}|${unit}|${range}|||F`;
  return [
    `MSH|^~\\&|SYNEVO|SYNEVO-LAB|PORTAL|KARDIO|20261124083000||ORU^R01^ORU_R01|AUD-${code}|P|2.5`,
    `PID|1||LAB-1^^^SYNEVO||PACJENT^TESTOWY||${birth}|F`,
    `OBR|1||${code}^SYNEVO|PANEL^Panel badan^L|||202611230900`,
    obx(1, 'ALT', 25, 'U/L', '10-40'),
    obx(2, 'AST', 22, 'U/L', '10-40'),
  ].join('\r');
}

async function story(api: PortalApi, request: APIRequestContext): Promise<Story> {
  const unit = await api.createUnit();
  const { doctor, credentials } = await api.readyDoctor(unit.id);
  const patient = await registerPatient(api, doctor);
  const { api: asDoctor } = await PortalApi.signIn(request, 'doctor', credentials);
  const carriers = await api.call<{ data: { id: number; name: string }[] }>(
    'GET',
    '/probes/carriers',
  );
  const medicines = await api.call<{ data: { id: number; name: string }[] }>('GET', '/medicine');
  const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
  const created = await asDoctor.call<{ probe: { code: string } }>('POST', '/probes', {
    patient_id: patient.id,
    medicine_ids: [AMLODIPINE],
    date_of_sample: today,
    carrier_id: carriers.data[0]!.id,
    ordered_by_firstname: 'Jan',
    ordered_by_surname: 'Zlecający',
    ordered_at: today,
    patient_firstname: patient.firstname,
    patient_surname: patient.surname,
    patient_address_street: 'ul. Łąkowa',
    patient_address_building: '3',
    patient_address_postcode: '90-001',
    patient_address_city: 'Łódź',
  });
  const code = created.probe.code;

  // The laboratory's account, then its message (the portal answers an HL7 ACK).
  await api.call('POST', '/settings/synevo', {
    value: { ...LAB, unit_code: 'POR-1', enable_results_import: true },
  });
  const ack = await request.post('/api/lab/hl7', {
    headers: {
      'content-type': 'text/plain',
      authorization: `Basic ${Buffer.from(`${LAB.login}:${LAB.password}`).toString('base64')}`,
    },
    data: oru(code, patient),
  });
  expect(ack.status()).toBe(200);
  expect(await ack.text()).toContain(`MSA|AA|AUD-${code}`);

  return {
    patient,
    code,
    doctorName: `${doctor.surname} ${doctor.firstname}`,
    carrier: carriers.data[0]!.name,
    medicine: medicines.data.find((m) => m.id === AMLODIPINE)!.name,
  };
}

/** The audit trail of one patient, 100 entries a page (all of this story's). */
async function openTrail(page: Page, patient: RegisteredPatient) {
  await expect(page.getByRole('heading', { name: 'Historia zmian' })).toBeVisible();
  const picker = page.getByRole('region', { name: 'Filtry' }).getByLabel('Pacjenci');
  await picker.click();
  await picker.fill(patient.pesel);
  await page.getByRole('option', { name: new RegExp(patient.pesel) }).click();
  await picker.press('Escape');
  await page.getByRole('combobox', { name: 'Liczba wierszy na stronie' }).selectOption('100');
}

/** What must never show: the database's own names and bookkeeping. */
async function expectNoRawNames(page: Page) {
  const main = page.getByRole('main');
  for (const raw of [
    'import_batch_id',
    'results_source',
    'lab_ranges',
    'Wersja',
    'Identyfikator',
  ]) {
    await expect(main).not.toContainText(raw);
  }
}

test.describe('Historia zmian czytelna dla człowieka', () => {
  test('on a desktop: the laboratory, the doctor by name, statuses and lookups in Polish', async ({
    page,
    request,
    api,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const s = await story(api, request);
    // The patient card leads to the patient's own history.
    await openSignedIn(page, request, `/patients/card/${s.patient.id}`);
    await page.getByRole('link', { name: 'Historia zmian pacjenta' }).click();
    await expect(page).toHaveURL(new RegExp(`/audit_trial\\?patientIds=${s.patient.id}$`));
    await expect(page.getByRole('heading', { name: 'Historia zmian' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Filtry' }).getByText(new RegExp(s.patient.pesel)),
    ).toBeVisible();
    await page.getByRole('combobox', { name: 'Liczba wierszy na stronie' }).selectOption('100');

    const rows = page.getByRole('table', { name: 'Historia zmian' }).getByRole('row');
    const row = (column: string, place = 'Próbki') =>
      rows
        .filter({ hasText: place })
        .filter({ has: page.getByRole('cell', { name: column, exact: true }) });

    // The laboratory's results: the status moved from collected to received, by the laboratory.
    const status = row('Status próbki').filter({ hasText: 'zmiana' });
    await expect(status).toHaveCount(1);
    const cells = status.getByRole('cell');
    await expect(cells.nth(1)).toHaveText('Laboratorium (HL7)');
    await expect(cells.nth(3)).toContainText(s.code);
    await expect(cells.nth(5)).toHaveText('pobrana');
    await expect(cells.nth(6)).toHaveText('odebrana');
    await expect(row('ALT').filter({ hasText: 'zmiana' }).getByRole('cell').nth(6)).toHaveText(
      '25',
    );
    await expect(row('Źródło wyników').getByRole('cell').nth(6)).toHaveText('laboratorium (HL7)');
    await expect(row('Zakresy referencyjne laboratorium').getByRole('cell').nth(6)).toHaveText(
      'ALT: 10-40 U/l; AST: 10-40 U/l',
    );

    // The new sample, by the doctor's name: its number, carrier and medicine by name.
    const created = row('Numer próbki').filter({ hasText: 'dodanie' });
    await expect(created.getByRole('cell').nth(1)).toHaveText(s.doctorName);
    await expect(created.getByRole('cell').nth(6)).toHaveText(s.code);
    await expect(row('Rodzaj pojemnika').getByRole('cell').nth(6)).toHaveText(s.carrier);
    await expect(row('Rodzaj materiału').getByRole('cell').nth(6)).toHaveText('krew żylna');
    const medicine = row('Lek', 'Stężenia leków w próbce');
    await expect(medicine).toHaveCount(1);
    await expect(medicine.getByRole('cell').nth(6)).toHaveText(s.medicine);
    await expect(medicine.getByRole('cell').nth(3)).toContainText(`${s.code} · ${s.medicine}`);

    // The registration names the doctor, not the doctor's id.
    await expect(row('Lekarz', 'Dane pacjenta').getByRole('cell').nth(6)).toHaveText(s.doctorName);

    await expectNoRawNames(page);
    await expectAccessible(page, 'historia zmian: próbka i wyniki z laboratorium');
  });

  test('on a phone: the same story in cards', async ({ page, request, api }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const s = await story(api, request);
    await openSignedIn(page, request, '/audit_trial');
    await openTrail(page, s.patient);

    const main = page.getByRole('main');
    const statusCard = main
      .getByRole('listitem')
      .filter({ hasText: 'Próbki · Status próbki' })
      .filter({ hasText: 'odebrana' });
    await expect(statusCard).toHaveCount(1);
    await expect(statusCard).toContainText('Kto zmienił: Laboratorium (HL7)');
    await expect(statusCard).toContainText('pobrana');
    await expect(
      main
        .getByRole('listitem')
        .filter({ hasText: 'Próbki · Numer próbki' })
        .filter({ hasText: `Kto zmienił: ${s.doctorName}` }),
    ).toHaveCount(1);
    await expectNoRawNames(page);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectAccessible(page, 'historia zmian na telefonie');
  });
});
