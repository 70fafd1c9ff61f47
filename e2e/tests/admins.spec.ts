import type { Page } from '@playwright/test';
import { BASE_URL } from '../env.js';
import {
  answerNewPasswordQuestion,
  expect,
  openSignedIn,
  signInThroughUi,
  test,
  unique,
} from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const SAVED = 'Zmiany zostały zapisane';

function adminRow(page: Page, login: string) {
  return page
    .getByRole('table', { name: 'Administratorzy' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: login, exact: true }) });
}

function newLogin(prefix: string) {
  return unique(prefix).replace(' ', '.');
}

test.describe('Administratorzy', () => {
  test('administrator adds another administrator; a taken login is refused', async ({
    page,
    request,
    api,
  }) => {
    const existing = await api.createAdmin();
    const login = newLogin('m.zielinska');
    await openSignedIn(page, request, '/admins');
    await expect(page.getByRole('heading', { name: 'Administratorzy' })).toBeVisible();

    await page.getByRole('button', { name: 'Dodaj administratora' }).click();
    await expect(page).toHaveURL(/\/admins\/create$/);
    const dialog = page.getByRole('dialog', { name: 'Nowy administrator' });
    const loginField = dialog.getByRole('textbox', { name: 'Login', exact: true });
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(loginField).toHaveAccessibleDescription('To pole musi być wypełnione');
    await expectAccessible(page, 'administratorzy: nowy z błędem');

    // A login someone already has.
    await loginField.fill(existing.login);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Już istnieje przedmiot')).toBeVisible();
    await expect(dialog).toBeVisible();

    await loginField.fill(login);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/admins$/);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(login);
    await expect(adminRow(page, login)).toBeVisible();
  });

  test('edit changes the login; print shows new login details that work', async ({
    page,
    request,
    browser,
    api,
  }) => {
    const admin = await api.createAdmin();
    const renamed = newLogin('k.wojcik');
    await openSignedIn(page, request, '/admins');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(admin.login);
    await adminRow(page, admin.login).getByRole('button', { name: 'Edytuj' }).click();
    await expect(page).toHaveURL(new RegExp(`/admins/${admin.id}/edit$`));

    const edit = page.getByRole('dialog', { name: 'Edycja administratora' });
    const loginField = edit.getByRole('textbox', { name: 'Login', exact: true });
    await expect(loginField).toHaveValue(admin.login);
    await loginField.fill(renamed);
    await edit.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(edit).toBeHidden();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(renamed);
    const row = adminRow(page, renamed);
    await expect(row).toBeVisible();
    await expect(row).toContainText(String(admin.id));
    await expectAccessible(page, 'administratorzy: lista');

    // The deep link opens the same dialog, which offers the login details.
    await page.goto(`/admins/${admin.id}/edit`);
    await expect(loginField).toHaveValue(renamed);
    await expectAccessible(page, 'administratorzy: edycja');
    await edit.getByRole('button', { name: 'Generuj i drukuj dane logowania' }).click();
    await answerNewPasswordQuestion(page, 'Generuj');
    const sheet = page.getByRole('dialog', { name: 'Dane logowania' });
    await expect(sheet).toBeVisible();
    const value = (heading: string) =>
      sheet.getByRole('row', { name: new RegExp(`^${heading} `) }).getByRole('cell');
    await expect(value('Login')).toHaveText(renamed);
    await expect(value('Adres logowania')).toHaveText(`${BASE_URL}/login`);
    const password = (await value('Hasło').innerText()).trim();
    expect(password).toMatch(/^\S{12}$/);
    await expect(sheet.locator('iframe[title="PDF"]')).toBeVisible();

    const other = await browser.newContext({ baseURL: BASE_URL, locale: 'pl-PL' });
    try {
      const adminPage = await other.newPage();
      await signInThroughUi(adminPage, 'admin', { login: renamed, password });
      await expect(adminPage).toHaveURL(/\/changepassword$/);
    } finally {
      await other.close();
    }
  });

  test('delete and restore an administrator, each after a confirmation', async ({
    page,
    request,
    api,
  }) => {
    const admin = await api.createAdmin();
    await openSignedIn(page, request, '/admins');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(admin.login);
    const row = adminRow(page, admin.login);

    await row.getByRole('button', { name: 'Usuń' }).click();
    const confirmDelete = page.getByRole('dialog', {
      name: 'Czy na pewno chcesz usunąć wybrany element?',
    });
    await confirmDelete.getByRole('button', { name: 'Nie' }).click();
    await expect(confirmDelete).toBeHidden();
    await expect(row).not.toHaveAttribute('data-deleted');

    await row.getByRole('button', { name: 'Usuń' }).click();
    await confirmDelete.getByRole('button', { name: 'Tak' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(row).toHaveAttribute('data-deleted', 'true');
    await expect(row.getByText('Usunięty')).toBeVisible();

    await row.getByRole('button', { name: 'Przywróć' }).click();
    await page
      .getByRole('dialog', { name: 'Czy na pewno chcesz przywrócić wybrany element?' })
      .getByRole('button', { name: 'Tak' })
      .click();
    await expect(row).not.toHaveAttribute('data-deleted');
    await expect(row.getByRole('button', { name: 'Usuń' })).toBeVisible();
  });

  test('the own account offers no new login details but the change-password screen', async ({
    page,
    request,
    api,
  }) => {
    // An administrator of this test's own: a failure must not lock the seeded one out.
    const { admin, credentials } = await api.readyAdmin();
    const other = await api.createAdmin();

    // Another administrator's dialog offers the login details.
    await openSignedIn(page, request, `/admins/${other.id}/edit`, 'admin', credentials);
    const edit = page.getByRole('dialog', { name: 'Edycja administratora' });
    await expect(edit.getByRole('textbox', { name: 'Login', exact: true })).toHaveValue(
      other.login,
    );
    await expect(
      edit.getByRole('button', { name: 'Generuj i drukuj dane logowania' }),
    ).toBeVisible();

    // The own one sends to the change-password screen instead.
    await page.goto(`/admins/${admin.id}/edit`);
    await expect(edit.getByRole('textbox', { name: 'Login', exact: true })).toHaveValue(
      admin.login,
    );
    await expect(edit.getByText('Własne hasło zmieniasz na ekranie zmiany hasła.')).toBeVisible();
    await expect(edit.getByRole('button', { name: 'Generuj i drukuj dane logowania' })).toHaveCount(
      0,
    );
    await expectAccessible(page, 'administratorzy: własne konto');
    await edit.getByRole('link', { name: 'Zmień hasło' }).click();
    await expect(page).toHaveURL(/\/changepassword$/);
    await expect(page.getByRole('heading', { name: 'Zmiana hasła' })).toBeVisible();
    await expect(edit).toHaveCount(0);

    // Nothing was generated: the password still signs in.
    const signIn = await request.post(`${BASE_URL}/api/auth/login/admin`, { data: credentials });
    expect(signIn.status()).toBe(200);
  });

  test('an administrator cannot delete their own account', async ({ page, request, api }) => {
    // An administrator of this test's own, so that a failure cannot lock the others out.
    const { admin, credentials } = await api.readyAdmin();
    await openSignedIn(page, request, '/admins', 'admin', credentials);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(admin.login);
    const row = adminRow(page, admin.login);

    await row.getByRole('button', { name: 'Usuń' }).click();
    await page
      .getByRole('dialog', { name: 'Czy na pewno chcesz usunąć wybrany element?' })
      .getByRole('button', { name: 'Tak' })
      .click();
    await expect(page.getByText('Nie możesz usunąć własnego konta.')).toBeVisible();
    await expect(page.getByText(SAVED)).toHaveCount(0);
    await expect(row).not.toHaveAttribute('data-deleted');
    await expect(row.getByRole('button', { name: 'Usuń' })).toBeVisible();

    // Still signed in and still allowed to work.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Administratorzy' })).toBeVisible();
  });
});
