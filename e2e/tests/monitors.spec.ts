import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { BASE_URL } from '../env.js';
import { answerNewPasswordQuestion, expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

// Monitor (CRA) accounts, managed like doctors' (ADR 051): list, dialog, units, credentials.

const SAVED = 'Zmiany zostały zapisane';
const REQUIRED = 'To pole musi być wypełnione';

function monitorRow(page: Page, text: string) {
  return page
    .getByRole('table', { name: 'Monitorzy badania' })
    .getByRole('row')
    .filter({ hasText: text });
}

function field(dialog: Locator, name: string) {
  return dialog.getByRole('textbox', { name, exact: true });
}

/** The value shown next to a heading cell of the credentials sheet. */
function shownValue(dialog: Locator, heading: string) {
  return dialog.getByRole('row', { name: new RegExp(`^${heading} `) }).getByRole('cell');
}

/** Types part of a unit's name into the units multi-select and picks it. */
async function addUnit(dialog: Locator, unitName: string) {
  const units = dialog.getByRole('combobox', { name: 'Jednostki' });
  await units.click();
  await units.fill(unitName);
  await dialog.page().getByRole('option', { name: unitName, exact: true }).click();
  await units.press('Escape');
  await expect(dialog.getByText(unitName, { exact: true })).toBeVisible();
}

test.describe('Monitorzy badania', () => {
  test('administrator adds a monitor with two units, edits the units, prints the login details, the monitor must change the password, then the account is deleted', async ({
    page,
    request,
    browser,
    api,
  }) => {
    // The whole life of an account in one walk: longer than one screen's test.
    test.setTimeout(180_000);
    const first = await api.createUnit();
    const second = await api.createUnit();
    const third = await api.createUnit();
    const suffix = randomBytes(3).toString('hex');
    const surname = `Monitorowska-${suffix}`;
    const email = `m.monitorowska.${suffix}@cro.test`;

    // The menu leads to the screen.
    await openSignedIn(page, request, '/dashboard');
    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: 'Monitorzy badania' })
      .click();
    await expect(page).toHaveURL(/\/monitors$/);
    await expect(page.getByRole('heading', { name: 'Monitorzy badania' })).toBeVisible();

    await page.getByRole('button', { name: 'Dodaj monitora' }).click();
    await expect(page).toHaveURL(/\/monitors\/create$/);
    const dialog = page.getByRole('dialog', { name: 'Nowy monitor badania' });
    await expect(dialog).toBeVisible();
    await expect(
      dialog.getByRole('button', { name: 'Generuj i drukuj dane logowania' }),
    ).toHaveCount(0);

    // Every field is required, the units too; the messages are Polish.
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    for (const name of ['Imię', 'Nazwisko', 'E-mail', 'Telefon']) {
      await expect(field(dialog, name)).toHaveAccessibleDescription(REQUIRED);
    }
    await expect(dialog.getByText(REQUIRED)).toHaveCount(5);
    await expectAccessible(page, 'monitorzy: nowy monitor z błędami');

    await field(dialog, 'Imię').fill('Marta');
    await field(dialog, 'Nazwisko').fill(surname);
    await field(dialog, 'E-mail').fill('marta@');
    await field(dialog, 'Telefon').fill('501234567');
    await addUnit(dialog, first.name);
    await addUnit(dialog, second.name);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(field(dialog, 'E-mail')).toHaveAccessibleDescription(
      'To pole musi być poprawnym adresem e-mail',
    );
    await field(dialog, 'E-mail').fill(email);
    await expectAccessible(page, 'monitorzy: nowy monitor z dwiema jednostkami');
    await dialog.getByRole('button', { name: 'Zapisz' }).click();

    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/monitors$/);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(surname);
    const row = monitorRow(page, surname);
    await expect(row).toBeVisible();
    await expect(row).toContainText(`${surname} Marta`);
    await expect(row).toContainText(email);
    await expect(row).toContainText(first.name);
    await expect(row).toContainText(second.name);
    await expect(row).toContainText('+48 501 234 567');
    await expectAccessible(page, 'monitorzy: lista');
    const monitorId = Number((await row.getByRole('cell').first().innerText()).trim());
    expect(monitorId).toBeGreaterThan(0);

    // Edit: the second unit taken away (choosing a chosen option again removes it; the chips are
    // in name order, so Backspace would take whichever name sorts last), a third one given.
    await row.getByRole('button', { name: 'Edytuj' }).click();
    await expect(page).toHaveURL(new RegExp(`/monitors/${monitorId}/edit$`));
    const edit = page.getByRole('dialog', { name: 'Edycja monitora badania' });
    await expect(field(edit, 'E-mail')).toHaveValue(email);
    await expect(edit.getByText(first.name, { exact: true })).toBeVisible();
    await expect(edit.getByText(second.name, { exact: true })).toBeVisible();
    const units = edit.getByRole('combobox', { name: 'Jednostki' });
    await units.click();
    await units.fill(second.name);
    await page.getByRole('option', { name: second.name, exact: true }).click();
    await units.press('Escape');
    await expect(edit.getByText(second.name, { exact: true })).toHaveCount(0);
    await addUnit(edit, third.name);
    await expectAccessible(page, 'monitorzy: edycja');
    await edit.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED).first()).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(row).toContainText(first.name);
    await expect(row).toContainText(third.name);
    await expect(row).not.toContainText(second.name);
    const stored = await api.call<{ unit_ids: number[] }>('GET', `/monitors/${monitorId}`);
    expect([...stored.unit_ids].sort((a, b) => a - b)).toEqual(
      [first.id, third.id].sort((a, b) => a - b),
    );

    // Printable login details, asked first, as a doctor's.
    await row.getByRole('button', { name: 'Edytuj' }).click();
    const again = page.getByRole('dialog', { name: 'Edycja monitora badania' });
    await expect(field(again, 'E-mail')).toHaveValue(email);
    await again.getByRole('button', { name: 'Generuj i drukuj dane logowania' }).click();
    await answerNewPasswordQuestion(page, 'Generuj');
    const sheet = page.getByRole('dialog', { name: 'Dane logowania' });
    await expect(sheet).toBeVisible();
    await expect(shownValue(sheet, 'Login')).toHaveText(email);
    await expect(shownValue(sheet, 'Adres logowania')).toHaveText(`${BASE_URL}/login`);
    const password = (await shownValue(sheet, 'Hasło').innerText()).trim();
    expect(password).toMatch(/^\S{12}$/);
    await expect(sheet.locator('iframe[title="PDF"]')).toBeVisible();
    await expectAccessible(page, 'dane logowania monitora');
    await sheet.getByRole('button', { name: 'Zamknij' }).click();
    await expect(sheet).toBeHidden();
    await again.getByRole('button', { name: 'Anuluj' }).click();
    await expect(again).toBeHidden();

    // The monitor signs in with what the sheet shows. The login page offers no monitor choice in
    // this branch yet, so the sign-in goes through the API (POST /api/auth/login/monitor); the
    // printed password must be changed before anything else, on the password change screen.
    const signIn = await request.post(`${BASE_URL}/api/auth/login/monitor`, {
      data: { login: email, password },
    });
    expect(signIn.status(), await signIn.text()).toBe(200);
    const session = (await signIn.json()) as {
      access_token: string;
      user: { changed_password_at: string | null; role: string };
    };
    expect(session.user.role).toBe('monitor');
    expect(session.user.changed_password_at).toBeNull();
    const refused = await request.get(`${BASE_URL}/api/patients?limit=20`, {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { status: string }).status).toBe('password_change_required');
    const other = await browser.newContext({ baseURL: BASE_URL, locale: 'pl-PL' });
    try {
      const monitorPage = await other.newPage();
      await monitorPage.goto('/api/health');
      await monitorPage.evaluate((s) => {
        localStorage.setItem('portal.token', s.access_token);
        localStorage.setItem('portal.user', JSON.stringify(s.user));
      }, session);
      await monitorPage.goto('/patients');
      await expect(monitorPage).toHaveURL(/\/changepassword$/);
      await expect(monitorPage.getByRole('heading', { name: 'Zmiana hasła' })).toBeVisible();
      await expect(monitorPage.getByText(`Zalogowano jako Marta ${surname}`)).toBeVisible();
      await expectAccessible(monitorPage, 'monitor: wymuszona zmiana hasła');
    } finally {
      await other.close();
    }

    // Delete, after a confirmation: the row stays, marked, and the monitor can no longer sign in.
    await row.getByRole('button', { name: 'Usuń' }).click();
    await page
      .getByRole('dialog', { name: 'Czy na pewno chcesz usunąć wybrany element?' })
      .getByRole('button', { name: 'Tak' })
      .click();
    await expect(row).toHaveAttribute('data-deleted', 'true');
    await expect(row.getByText('Usunięty')).toBeVisible();
    const afterDelete = await request.post(`${BASE_URL}/api/auth/login/monitor`, {
      data: { login: email, password },
    });
    expect(afterDelete.status()).toBe(401);
  });

  test('a monitor with an e-mail already in use is refused', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const suffix = randomBytes(3).toString('hex');
    const existing = await api.call<{ data: { email: string } }>('POST', '/monitors', {
      firstname: 'Ewa',
      surname: `Istniejąca-${suffix}`,
      email: `ewa.${suffix}@cro.test`,
      phone_number: '600100200',
      unit_ids: [unit.id],
    });
    await openSignedIn(page, request, '/monitors/create');
    const dialog = page.getByRole('dialog', { name: 'Nowy monitor badania' });
    await field(dialog, 'Imię').fill('Piotr');
    await field(dialog, 'Nazwisko').fill(`Nowak-${suffix}`);
    await field(dialog, 'E-mail').fill(existing.data.email.toUpperCase());
    await field(dialog, 'Telefon').fill('600700800');
    await addUnit(dialog, unit.name);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Już istnieje przedmiot')).toBeVisible();
    await expect(dialog).toBeVisible();
  });
});

test.describe('Monitorzy badania na telefonie', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('monitors are shown as cards with their units', async ({ page, request, api }) => {
    const first = await api.createUnit();
    const second = await api.createUnit();
    const suffix = randomBytes(3).toString('hex');
    const surname = `Kartowa-${suffix}`;
    const email = `kartowa.${suffix}@cro.test`;
    await api.call('POST', '/monitors', {
      firstname: 'Ola',
      surname,
      email,
      phone_number: '600100200',
      unit_ids: [first.id, second.id],
    });
    await openSignedIn(page, request, '/monitors');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(surname);
    const card = page
      .getByRole('list', { name: 'Monitorzy badania' })
      .getByRole('listitem')
      .filter({ hasText: surname });
    await expect(card).toBeVisible();
    await expect(card).toContainText(first.name);
    await expect(card).toContainText(second.name);
    await expect(card.getByRole('link', { name: email })).toHaveAttribute(
      'href',
      `mailto:${email}`,
    );
    await expect(card.getByRole('link', { name: '+48 600 100 200' })).toHaveAttribute(
      'href',
      'tel:+48600100200',
    );
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectAccessible(page, 'monitorzy: karty (telefon)');
  });
});
