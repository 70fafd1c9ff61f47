import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, peselBirthDate, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { giveReason } from '../reason.js';

const SAVED = 'Zmiany zostały zapisane';
const REQUIRED = 'To pole musi być wypełnione';

function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

function step(page: Page, number: number, label: string) {
  return page.getByRole('button', { name: `Krok ${number} z 4: ${label}` });
}

async function expectStep(page: Page, heading: string) {
  await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
}

/** The wizard's own buttons, in the order they stand in the footer. */
async function expectButtons(page: Page, names: string[]) {
  const all = ['Anuluj edycję', 'Wstecz', 'Dalej', 'Zapisz'];
  for (const name of all) {
    const button = page.getByRole('main').getByRole('button', { name, exact: true });
    if (names.includes(name)) await expect(button).toBeVisible();
    else await expect(button).toHaveCount(0);
  }
  // Registration's own button never shows while editing.
  await expect(page.getByRole('button', { name: 'Zarejestruj pacjenta' })).toHaveCount(0);
}

function patientRow(page: Page, text: string) {
  return page.getByRole('table', { name: 'Pacjenci' }).getByRole('row').filter({ hasText: text });
}

test.describe('Edycja danych pacjenta', () => {
  test('each step has its buttons; a changed surname and dose are saved and listed', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const surname = `Nowacka-${randomBytes(3).toString('hex')}`;
    await openSignedIn(page, request, `/patients/${patient.id}/edit`);

    await expect(page.getByRole('heading', { name: 'Edycja danych pacjenta' })).toBeVisible();
    await expectStep(page, 'Dane osobowe i medyczne');
    // The participant number and the birth date are shown, not editable.
    const participant = field(page, 'Numer uczestnika');
    await expect(participant).toHaveValue(String(patient.id));
    await expect(participant).not.toBeEditable();
    await expect(field(page, 'Data urodzenia')).toHaveValue(peselBirthDate(patient.pesel));
    await expect(field(page, 'Data urodzenia')).not.toBeEditable();
    // The form holds the saved values; consent is not asked again.
    await expect(field(page, 'Nazwisko')).toHaveValue(patient.surname);
    await expect(field(page, 'PESEL')).toHaveValue(patient.pesel);
    await expect(field(page, 'Telefon')).toHaveValue('501234567');
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveValue(unit.name);
    await expect(page.getByRole('combobox', { name: 'Lekarz' })).toHaveValue(
      `${doctor.surname} ${doctor.firstname}`,
    );
    await expect(page.getByRole('checkbox', { name: /udzielił zgody/ })).toHaveCount(0);
    await expect(
      page.getByRole('checkbox', { name: 'Zakończył udział w programie' }),
    ).not.toBeChecked();
    await expectButtons(page, ['Anuluj edycję', 'Dalej', 'Zapisz']);
    await expectAccessible(page, 'edycja: krok 1');

    // A required field left empty stops the save and says why.
    await field(page, 'Nazwisko').fill('');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(field(page, 'Nazwisko')).toHaveAccessibleDescription(REQUIRED);
    await expect(page.getByText('Błąd walidacji. Popraw dane.')).toBeVisible();
    await expectAccessible(page, 'edycja: krok 1 z błędami');
    await expect(page).toHaveURL(new RegExp(`/patients/${patient.id}/edit$`));
    await field(page, 'Nazwisko').fill(surname);

    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Kryteria włączenia');
    await expectAccessible(page, 'edycja: krok 2');
    await expectButtons(page, ['Anuluj edycję', 'Wstecz', 'Dalej', 'Zapisz']);
    const doses = page.getByRole('radiogroup', { name: 'Dawka' });
    await expect(doses.getByRole('radio', { name: '160 mg' })).toBeChecked();
    await doses.getByRole('radio', { name: '320 mg' }).check();

    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Leki');
    await expectAccessible(page, 'edycja: krok 3');
    await expectButtons(page, ['Anuluj edycję', 'Wstecz', 'Dalej', 'Zapisz']);
    await expect(page.getByRole('checkbox', { name: /^walsartan/ })).toBeChecked();
    await expect(page.getByRole('combobox', { name: 'Dawka: walsartan' })).toHaveValue('160 mg');
    await expect(field(page, 'Nazwa leku')).toHaveValue('Metformina');

    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Kwalifikacja');
    await expectAccessible(page, 'edycja: krok 4');
    await expectButtons(page, ['Anuluj edycję', 'Wstecz', 'Zapisz']);
    await expect(
      page.getByRole('button', { name: 'Zakwalifikowany', exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');

    // Back goes one step back, with the changes kept.
    await page.getByRole('button', { name: 'Wstecz' }).click();
    await expectStep(page, 'Leki');
    await step(page, 1, 'Dane osobowe i medyczne').click();
    await expect(field(page, 'Nazwisko')).toHaveValue(surname);
    await step(page, 2, 'Kryteria włączenia').click();
    await expect(doses.getByRole('radio', { name: '320 mg' })).toBeChecked();

    await page.getByRole('button', { name: 'Zapisz' }).click();
    await giveReason(page);
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(surname);
    await expect(patientRow(page, surname)).toContainText(`${surname} Zofia`);
    await expect(patientRow(page, surname)).toContainText(`PESEL: ${patient.pesel}`);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(patient.surname);
    await expect(page.getByText('Brak danych')).toBeVisible();

    // The card shows the new dose; nothing else changed.
    const detail = await api.call<Record<string, unknown>>('GET', `/patients/${patient.id}`);
    expect(detail).toMatchObject({
      surname,
      firstname: 'Zofia',
      pesel: patient.pesel,
      inclusion: { group_id: 1, subgroup_id: 2, dose: 320, interval: null },
      additional_medicines: [{ name: 'Metformina', dose: 500 }],
      is_classified: true,
    });
    await page.goto(`/patients/card/${patient.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `${surname} Zofia` })).toBeVisible();
    const dose = page
      .locator('dl > div')
      .filter({ has: page.locator('dt', { hasText: /^Dawka$/ }) });
    await expect(dose.locator('dd')).toHaveText('320 mg');
  });

  test('"Anuluj edycję" goes back to the list and keeps the patient as it was', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const another = await registerPatient(api, doctor);
    const typed = `Porzucone-${randomBytes(3).toString('hex')}`;
    await openSignedIn(page, request, '/patients');

    // The card leads to the edit wizard.
    await page.goto(`/patients/card/${patient.id}`);
    await page.getByRole('link', { name: 'Edytuj' }).click();
    await expect(page).toHaveURL(new RegExp(`/patients/${patient.id}/edit$`));
    // The own PESEL is fine; another patient's is refused as it is typed.
    await expect(field(page, 'PESEL')).toHaveValue(patient.pesel);
    await expect(field(page, 'PESEL')).not.toHaveAttribute('aria-invalid', 'true');
    await field(page, 'PESEL').fill(another.pesel);
    await expect(field(page, 'PESEL')).toHaveAccessibleDescription(
      'Pacjent o podanym numerze PESEL istnieje już w bazie.',
    );
    await field(page, 'PESEL').fill(patient.pesel);
    // The phone number has exactly 9 digits.
    await field(page, 'Telefon').fill('50123');
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expect(field(page, 'Telefon')).toHaveAccessibleDescription(
      'Numer telefonu musi składać się z 9 cyfr',
    );
    await field(page, 'Telefon').fill('501234567');
    await field(page, 'Nazwisko').fill(typed);
    await page.getByRole('button', { name: 'Dalej' }).click();
    await page
      .getByRole('radiogroup', { name: 'Dawka' })
      .getByRole('radio', { name: '80 mg' })
      .check();

    await page.getByRole('button', { name: 'Anuluj edycję' }).click();
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByText(SAVED)).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(patient.pesel);
    await expect(patientRow(page, patient.pesel)).toContainText(`${patient.surname} Zofia`);

    const detail = await api.call<Record<string, unknown>>('GET', `/patients/${patient.id}`);
    expect(detail).toMatchObject({
      surname: patient.surname,
      inclusion: { group_id: 1, subgroup_id: 2, dose: 160, interval: null },
    });

    // Opening the wizard again starts from the saved data, not from what was typed.
    await page.goto(`/patients/${patient.id}/edit`);
    await expect(field(page, 'Nazwisko')).toHaveValue(patient.surname);
  });

  test('a patient that does not exist: back to the list with a message', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, '/patients/999999/edit');
    await expect(page.getByText('Nie znaleziono wskazanego elementu.')).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);
  });
});
