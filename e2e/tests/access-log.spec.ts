import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectAccessible } from '../a11y.js';
import { BASE_URL } from '../env.js';
import { PortalApi, expect, openSignedIn, registerPatient, test } from '../fixtures.js';

/**
 * "Dziennik dostępu" (ADR 052) and the card's PESEL behind "Pokaż" (ADR 053), walked in Polish:
 * an administrator reads a card and reveals the PESEL, and finds both reads in the log (filtered
 * by patient, user and date range, paged by key); the filters kept in the address over a reload
 * and Back; the data protection officer signs in through the login page and opens the log.
 */

async function chooseRange(page: Page, option: string) {
  const select = page.getByRole('combobox', { name: 'Zakres dat' });
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(select).toHaveValue(option);
}

test('an administrator reads a card, reveals the PESEL and finds both in the log; pages by key', async ({
  page,
  request,
  api,
}) => {
  const unit = await api.createUnit();
  const doctor = await api.createDoctor(unit.id);
  const patient = await registerPatient(api, doctor);
  const { admin, credentials } = await api.readyAdmin();
  const { api: own, session } = await PortalApi.signIn(request, 'admin', credentials);

  await openSignedIn(page, request, `/patients/card/${patient.id}`, 'admin', credentials);
  const pesel = page.getByTestId('patient-pesel');
  await expect(pesel).toHaveText(`${patient.pesel.slice(0, 6)}*****`);
  await expectAccessible(page, 'karta pacjenta: PESEL zamaskowany');
  await page.getByRole('button', { name: 'Pokaż PESEL i dane kontaktowe' }).click();
  await expect(pesel).toHaveText(patient.pesel);
  await expect(page.getByRole('button', { name: 'Pokaż PESEL i dane kontaktowe' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Kto oglądał dane pacjenta' }).click();
  await expect(page).toHaveURL(new RegExp(`/access_log\\?patientIds=${patient.id}`));
  await expect(page.getByRole('heading', { name: 'Dziennik dostępu', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Dziennik dostępu' });
  const revealed = table.getByRole('row').filter({ hasText: 'Odkryty PESEL i kontakt' });
  await expect(revealed).toHaveCount(1);
  await expect(revealed).toContainText(admin.login);
  await expect(revealed).toContainText(String(patient.id));
  await expect(
    table.getByRole('row').filter({ hasText: 'Karta pacjenta' }).filter({ hasText: admin.login }),
  ).not.toHaveCount(0);
  await expectAccessible(page, 'dziennik dostępu: wpisy pacjenta');

  // By user: a click on the name filters by that user (the doctor who registered reads nothing).
  await revealed.getByRole('button', { name: `Pokaż wpisy użytkownika ${admin.login}` }).click();
  await expect(page.getByLabel('ID użytkownika')).toHaveValue(String(session.user.id));
  await expect(revealed).toHaveCount(1);
  // By date range: today holds the reads, yesterday nothing.
  await chooseRange(page, 'Wczoraj');
  await expect(page.getByText('Brak danych')).toBeVisible();
  await chooseRange(page, 'Dzisiaj');
  await expect(revealed).toHaveCount(1);
  await page.getByRole('button', { name: 'Wyczyść filtry' }).click();
  await expect(page.getByLabel('ID użytkownika')).toHaveValue('');

  // Enough reads of the patient for three pages of ten.
  for (let i = 0; i < 24; i++) await own.call('GET', `/patients/${patient.id}`);
  await page.goto(`/access_log?patientIds=${patient.id}&limit=10`);
  await expect(page.getByText(/^1–10 z \d+$/)).toBeVisible();
  const firstPage = await table.getByRole('row').allInnerTexts();
  const pager = page.getByRole('navigation', { name: 'Stronicowanie' });
  await pager.getByRole('button', { name: 'Następna strona' }).click();
  // The next page by key: the URL names the last entry shown, and keeps the page and its size.
  await expect(page).toHaveURL(/[?&]after=\d+/);
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(page).toHaveURL(/[?&]limit=10/);
  await expect(page.getByText(/^11–20 z \d+$/)).toBeVisible();
  // (The rows of one user's reads in one minute read alike: the range tells the pages apart.)
  const secondPage = await table.getByRole('row').allInnerTexts();
  expect(secondPage).toHaveLength(firstPage.length);
  // A reload opens the same page.
  await page.reload();
  await expect(page.getByText(/^11–20 z \d+$/)).toBeVisible();
  expect(await table.getByRole('row').allInnerTexts()).toEqual(secondPage);
  await pager.getByRole('button', { name: 'Następna strona' }).click();
  await expect(page.getByText(/^21–\d+ z \d+$/)).toBeVisible();
  // Back by key, then a jump by number.
  await pager.getByRole('button', { name: 'Poprzednia strona' }).click();
  await expect(page).toHaveURL(/[?&]before=\d+/);
  await expect(page.getByText(/^11–20 z \d+$/)).toBeVisible();
  expect(await table.getByRole('row').allInnerTexts()).toEqual(secondPage);
  await pager.getByRole('button', { name: 'Strona 1', exact: true }).click();
  await expect(page.getByText(/^1–10 z \d+$/)).toBeVisible();
  await expect(page).not.toHaveURL(/after=|before=/);
  await expectAccessible(page, 'dziennik dostępu: stronicowanie');
});

test('the filters live in the address: a reload shows the same rows, Back the previous filter; by keyboard', async ({
  page,
  request,
  api,
}) => {
  const unit = await api.createUnit();
  const doctor = await api.createDoctor(unit.id);
  const patient = await registerPatient(api, doctor);
  const other = await registerPatient(api, doctor);
  const { admin, credentials } = await api.readyAdmin();
  const { api: own, session } = await PortalApi.signIn(request, 'admin', credentials);
  for (let i = 0; i < 3; i++) await own.call('GET', `/patients/${patient.id}`);
  await own.call('GET', `/patients/${other.id}`);

  await openSignedIn(page, request, '/access_log', 'admin', credentials);
  const table = page.getByRole('table', { name: 'Dziennik dostępu' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();

  // By keyboard: the patient's id typed into its field, the date range chosen with the arrows.
  const patientField = page.getByLabel('ID pacjenta');
  await patientField.focus();
  await page.keyboard.type(String(patient.id));
  await expect(page).toHaveURL(new RegExp(`[?&]patientIds=${patient.id}(&|$)`));
  const range = page.getByRole('combobox', { name: 'Zakres dat' });
  await range.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option', { name: 'Dzisiaj', exact: true })).toBeVisible();
  // The options in their fixed order: from the beginning, yesterday, today.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(range).toHaveValue('Dzisiaj');
  await expect(page).toHaveURL(/[?&]range=today(&|$)/);
  const cards = table.getByRole('row').filter({ hasText: 'Karta pacjenta' });
  await expect(cards.filter({ hasText: admin.login })).toHaveCount(3);
  // Only this patient's entries: the other patient's card read is not among them.
  const otherCell = table.getByRole('cell', { name: String(other.id), exact: true });
  await expect(otherCell).toHaveCount(0);
  const filteredRows = await table.getByRole('row').allInnerTexts();
  await expectAccessible(page, 'dziennik dostępu: filtry w adresie');

  // A reload (or the same link elsewhere) shows the same filters and the same rows.
  await page.reload();
  await expect(page.getByLabel('ID pacjenta')).toHaveValue(String(patient.id));
  await expect(range).toHaveValue('Dzisiaj');
  await expect(cards.filter({ hasText: admin.login })).toHaveCount(3);
  expect(await table.getByRole('row').allInnerTexts()).toEqual(filteredRows);

  // A user filter on top (the name's button, by keyboard), then Back to the previous filter.
  await table
    .getByRole('button', { name: `Pokaż wpisy użytkownika ${admin.login}` })
    .first()
    .press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]userIds=${session.user.id}(&|$)`));
  await expect(page.getByLabel('ID użytkownika')).toHaveValue(String(session.user.id));
  await page.goBack();
  await expect(page).not.toHaveURL(/userIds=/);
  await expect(page.getByLabel('ID użytkownika')).toHaveValue('');
  await expect(page.getByLabel('ID pacjenta')).toHaveValue(String(patient.id));
  await expect(range).toHaveValue('Dzisiaj');
  await expect(cards.filter({ hasText: admin.login })).toHaveCount(3);
  // Back again: the list before the date range, still this patient's.
  await page.goBack();
  await expect(page).not.toHaveURL(/range=/);
  await expect(range).toHaveValue('Od początku');
  await expect(page.getByLabel('ID pacjenta')).toHaveValue(String(patient.id));

  // "Wyczyść filtry" empties the fields and the address alike.
  await page.getByRole('button', { name: 'Wyczyść filtry' }).click();
  await expect(page).not.toHaveURL(/patientIds=|range=/);
  await expect(page.getByLabel('ID pacjenta')).toHaveValue('');
  await expect(otherCell).not.toHaveCount(0);
});

test('the data protection officer signs in on the login page and opens the log', async ({
  page,
  request,
  api,
}) => {
  const login = `iod.${randomBytes(3).toString('hex')}`;
  const created = await api.call<{ data: { id: number } }>('POST', '/admins', {
    login,
    role: 'iod',
  });
  const printed = await api.call<{ login: string; password: string }>(
    'GET',
    `/admins/print_login_detail/${created.data.id}`,
  );
  const signedIn = await request.post(`${BASE_URL}/api/auth/login/iod`, { data: printed });
  const token = ((await signedIn.json()) as { access_token: string }).access_token;
  const password = `Iod-${randomBytes(4).toString('hex')}`;
  const changed = await request.put(`${BASE_URL}/api/change_password`, {
    headers: { authorization: `Bearer ${token}` },
    data: { oldPassword: printed.password, newPassword: password, passwordConfirm: password },
  });
  expect(changed.ok(), await changed.text()).toBe(true);

  await page.goto('/login');
  const roles = page.getByRole('radiogroup', { name: 'Rola' });
  await roles.getByText('Inspektor ochrony danych', { exact: true }).click();
  await expect(roles.getByRole('radio', { name: 'Inspektor ochrony danych' })).toBeChecked();
  await page.getByLabel('Login').fill(printed.login);
  await page.getByLabel('Hasło', { exact: true }).fill(password);
  await expectAccessible(page, 'logowanie: inspektor ochrony danych');
  await page.getByLabel('Hasło', { exact: true }).press('Enter');

  await page.getByRole('link', { name: 'Dziennik dostępu' }).first().click();
  await expect(page.getByRole('heading', { name: 'Dziennik dostępu', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Dziennik dostępu' }).getByRole('row').nth(1),
  ).toBeVisible();
  await expectAccessible(page, 'dziennik dostępu: inspektor ochrony danych');
});
