import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const REQUIRED = 'To pole musi być wypełnione';
const TITLE = 'Integracja z laboratorium';

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const password = (page: Page) => page.getByLabel(/^Hasło/);

test.describe(TITLE, () => {
  // One stored setting: the tests run in order.
  test.describe.configure({ mode: 'serial' });

  test('shows the last error until closed, asks for the required fields, saves and keeps the password', async ({
    page,
    request,
    api,
  }) => {
    const stored = await api.call<{ data: { value: { password_set: boolean } } }>(
      'GET',
      '/settings/synevo',
    );
    // The page's clock is ours: the toast's 7 seconds pass at once, not in real time.
    await page.clock.install();
    await openSignedIn(page, request, '/settings/synevo');
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();

    // The connector's last error (the seeded one, or one lab-matching.spec.ts left): a toast
    // that outlives the usual 6 seconds.
    const error = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Ostatni błąd integracji' });
    await expect(error).toBeVisible();
    await expect(error).toContainText('Ostatni błąd integracji');
    await page.clock.runFor(7000);
    await expect(error).toBeVisible();
    await expectAccessible(page, 'synevo with its last error');
    await error.getByRole('button', { name: 'Zamknij' }).click();
    await expect(error).toHaveCount(0);

    // Required: login and unit code, and the password while none is stored.
    await field(page, 'Login').fill('');
    await field(page, 'Kod jednostki').fill('');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(field(page, 'Login')).toHaveAccessibleDescription(REQUIRED);
    await expect(field(page, 'Kod jednostki')).toHaveAccessibleDescription(REQUIRED);
    if (!stored.data.value.password_set)
      await expect(password(page)).toHaveAccessibleDescription(REQUIRED);
    await expectAccessible(page, 'synevo with required errors');

    await field(page, 'Login').fill('portal.kardio');
    await password(page).fill('Tajne-Haslo-2026');
    await field(page, 'Kod jednostki').fill('KARDIO-01');
    const importSwitch = page.getByRole('checkbox', { name: 'Włącz import wyników' });
    await expect(importSwitch).toBeChecked();
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Zmiany zostały zapisane').last()).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await expect(field(page, 'Login')).toHaveValue('portal.kardio');
    await expect(field(page, 'Kod jednostki')).toHaveValue('KARDIO-01');
    await expect(importSwitch).toBeChecked();
    // The password is never sent back: the field is empty and says one is stored.
    await expect(password(page)).toHaveValue('');
    await expect(password(page)).toHaveAccessibleName(/^Hasło \(zapisane\)/);
    await expect(password(page)).toHaveAccessibleDescription(
      'Zostaw puste, aby zachować zapisane hasło.',
    );

    // Saved again with the password left empty: the stored one stays.
    await importSwitch.uncheck();
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Zmiany zostały zapisane').last()).toBeVisible();
    const after = await api.call<{
      data: { value: { password_set: boolean; enable_results_import: boolean } };
    }>('GET', '/settings/synevo');
    expect(after.data.value).toMatchObject({ password_set: true, enable_results_import: false });
  });

  test('works on a phone', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openSignedIn(page, request, '/settings/synevo');
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await expect(field(page, 'Login')).toHaveValue('portal.kardio');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'synevo, phone');
  });
});
