import type { APIRequestContext, Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import type { PortalApi } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { BASE_URL } from '../env.js';

/**
 * Issue 21, items 6 and 7, walked as the administrator: the laboratory sends a result under a
 * mistyped sample code; it is matched by hand with the laboratory's patient beside the sample's
 * and the value it replaces, asked first. A refused result then says on the sample's page and
 * on the integration screen, in Polish, which sample and which analyte.
 */

const LOGIN = 'synevo-e2e-dopasowanie';
const PASSWORD = 'Haslo-Laboratorium-E2E';
const SAVED = 'Zmiany zostały zapisane';

/** An ORU^R01 as the laboratory's interface engine writes it: one patient, one sample. */
function oru(
  controlId: string,
  code: string,
  observations: string[],
  patient: { surname: string; firstname: string },
): string {
  return [
    `MSH|^~\\&|SYNEVO|SYNEVO-LAB|PORTAL|KARDIO|20261124083000||ORU^R01^ORU_R01|${controlId}|P|2.5`,
    `PID|1||LAB-1^^^SYNEVO||${patient.surname}^${patient.firstname}|||F`,
    `OBR|1||${code}^SYNEVO|PANEL^Panel badan^L|||202611200900`,
    ...observations.map((obx, index) => `OBX|${index + 1}|NM|${obx}||||F`),
  ].join('\r');
}
const obx = (code: string, value: string, unit: string, range: string) =>
  `${code}^${code}^L||${value}|${unit}|${range}|`;

async function sendHl7(request: APIRequestContext, er7: string): Promise<string> {
  const res = await request.post(`${BASE_URL}/api/lab/hl7`, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      authorization: `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`,
    },
    data: er7,
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.text()).split('\r').find((segment) => segment.startsWith('MSA|')) ?? '';
}

