import type { Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { expectNoSidewaysScroll } from '../layout.js';

const DIALOG = 'Wyślij próbkę do analizy';
const VALIDATION_TOAST = 'Błąd walidacji. Popraw dane.';
const REQUIRED = 'To pole musi być wypełnione';

/** Today in Warsaw as the screens show it (DD.MM.YYYY). */
function warsawToday(): string {
  return new Intl.DateTimeFormat('pl-PL', {
    timeZone: 'Europe/Warsaw',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());
}

function samplesPath(patientId: number) {
  return `/patients/card/${patientId}?tab=samples`;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: DIALOG });
const field = (page: Page, name: string) =>
  dialog(page).getByRole('textbox', { name, exact: true });

test.describe('Karta pacjenta: próbki', () => {
  test('a doctor sends a sample for analysis from the card and orders the courier', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    const patient = await registerPatient(api, { id: doctor.id, unit_id: unit.id });
    const { url: orderUrl } = await api.call<{ url: string }>('GET', '/probes/order_link');
    // The postal service is not reached from the tests: its page is answered here.
    await page
      .context()
      .route(`${orderUrl}**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>Poczta</title>' }),
      );

    await openSignedIn(page, request, samplesPath(patient.id), 'doctor', credentials);
    await expect(page.getByText('Pacjent nie ma jeszcze żadnych próbek.')).toBeVisible();
    await expectAccessible(page, 'próbki pacjenta: brak');

    await page.getByRole('button', { name: 'Dodaj próbkę' }).click();
    await expect(dialog(page)).toBeVisible();
    // The fixed defaults and what the card and the session already know.
    await expect(dialog(page).getByRole('checkbox', { name: 'CITO (pilne)' })).toBeChecked();
    await expect(dialog(page).getByRole('radio', { name: 'Biochemia' })).toBeChecked();
    await expect(dialog(page).getByRole('radio', { name: 'Żylna' })).toBeChecked();
    await expect(dialog(page).getByRole('radio', { name: 'Poradnia' })).toBeChecked();
    await expect(field(page, 'Imię zlecającego')).toHaveValue(doctor.firstname);
    await expect(field(page, 'Nazwisko zlecającego')).toHaveValue(doctor.surname);
    await expect(field(page, 'Imię pacjenta')).toHaveValue(patient.firstname);
    await expect(field(page, 'Nazwisko pacjenta')).toHaveValue(patient.surname);
    await expect(field(page, 'Ulica')).toHaveValue('ul. Łąkowa');
    await expect(field(page, 'Miejscowość')).toHaveValue('Łódź');
    await expect(field(page, 'Data pobrania próbki')).toHaveValue(warsawToday());
    await expect(field(page, 'Data zlecenia')).toHaveValue(warsawToday());

    // The preview shows a number and follows the form (Z -> W for capillary blood).
    const preview = dialog(page).getByTestId('probe-code-preview');
    await expect(preview).toHaveText(/Z/);
    await dialog(page).getByRole('radio', { name: 'Włośniczkowa' }).check();
    await expect(preview).toHaveText(/W/);
    await expectAccessible(page, 'wyślij próbkę do analizy');

    // No carrier and no city: the toast and both fields' messages.
    await field(page, 'Miejscowość').fill('');
    await dialog(page).getByRole('button', { name: 'Wyślij' }).click();
    await expect(page.getByRole('alert').filter({ hasText: VALIDATION_TOAST })).toBeVisible();
    await expect(field(page, 'Miejscowość')).toHaveAccessibleDescription(REQUIRED);
    await expect(
      dialog(page).getByRole('combobox', { name: 'Rodzaj pojemnika', exact: true }),
    ).toHaveAccessibleDescription(REQUIRED);
    await expectAccessible(page, 'wyślij próbkę do analizy: błędy');

    await field(page, 'Miejscowość').fill('Łódź');
    await dialog(page).getByRole('combobox', { name: 'Rodzaj pojemnika', exact: true }).click();
    await page.getByRole('option').first().click();
    await dialog(page).getByRole('button', { name: 'Wyślij' }).click();
    await expect(dialog(page)).toBeHidden();

    const { data } = await api.call<{ data: { code: string; type_of_material: string }[] }>(
      'GET',
      `/patients/${patient.id}/probes`,
    );
    expect(data).toHaveLength(1);
    const code = data[0]!.code;
    expect(data[0]!.type_of_material).toBe('capillary');
    await expect(page.getByText(`Próbka nr ${code} została zapisana`)).toBeVisible();
    const card = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: `Próbka nr ${code}` }),
    });
    await expect(card).toBeVisible();
    await expect(card.getByText(`Próbka utworzona w dniu ${warsawToday()}`)).toBeVisible();
    await expect(card.getByRole('link', { name: /^Szczegóły/ })).toHaveAttribute(
      'href',
      /\/probes\/\d+$/,
    );

    // "Zamów kuriera" opens the postal service's page in a new tab.
    const order = page.getByRole('link', { name: 'Zamów kuriera' });
    await expect(order).toHaveAttribute('target', '_blank');
    await expect(order).toHaveAttribute('rel', /noopener/);
    const [popup] = await Promise.all([page.waitForEvent('popup'), order.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(orderUrl);
    await popup.close();
    await expectAccessible(page, 'próbki pacjenta: jedna próbka');
  });
});

test.describe('Karta pacjenta: próbki na telefonie', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the samples and the dialog fit a 375 px screen', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const carriers = await api.call<{ data: { id: number; materials: string[] }[] }>(
      'GET',
      '/probes/carriers',
    );
    // A carrier for the default venous blood (ADR 041).
    const tube = carriers.data.find((carrier) => carrier.materials.includes('venous'))!;
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
    const created = await api.call<{ probe: { code: string } }>('POST', '/probes', {
      patient_id: patient.id,
      medicine_ids: [13],
      date_of_sample: today,
      carrier_id: tube.id,
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

    await openSignedIn(page, request, samplesPath(patient.id));
    await expect(
      page.getByRole('heading', { name: `Próbka nr ${created.probe.code}` }),
    ).toBeVisible();
    await expect(page.getByText(`Próbka utworzona w dniu ${warsawToday()}`)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'próbki pacjenta na telefonie');

    await page.getByRole('button', { name: 'Dodaj próbkę' }).click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByTestId('probe-code-preview')).toHaveText(/\w/);
    await expectAccessible(page, 'wyślij próbkę do analizy na telefonie');
  });
});
