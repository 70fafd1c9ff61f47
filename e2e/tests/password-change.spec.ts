import { BASE_URL } from '../env.js';
import { expect, openSignedIn, signInThroughUi, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const INVALID_CREDENTIALS =
  'Podałeś nieprawidłowy login lub hasło. Spróbuj ponownie lub skontaktuj się z Administratorem';

test.describe('Zmiana hasła przy pierwszym logowaniu lekarza', () => {
  test('a doctor with printed credentials must change the password before anything else', async ({
    page,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const printed = await api.printDoctorLogin(doctor.id);
    const newPassword = `Nowe-haslo-${doctor.id}`;

    await signInThroughUi(page, 'doctor', printed);
    await expect(page).toHaveURL(/\/changepassword$/);
    await expect(page.getByRole('heading', { name: 'Zmiana hasła' })).toBeVisible();
    await expect(page.getByText('Przed rozpoczęciem pracy ustaw własne hasło.')).toBeVisible();

    // The menu is there but disabled until the password is changed.
    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(menu.getByRole('link', { name: 'Jednostki', exact: true })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(page.getByText('Menu będzie dostępne po zmianie hasła.')).toBeVisible();
    await expectAccessible(page, 'zmiana hasła wymuszona');
    await menu.getByText('Jednostki', { exact: true }).click({ force: true });
    await expect(page).toHaveURL(/\/changepassword$/);

    // Typing another address leads back too.
    await page.goto('/units');
    await expect(page).toHaveURL(/\/changepassword$/);

    const oldField = page.getByRole('textbox', { name: 'Stare hasło', exact: true });
    const newField = page.getByRole('textbox', { name: 'Nowe hasło', exact: true });
    const confirmField = page.getByRole('textbox', { name: 'Powtórz nowe hasło', exact: true });
    const save = page.getByRole('button', { name: 'Zapisz' });

    // Every field is required.
    await save.click();
    await expect(oldField).toHaveAccessibleDescription('To pole musi być wypełnione');
    await expect(newField).toHaveAccessibleDescription('To pole musi być wypełnione');
    await expect(confirmField).toHaveAccessibleDescription('To pole musi być wypełnione');
    await expectAccessible(page, 'zmiana hasła z błędami');

    // The confirmation must repeat the new password.
    await oldField.fill(printed.password);
    await newField.fill(newPassword);
    await confirmField.fill(`${newPassword}x`);
    await save.click();
    await expect(confirmField).toHaveAccessibleDescription(
      'Pole musi być takie samo jak nowe hasło.',
    );

    // The new password must differ from the old one.
    await newField.fill(printed.password);
    await confirmField.fill(printed.password);
    await save.click();
    await expect(newField).toHaveAccessibleDescription('Pole musi być inne niż stare hasło');

    // A wrong current password is refused by the server, under its field.
    await oldField.fill('to-nie-jest-moje-haslo');
    await newField.fill(newPassword);
    await confirmField.fill(newPassword);
    await save.click();
    await expect(oldField).toHaveAccessibleDescription('Niepoprawne hasło');
    await expect(page).toHaveURL(/\/changepassword$/);

    // Success: the toast, then about a second later the doctor's landing page (the dashboard).
    await oldField.fill(printed.password);
    const savedAt = Date.now();
    await save.click();
    await expect(page.getByText('Zmiany zostały zapisane')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(Date.now() - savedAt).toBeGreaterThanOrEqual(1000);
    await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Jednostki', exact: true })).not.toHaveAttribute(
      'aria-disabled',
    );
    await expect(page.getByText('Menu będzie dostępne po zmianie hasła.')).toHaveCount(0);

    // The new password works from now on; the printed one no longer does.
    await page.getByRole('button', { name: 'Wyloguj się' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signInThroughUi(page, 'doctor', { login: printed.login, password: newPassword });
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Wyloguj się' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signInThroughUi(page, 'doctor', printed);
    await expect(page.getByText(INVALID_CREDENTIALS)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the password must have at least 8 characters', async ({ page, api }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const printed = await api.printDoctorLogin(doctor.id);

    await signInThroughUi(page, 'doctor', printed);
    await expect(page).toHaveURL(/\/changepassword$/);
    await page.getByRole('textbox', { name: 'Stare hasło', exact: true }).fill(printed.password);
    await page.getByRole('textbox', { name: 'Nowe hasło', exact: true }).fill('Krotkie');
    await page.getByRole('textbox', { name: 'Powtórz nowe hasło', exact: true }).fill('Krotkie');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(
      page.getByRole('textbox', { name: 'Nowe hasło', exact: true }),
    ).toHaveAccessibleDescription('Hasło musi mieć co najmniej 8 znaków');
    await expect(page).toHaveURL(/\/changepassword$/);
  });
});

test.describe('Zmiana hasła z menu', () => {
  test('an administrator changes the password and lands on the doctors list; other sessions end', async ({
    page,
    request,
    browser,
    api,
  }) => {
    const { credentials } = await api.readyAdmin();
    const newPassword = `${credentials.password}-2`;

    // The same administrator is also signed in elsewhere.
    const other = await browser.newContext({ baseURL: BASE_URL, locale: 'pl-PL' });
    try {
      const elsewhere = await other.newPage();
      await signInThroughUi(elsewhere, 'admin', credentials);
      await expect(elsewhere).toHaveURL(/\/dashboard$/);

      await openSignedIn(page, request, '/units', 'admin', credentials);
      await page.getByRole('link', { name: 'Zmień hasło' }).click();
      await expect(page).toHaveURL(/\/changepassword$/);
      // Not forced: no hint, the menu works.
      await expect(page.getByText('Przed rozpoczęciem pracy ustaw własne hasło.')).toHaveCount(0);
      await expect(
        page
          .getByRole('navigation', { name: 'Menu główne' })
          .getByRole('link', { name: 'Jednostki', exact: true }),
      ).not.toHaveAttribute('aria-disabled');
      await expectAccessible(page, 'zmiana hasła');

      await page
        .getByRole('textbox', { name: 'Stare hasło', exact: true })
        .fill(credentials.password);
      await page.getByRole('textbox', { name: 'Nowe hasło', exact: true }).fill(newPassword);
      await page
        .getByRole('textbox', { name: 'Powtórz nowe hasło', exact: true })
        .fill(newPassword);
      await page.getByRole('button', { name: 'Zapisz' }).click();
      await expect(page.getByText('Zmiany zostały zapisane')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();

      // This browser keeps working with the session the change started.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();

      // The other browser's session ended with the change.
      await elsewhere.reload();
      await expect(elsewhere).toHaveURL(/\/login$/);
    } finally {
      await other.close();
    }
  });

  test('a doctor who changed the password reads units but cannot open staff lists', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/units', 'doctor', credentials);
    await expect(page).toHaveURL(/\/units$/);
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();

    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(menu.getByRole('link', { name: 'Lekarze' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Administratorzy' })).toHaveCount(0);

    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(unit.name);
    const row = page.getByRole('row').filter({ hasText: unit.name });
    await expect(row).toBeVisible();
    await expect(page.getByRole('button', { name: 'Dodaj jednostkę' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Edytuj' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Usuń' })).toHaveCount(0);

    await page.goto('/admins/create');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
