import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const SAVED = 'Zmiany zostały zapisane';
const REQUIRED = 'To pole musi być wypełnione';
const NINE_DIGITS = 'Numer telefonu musi składać się z 9 cyfr';

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: false });

/**
 * Settings › Numery telefonów: both numbers are required; the support number then shows on the
 * login page. The setting is global: only this file writes it.
 */
async function savePhones(page: Page, screen: string, support: string, shown: string) {
  await expect(page.getByRole('heading', { name: 'Numery telefonów' })).toBeVisible();
  const courier = field(page, 'Kurier');
  const help = field(page, 'Pomoc techniczna');
  await courier.fill('');
  await help.fill('');
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(courier).toHaveAccessibleDescription(new RegExp(REQUIRED));
  await expect(help).toHaveAccessibleDescription(new RegExp(REQUIRED));
  await expectAccessible(page, `numery telefonów: błędy (${screen})`);

  await courier.fill('60010');
  await help.fill(support);
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(courier).toHaveAccessibleDescription(new RegExp(NINE_DIGITS));
  await expect(help).not.toHaveAccessibleDescription(new RegExp(REQUIRED));
  await courier.fill('600100200');
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(courier).not.toHaveAccessibleDescription(new RegExp(NINE_DIGITS));

  // Stored: a fresh load shows the numbers.
  await page.reload();
  await expect(field(page, 'Kurier')).toHaveValue('600100200');
  await expect(field(page, 'Pomoc techniczna')).toHaveValue(support);
  await expectAccessible(page, `numery telefonów (${screen})`);

  // The login page, signed out in a fresh context, offers the support number.
  const context = await page
    .context()
    .browser()!
    .newContext({
      baseURL: new URL(page.url()).origin,
      locale: 'pl-PL',
      viewport: page.viewportSize(),
    });
  const login = await context.newPage();
  await login.goto('/login');
  const line = login.getByText(`Pomoc: ${shown}`);
  await expect(line).toBeVisible();
  await expect(login.getByRole('link', { name: shown })).toHaveAttribute(
    'href',
    `tel:${shown.replace(/\s/g, '')}`,
  );
  await expectAccessible(login, `logowanie z numerem pomocy (${screen})`);
  await context.close();
}

test.describe('Numery telefonów', () => {
  test('an administrator saves both numbers, required first', async ({ page, request }) => {
    await openSignedIn(page, request, '/doctors');
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await nav.getByRole('button', { name: 'Ustawienia' }).click();
    await nav.getByRole('link', { name: 'Numery telefonów', exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/phone$/);
    await savePhones(page, 'komputer', '221112233', '+48 221 112 233');
  });

  test('a doctor has no phone settings', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/patients', 'doctor', credentials);
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(nav.getByRole('link', { name: 'Numery telefonów' })).toHaveCount(0);
  });
});

test.describe('Numery telefonów na telefonie', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('an administrator saves both numbers on a phone', async ({ page, request }) => {
    await openSignedIn(page, request, '/settings/phone');
    await savePhones(page, 'telefon', '221112244', '+48 221 112 244');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
  });
});
