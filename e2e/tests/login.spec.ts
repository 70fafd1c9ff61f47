import { ADMIN_LOGIN, ADMIN_PASSWORD } from '../env.js';
import { expect, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

test.describe('Logowanie', () => {
  test('wrong password shows the fixed toast and stays on the login screen', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expectAccessible(page, 'logowanie');
    await page.getByLabel('Login').fill(ADMIN_LOGIN);
    await page.getByLabel('Hasło', { exact: true }).fill('zle-haslo');
    await page.getByLabel('Hasło', { exact: true }).press('Enter');
    await expect(
      page.getByText(
        'Podałeś nieprawidłowy login lub hasło. Spróbuj ponownie lub skontaktuj się z Administratorem',
      ),
    ).toBeVisible();
    await expectAccessible(page, 'logowanie: zły login');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('administrator signs in with Enter and lands on the dashboard', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Login').fill(ADMIN_LOGIN);
    await page.getByLabel('Hasło', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Hasło', { exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();
  });
});
