import { expectAccessible } from '../a11y.js';
import { expect, openSignedIn, patientBody, registerPatient, test, unique } from '../fixtures.js';
import { giveReason } from '../reason.js';

const SAVED = 'Zmiany zostały zapisane';
const CONFLICT =
  'Ktoś inny właśnie zmienił ten rekord. Wczytano jego aktualną wersję, a Twoje zmiany zostały zachowane w formularzu — sprawdź je i zapisz ponownie.';

interface StoredUnit {
  id: number;
  name: string;
  street: string;
  building_nr: string;
  postcode: string;
  city: string;
  version: number;
}

test.describe('Edycja równoczesna', () => {
  test('a unit changed by someone else while the dialog is open: message, typed values kept, second save wins', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    await openSignedIn(page, request, '/units');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(unit.name);
    await page
      .getByRole('table', { name: 'Jednostki' })
      .getByRole('row')
      .filter({ hasText: unit.name })
      .getByRole('button', { name: 'Edytuj' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edycja jednostki' });
    const nameField = dialog.getByRole('textbox', { name: 'Nazwa', exact: true });
    await expect(nameField).toHaveValue(unit.name);

    // Someone else saves the unit while this dialog is open.
    const { name, building_nr, postcode, city, version } = await api.call<StoredUnit>(
      'GET',
      `/units/${unit.id}`,
    );
    await api.call('PUT', `/units/${unit.id}`, {
      name,
      street: 'ul. Piotrkowska',
      building_nr,
      postcode,
      city,
      version,
    });

    const typed = unique('Poradnia po zmianie');
    await nameField.fill(typed);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();

    await expect(page.getByText(CONFLICT)).toBeVisible();
    await expectAccessible(page, 'edycja pacjenta: komunikat o równoczesnej zmianie');
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'jednostka: komunikat o równoczesnej zmianie');
    await expect(nameField).toHaveValue(typed);

    // The form now names the reloaded version: saving again goes through.
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();
    const after = await api.call<StoredUnit>('GET', `/units/${unit.id}`);
    expect(after).toMatchObject({ name: typed, version: version + 2 });
  });

  test('the patient edit wizard keeps the typed surname through a conflict and saves it next', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    await openSignedIn(page, request, `/patients/${patient.id}/edit`);
    const surnameField = page.getByRole('textbox', { name: 'Nazwisko', exact: true });
    await expect(surnameField).toHaveValue(patient.surname);

    // Someone else saves the patient (another phone number) while the wizard is open.
    const body = patientBody(doctor, { personal: { pesel: patient.pesel } });
    const personal: Record<string, unknown> = { ...body.personal, phone_number: '609876543' };
    delete personal.acceptance;
    await api.call('PUT', `/patients/${patient.id}`, {
      ...body,
      personal,
      version: 1,
      reason: { code: 'entry_error' },
    });

    const typed = `Zmieniona-${unique('x').slice(2)}`;
    await surnameField.fill(typed);
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(CONFLICT)).toBeVisible();
    await expectAccessible(page, 'edycja pacjenta: komunikat o równoczesnej zmianie');
    await expect(page).toHaveURL(new RegExp(`/patients/${patient.id}/edit$`));
    await expect(surnameField).toHaveValue(typed);

    await page.getByRole('button', { name: 'Zapisz' }).click();
    // The stale version was refused before the reason was asked; now the change asks why.
    await giveReason(page);
    await expect(page.getByText(SAVED)).toBeVisible();
    const after = await api.call<{ surname: string; version: number }>(
      'GET',
      `/patients/${patient.id}`,
    );
    expect(after).toMatchObject({ surname: typed, version: 3 });
  });
});
