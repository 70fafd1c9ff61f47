import { PortalApi, expect, test } from '../fixtures.js';
import type { Credentials } from '../fixtures.js';
import type { Page, APIRequestContext } from '@playwright/test';
import { expectAccessible } from '../a11y.js';

/**
 * A browser that signed in before permissions travelled with the session keeps a 'portal.user'
 * without them. The portal must not break: it asks validate_token once and then shows the menu
 * the server's permissions allow.
 */
async function openWithLegacySession(
  page: Page,
  request: APIRequestContext,
  path: string,
  role: 'admin' | 'doctor',
  credentials: Credentials,
) {
  const { session } = await PortalApi.signIn(request, role, credentials);
  const { permissions, ...legacyUser } = session.user as typeof session.user & {
    permissions?: string[];
  };
  expect(permissions, 'login answers the permissions').toBeDefined();
  await page.goto('/login');
  await page.evaluate(
    ([token, user]) => {
      localStorage.setItem('portal.token', token);
      localStorage.setItem('portal.user', JSON.stringify(user));
    },
    [session.token, legacyUser] as const,
  );
  await page.goto(path);
}

const storedPermissions = (page: Page) =>
  page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('portal.user') ?? '{}') as { permissions?: string[] })
        .permissions,
  );

test.describe('Sesja zapisana przed uprawnieniami', () => {
  test('an administrator gets the full menu back after validate_token', async ({
    page,
    request,
    api,
  }) => {
    const { credentials } = await api.readyAdmin();
    await openWithLegacySession(page, request, '/doctors', 'admin', credentials);

    await expect(page.getByRole('heading', { name: 'Lekarze' })).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(menu.getByRole('link', { name: 'Administratorzy' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Historia zmian' })).toBeVisible();
    expect(await storedPermissions(page)).toEqual(
      expect.arrayContaining(['doctors.manage', 'admins.manage', 'audit.read']),
    );
    await expectAccessible(page, 'doctors list after a restored session');
  });

  test('a doctor keeps the own menu and is sent from /doctors to the dashboard', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openWithLegacySession(page, request, '/doctors', 'doctor', credentials);

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(menu.getByRole('link', { name: 'Pacjenci' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Lekarze' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Historia zmian' })).toHaveCount(0);
    await expectAccessible(page, "a doctor's dashboard after a restored session");
    // Units are read-only for doctors: no button to add one.
    await menu.getByRole('link', { name: 'Jednostki', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Jednostki', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: /Dodaj/ })).toHaveCount(0);
    expect(await storedPermissions(page)).not.toContain('units.manage');
  });
});
