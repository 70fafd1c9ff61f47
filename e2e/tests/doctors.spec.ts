import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { BASE_URL } from '../env.js';
import {
  answerNewPasswordQuestion,
  expect,
  NEW_PASSWORD,
  openSignedIn,
  signInThroughUi,
  test,
  unique,
} from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const SAVED = 'Zmiany zostały zapisane';

function doctorRow(page: Page, text: string) {
  return page.getByRole('table', { name: 'Lekarze' }).getByRole('row').filter({ hasText: text });
}

function field(dialog: Locator, name: string) {
  return dialog.getByRole('textbox', { name, exact: true });
}

/** The value shown next to a heading cell of the credentials sheet. */
function shownValue(dialog: Locator, heading: string) {
  return dialog.getByRole('row', { name: new RegExp(`^${heading} `) }).getByRole('cell');
}

async function chooseUnit(dialog: Locator, unitName: string) {
  const select = dialog.getByLabel('Jednostka');
  await select.click();
  await select.fill(unitName);
  await dialog.page().getByRole('option', { name: unitName, exact: true }).click();
  await expect(select).toHaveValue(unitName);
}

test.describe('Lekarze', () => {
  test('administrator adds a doctor with a unit and a +48 phone number', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const suffix = randomBytes(3).toString('hex');
    const surname = `Wiśniewska-${suffix}`;
    const email = `j.wisniewska.${suffix}@szpital.test`;
    await openSignedIn(page, request, '/doctors');
    await expect(page.getByRole('heading', { name: 'Lekarze' })).toBeVisible();

    await page.getByRole('button', { name: 'Dodaj lekarza' }).click();
    await expect(page).toHaveURL(/\/doctors\/create$/);
    const dialog = page.getByRole('dialog', { name: 'Nowy lekarz' });
    await expect(dialog).toBeVisible();

    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    for (const name of ['Imię', 'Nazwisko', 'E-mail', 'Telefon']) {
      await expect(field(dialog, name)).toHaveAccessibleDescription('To pole musi być wypełnione');
    }
    await expect(dialog.getByText('To pole musi być wypełnione')).toHaveCount(5);
    await expectAccessible(page, 'lekarze: nowy lekarz z błędami');

    await field(dialog, 'Imię').fill('Joanna');
    await field(dialog, 'Nazwisko').fill(surname);
    await field(dialog, 'E-mail').fill('joanna.wisniewska@');
    await field(dialog, 'Telefon').fill('501234567');
    await chooseUnit(dialog, unit.name);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(field(dialog, 'E-mail')).toHaveAccessibleDescription(
      'To pole musi być poprawnym adresem e-mail',
    );

    // The phone is typed as its 9 digits after a fixed +48.
    await expect(dialog.getByText('+48', { exact: true })).toBeVisible();
    await field(dialog, 'Telefon').fill('5012345678');
    await expect(field(dialog, 'Telefon')).toHaveValue('501234567');
    await field(dialog, 'Telefon').fill('50123');
    await field(dialog, 'E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(field(dialog, 'Telefon')).toHaveAccessibleDescription(
      'Numer telefonu musi składać się z 9 cyfr',
    );
    await field(dialog, 'Telefon').fill('501234567');
    await dialog.getByRole('button', { name: 'Zapisz' }).click();

    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/doctors$/);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(surname);
    const row = doctorRow(page, surname);
    await expect(row).toBeVisible();
    await expect(row).toContainText(`${surname} Joanna`);
    await expect(row).toContainText(email);
    await expect(row).toContainText(unit.name);
    await expect(row).toContainText('+48 501 234 567');
    await expectAccessible(page, 'lekarze: lista');
  });

  test('a doctor with an e-mail already in use is refused', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const existing = await api.createDoctor(unit.id);
    await openSignedIn(page, request, '/doctors/create');

    const dialog = page.getByRole('dialog', { name: 'Nowy lekarz' });
    await field(dialog, 'Imię').fill('Piotr');
    await field(dialog, 'Nazwisko').fill(unique('Nowak'));
    await field(dialog, 'E-mail').fill(existing.email.toUpperCase());
    await field(dialog, 'Telefon').fill('600700800');
    await chooseUnit(dialog, unit.name);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();

    await expect(page.getByText('Już istnieje przedmiot')).toBeVisible();
    await expect(dialog).toBeVisible();
    await expect(page.getByText(SAVED)).toHaveCount(0);
  });

  test('deep links open the dialogs: /doctors/create and /doctors/{id}/edit', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id, { firstname: 'Zofia' });

    await openSignedIn(page, request, '/doctors/create');
    const create = page.getByRole('dialog', { name: 'Nowy lekarz' });
    await expect(create).toBeVisible();
    await expect(field(create, 'Imię')).toHaveValue('');
    await expect(
      create.getByRole('button', { name: 'Generuj i drukuj dane logowania' }),
    ).toHaveCount(0);
    await create.getByRole('button', { name: 'Anuluj' }).click();
    await expect(create).toBeHidden();
    await expect(page).toHaveURL(/\/doctors$/);

    await page.goto(`/doctors/${doctor.id}/edit`);
    const edit = page.getByRole('dialog', { name: 'Edycja lekarza' });
    await expect(edit).toBeVisible();
    await expect(field(edit, 'Imię')).toHaveValue('Zofia');
    await expect(field(edit, 'Nazwisko')).toHaveValue(doctor.surname);
    await expect(field(edit, 'E-mail')).toHaveValue(doctor.email);
    await expect(field(edit, 'Telefon')).toHaveValue('600100200');
    await expect(edit.getByLabel('Jednostka')).toHaveValue(unit.name);

    // Editing saves and closes back to the list.
    const surname = unique('Zmieniona');
    await field(edit, 'Nazwisko').fill(surname);
    await edit.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(page).toHaveURL(/\/doctors$/);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(surname);
    await expect(doctorRow(page, surname)).toContainText(`${surname} Zofia`);

    // A doctor that does not exist: back to the list with a message.
    await page.goto('/doctors/999999/edit');
    await expect(page.getByText('Nie znaleziono wskazanego elementu.')).toBeVisible();
    await expect(page).toHaveURL(/\/doctors$/);
  });

  test('printed login details let the doctor sign in and lead to the password change', async ({
    page,
    request,
    browser,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    await openSignedIn(page, request, '/doctors');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(doctor.surname);
    await doctorRow(page, doctor.surname).getByRole('button', { name: 'Edytuj' }).click();
    await expect(page).toHaveURL(new RegExp(`/doctors/${doctor.id}/edit$`));

    const edit = page.getByRole('dialog', { name: 'Edycja lekarza' });
    await expect(field(edit, 'E-mail')).toHaveValue(doctor.email);
    await expectAccessible(page, 'lekarze: edycja');
    await edit.getByRole('button', { name: 'Generuj i drukuj dane logowania' }).click();
    await answerNewPasswordQuestion(page, 'Generuj');

    const sheet = page.getByRole('dialog', { name: 'Dane logowania' });
    await expect(sheet).toBeVisible();
    await expect(shownValue(sheet, 'Login')).toHaveText(doctor.email);
    await expect(shownValue(sheet, 'Adres logowania')).toHaveText(`${BASE_URL}/login`);
    const password = (await shownValue(sheet, 'Hasło').innerText()).trim();
    expect(password).toMatch(/^\S{12}$/);
    await expect(sheet.locator('iframe[title="PDF"]')).toBeVisible();
    await expectAccessible(page, 'dane logowania lekarza');

    // The sheet can also be downloaded as a PDF file.
    const downloading = page.waitForEvent('download');
    await sheet.getByRole('link', { name: 'Pobierz PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('dane-logowania.pdf');

    // Someone else, on another computer, signs in with what the sheet shows.
    const other = await browser.newContext({ baseURL: BASE_URL, locale: 'pl-PL' });
    try {
      const doctorPage = await other.newPage();
      await signInThroughUi(doctorPage, 'doctor', { login: doctor.email, password });
      await expect(doctorPage).toHaveURL(/\/changepassword$/);
      await expect(doctorPage.getByRole('heading', { name: 'Zmiana hasła' })).toBeVisible();
      await expect(
        doctorPage.getByText(`Zalogowano jako ${doctor.firstname} ${doctor.surname}`),
      ).toBeVisible();
    } finally {
      await other.close();
    }

    await sheet.getByRole('button', { name: 'Zamknij' }).click();
    await expect(sheet).toBeHidden();
    await expect(edit).toBeVisible();
  });

  test('delete and restore a doctor, each after a confirmation', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    await openSignedIn(page, request, '/doctors');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(doctor.surname);
    const row = doctorRow(page, doctor.surname);

    await row.getByRole('button', { name: 'Usuń' }).click();
    await page
      .getByRole('dialog', { name: 'Czy na pewno chcesz usunąć wybrany element?' })
      .getByRole('button', { name: 'Tak' })
      .click();
    await expect(row).toHaveAttribute('data-deleted', 'true');
    await expect(row.getByText('Usunięty')).toBeVisible();

    await row.getByRole('button', { name: 'Przywróć' }).click();
    await page
      .getByRole('dialog', { name: 'Czy na pewno chcesz przywrócić wybrany element?' })
      .getByRole('button', { name: 'Tak' })
      .click();
    await expect(row).not.toHaveAttribute('data-deleted');
    await expect(row.getByRole('button', { name: 'Edytuj' })).toBeVisible();
  });

  test('a deleted unit is not offered for a new doctor', async ({ page, request, api }) => {
    const tag = unique('Oddział');
    const kept = await api.createUnit(`${tag} czynny`);
    const deleted = await api.createUnit(`${tag} zamknięty`);
    await api.call('DELETE', `/units/${deleted.id}`);
    await openSignedIn(page, request, '/doctors/create');

    const dialog = page.getByRole('dialog', { name: 'Nowy lekarz' });
    const select = dialog.getByLabel('Jednostka');
    await select.click();
    await select.fill(tag);
    await expect(page.getByRole('option', { name: kept.name, exact: true })).toBeVisible();
    await expect(page.getByRole('option', { name: deleted.name, exact: true })).toHaveCount(0);
  });

  test('new login details are asked for first: "Anuluj" keeps the password, "Generuj" replaces it', async ({
    page,
    request,
    browser,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, `/doctors/${doctor.id}/edit`);
    const edit = page.getByRole('dialog', { name: 'Edycja lekarza' });
    const generate = edit.getByRole('button', { name: 'Generuj i drukuj dane logowania' });
    const sheet = page.getByRole('dialog', { name: 'Dane logowania' });

    // Cancelled: nothing is generated and the doctor's password still works.
    await generate.click();
    const question = page.getByRole('dialog', { name: NEW_PASSWORD.question });
    await expect(question).toContainText(NEW_PASSWORD.detail);
    await expectAccessible(page, 'lekarze: pytanie o nowe hasło');
    await question.getByRole('button', { name: 'Anuluj' }).click();
    await expect(question).toBeHidden();
    await expect(sheet).toHaveCount(0);
    await expect(edit).toBeVisible();
    // Escape answers the question alone; the doctor's dialog stays open.
    await generate.click();
    await expect(question).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(question).toBeHidden();
    await expect(edit).toBeVisible();
    await expect(sheet).toHaveCount(0);
    const stillWorks = await request.post(`${BASE_URL}/api/auth/login/doctor`, {
      data: credentials,
    });
    expect(stillWorks.status()).toBe(200);

    await generate.click();
    await answerNewPasswordQuestion(page, 'Generuj');
    const password = (await shownValue(sheet, 'Hasło').innerText()).trim();
    expect(password).not.toBe(credentials.password);

    const other = await browser.newContext({ baseURL: BASE_URL, locale: 'pl-PL' });
    try {
      const doctorPage = await other.newPage();
      await signInThroughUi(doctorPage, 'doctor', credentials);
      await expect(
        doctorPage.getByText(
          'Podałeś nieprawidłowy login lub hasło. Spróbuj ponownie lub skontaktuj się z Administratorem',
        ),
      ).toBeVisible();
      await doctorPage.getByLabel('Hasło', { exact: true }).fill(password);
      await doctorPage.getByLabel('Hasło', { exact: true }).press('Enter');
      await expect(doctorPage).toHaveURL(/\/changepassword$/);
    } finally {
      await other.close();
    }
  });
});

test.describe('Lekarze na telefonie', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('doctors are shown as cards and the dialog fills the screen', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    await openSignedIn(page, request, '/doctors');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(doctor.surname);

    const card = page
      .getByRole('list', { name: 'Lekarze' })
      .getByRole('listitem')
      .filter({ hasText: doctor.surname });
    await expect(card).toBeVisible();
    await expect(card).toContainText(unit.name);
    await expectAccessible(page, 'lekarze: karty (telefon)');
    await expect(card.getByRole('link', { name: doctor.email })).toHaveAttribute(
      'href',
      `mailto:${doctor.email}`,
    );
    await expect(card.getByRole('link', { name: '+48 600 100 200' })).toHaveAttribute(
      'href',
      'tel:+48600100200',
    );
    await expect(page.getByRole('table')).toHaveCount(0);

    await card.getByRole('button', { name: 'Edytuj' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edycja lekarza' });
    await expect(field(dialog, 'E-mail')).toHaveValue(doctor.email);
    const box = await dialog.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(389);
    await expectAccessible(page, 'lekarze: dialog (telefon)');
    await dialog.getByRole('button', { name: 'Anuluj' }).click();
    await expect(dialog).toBeHidden();
  });
});