/** A sample of a new patient (Zofia Wójcik-…, a woman), with ALT already stored by HL7. */
async function sampleWithAlt(api: PortalApi, request: APIRequestContext) {
  await api.call('POST', '/settings/synevo', {
    value: {
      login: LOGIN,
      password: PASSWORD,
      unit_code: 'KARDIO-01',
      enable_results_import: true,
    },
  });
  const unit = await api.createUnit();
  const doctor = await api.createDoctor(unit.id);
  const patient = await registerPatient(api, doctor);
  const carriers = await api.call<{ data: { id: number }[] }>('GET', '/probes/carriers');
  const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
  const created = await api.call<{ probe: { id: number; code: string } }>('POST', '/probes', {
    patient_id: patient.id,
    medicine_ids: [13],
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
  const sample = created.probe;
  const stored = await sendHl7(
    request,
    oru(`E2E-OK-${sample.id}`, sample.code, [obx('ALT', '25', 'U/L', '10-40')], patient),
  );
  expect(stored).toMatch(/^MSA\|AA\|/);
  return { sample, patient };
}

async function walk(page: Page, request: APIRequestContext, api: PortalApi, size: string) {
  const { sample, patient } = await sampleWithAlt(api, request);

  // The laboratory mistypes the sample's code and spells the patient's surname its own way.
  const typo = `X${sample.code}`;
  const labSurname = 'WOJCIK';
  const accepted = await sendHl7(
    request,
    oru(`E2E-TYPO-${sample.id}`, typo, [obx('ALT', '88', 'U/L', '10-40')], {
      surname: labSurname,
      firstname: patient.firstname,
    }),
  );
  expect(accepted).toMatch(/^MSA\|AA\|/);

  await openSignedIn(page, request, '/lab/unmatched');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Niedopasowane wyniki', exact: true }),
  ).toBeVisible();
  const matchButton = page.getByRole('button', { name: `Dopasuj: ALT, kod ${typo}`, exact: true });
  await expect(matchButton).toBeVisible();
  await matchButton.click();
  const dialog = page.getByRole('dialog', { name: 'Dopasuj wynik do próbki' });
  await dialog.getByRole('combobox', { name: 'Próbka' }).fill(sample.code);
  await page.getByRole('option', { name: new RegExp(`^${sample.code} — `) }).click();

  // Side by side: the laboratory's patient and the sample's, the name told as different.
  const comparison = dialog.getByRole('table', { name: 'Porównanie pacjenta' });
  await expect(comparison).toBeVisible();
  await expect(
    comparison.getByRole('columnheader', { name: 'Pacjent wg laboratorium' }),
  ).toBeVisible();
  await expect(comparison.getByRole('columnheader', { name: 'Pacjent próbki' })).toBeVisible();
  const nameRow = comparison.getByRole('row', { name: /Imię i nazwisko/ });
  await expect(nameRow).toContainText('różni się');
  await expect(nameRow).toContainText(`${patient.firstname} ${labSurname}`);
  await expect(nameRow).toContainText(`${patient.firstname} ${patient.surname}`);
  const sexRow = comparison.getByRole('row', { name: /Płeć/ });
  await expect(sexRow).toContainText('Kobieta');
  await expect(sexRow).not.toContainText('różni się');
  await expect(dialog.getByText('Dane pacjenta z laboratorium różnią się')).toBeVisible();
  // The value it would replace: ALT 25 → 88.
  const replaces = dialog.getByRole('table', { name: 'Wartości, które zostaną zastąpione' });
  await expect(replaces.getByRole('row', { name: /ALT/ })).toContainText('25 U/l');
  await expect(replaces.getByRole('row', { name: /ALT/ })).toContainText('88 U/l');
  await expectAccessible(page, `dopasowanie z porównaniem pacjenta (${size})`);

  // It asks before it replaces; "Anuluj" leaves the value alone.
  await dialog.getByRole('button', { name: 'Dopasuj', exact: true }).click();
  const question = dialog.getByRole('alert').filter({ hasText: 'Czy na pewno zastąpić' });
  await expect(question).toBeVisible();
  await expectAccessible(page, `pytanie przed zastąpieniem (${size})`);
  await question.getByRole('button', { name: 'Anuluj' }).click();
  await expect(question).toBeHidden();
  await dialog.getByRole('button', { name: 'Dopasuj', exact: true }).click();
  await question.getByRole('button', { name: 'Zastąp i dopasuj' }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(matchButton).toBeHidden();

  await page.goto(`/probes/${sample.id}`);
  await expect(page.getByTestId('result-alt')).toContainText('88');
  await expect(page.getByTestId('probe-lab-refusals')).toHaveCount(0);

  // A result the connector refuses: the sample's page says so, naming the sample and analyte.
  const refused = await sendHl7(
    request,
    oru(
      `E2E-AE-${sample.id}`,
      sample.code,
      [obx('ALT', '30', 'U/L', '10-40'), obx('AST', 'hemoliza', 'U/L', '10-34')],
      patient,
    ),
  );
  expect(refused).toMatch(/^MSA\|AE\|.*OBX-5 not a number/);
  await page.reload();
  const alert = page.getByTestId('probe-lab-refusals');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Laboratorium nie przekazało wyników tej próbki');
  await expect(alert).toContainText(`Próbka ${sample.code}, AST: wynik nie jest liczbą`);
  await expect(alert).toContainText('Poproś laboratorium o poprawienie i ponowne wysłanie');
  await expectAccessible(page, `próbka z odrzuconym wynikiem (${size})`);

  // The integration's last error, in Polish, with the same sample and analyte.
  await page.goto('/settings/synevo');
  const lastError = page
    .locator('.mantine-Notification-root')
    .filter({ hasText: 'Ostatni błąd integracji' });
  await expect(lastError).toContainText(`Próbka ${sample.code}, AST: wynik nie jest liczbą`);
  await expectAccessible(page, `ostatni błąd integracji (${size})`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test.describe('Dopasowanie wyniku i błędy laboratorium', () => {
  // One laboratory login and one "last error" for the portal: one walk at a time.
  // A long walk (two laboratory messages, four screens, five axe runs) on a shared machine.
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  test('1440 px: match with both patients side by side, confirm the replacement, a refused result named in Polish', async ({
    page,
    request,
    api,
  }) => {
    await walk(page, request, api, '1440');
  });

  test.describe('phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test('390 px: the same walk', async ({ page, request, api }) => {
      await walk(page, request, api, '390');
    });
  });
});
