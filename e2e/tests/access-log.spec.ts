import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectAccessible } from '../a11y.js';
import { BASE_URL } from '../env.js';
import { PortalApi, expect, openSignedIn, registerPatient, test } from '../fixtures.js';

/**
 * "Dziennik dostępu" (ADR 052) and the card's PESEL behind "Pokaż" (ADR 053), walked in Polish:
 * an administrator reads a card and reveals the PESEL, and finds both reads in the log (filtered
 * by patient, user and date range, paged by key); the data protection officer signs in through
 * the login page and opens the log.
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
