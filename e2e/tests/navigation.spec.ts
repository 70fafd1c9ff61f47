import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { expectNoSidewaysScroll } from '../layout.js';

/**
 * Every screen reachable on every screen size (ADR 039): what the desktop sidebar offers, the
 * bottom bar and its "Więcej" drawer offer below 1280 px, by keyboard too.
 */

const SIZES = {
  desktop: { width: 1440, height: 900 },
  narrow: { width: 1200, height: 800 },
  phone: { width: 390, height: 844 },
};

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Menu główne' });
const drawer = (page: Page) => page.getByRole('dialog', { name: 'Menu' });

/** The names of a navigation's links and buttons, the settings submenu opened first. */
async function entryNames(nav: Locator): Promise<string[]> {
  const settings = nav.getByRole('button', { name: 'Ustawienia' });
  if ((await settings.count()) && (await settings.getAttribute('aria-expanded')) === 'false') {
    await settings.click();
  }
  const names = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.textContent?.trim() ?? ''));
  return names.filter(Boolean);
}

/** Opens "Więcej" from the keyboard and answers the drawer. */
async function openMore(page: Page, key: 'Enter' | 'Space' = 'Enter') {
  const more = mainMenu(page).getByRole('button', { name: 'Więcej' });
  await more.focus();
  await page.keyboard.press(key);
  await expect(drawer(page)).toBeVisible();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  return more;
}

/** Everything the sidebar offers on a desktop, as the administrator or a doctor. */
async function desktopEntries(page: Page, path: string) {
  await page.setViewportSize(SIZES.desktop);
  await page.goto(path);
  await expect(mainMenu(page)).toHaveCount(1);
  await expect(mainMenu(page).getByRole('button', { name: 'Więcej' })).toHaveCount(0);
  return entryNames(mainMenu(page));
}

/** The bar's entries and the drawer's, below 1280 px; the drawer closed again. */
async function narrowEntries(page: Page) {
  // The bar replaces the sidebar once the page has seen its new width: read it only then.
  await expect(mainMenu(page).getByRole('button', { name: 'Więcej' })).toBeVisible();
  const bar = await entryNames(mainMenu(page));
  await openMore(page);
  const rest = await entryNames(
    drawer(page).getByRole('navigation', { name: 'Pozostałe pozycje menu' }),
  );
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  return { bar, rest };
}

for (const size of ['narrow', 'phone'] as const) {
  test.describe(`Menu poniżej 1280 px (${SIZES[size].width} px)`, () => {
    test(`the administrator reaches every entry of the desktop menu (${size})`, async ({
      page,
      request,
    }) => {
      await openSignedIn(page, request, '/doctors');
      const desktop = await desktopEntries(page, '/doctors');
      // The whole menu of an administrator, settings' entries included.
      for (const name of [
        'Próbki',
        'Przyjęcie próbek',
        'Alerty bezpieczeństwa',
        'Zaległe wizyty',
      ]) {
        expect(desktop).toContain(name);
      }
      for (const name of ['Zestawy próbek', 'Komunikaty', 'Numer próbki', 'Historia zmian']) {
        expect(desktop).toContain(name);
      }

      await page.setViewportSize(SIZES[size]);
      await expectNoSidewaysScroll(page);
      const { bar, rest } = await narrowEntries(page);
      // The phone's bottom bar: doctors, patients, units; "Więcej" holds the rest.
      expect(bar).toEqual(['Lekarze', 'Pacjenci', 'Jednostki']);
      expect([...bar, ...rest].sort()).toEqual(
        desktop.filter((name) => name !== 'Zmień hasło').sort(),
      );

      // By keyboard: Space opens, the focus stays inside, Escape closes and returns the focus.
      const more = await openMore(page, 'Space');
      await expect(drawer(page).getByRole('link', { name: 'Zmień hasło' })).toBeVisible();
      await expect(drawer(page).getByRole('button', { name: 'Wyloguj się' })).toBeVisible();
      await expect(drawer(page).getByText('Zalogowano jako koordynator')).toBeVisible();
      await expectAccessible(page, `menu: Więcej (${size})`);
      for (let i = 0; i < 40; i += 1) {
        await page.keyboard.press('Tab');
        const inside = await drawer(page).evaluate((node) => node.contains(document.activeElement));
        expect(inside, `focus left the drawer after ${i + 1} Tab presses`).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(drawer(page)).toBeHidden();
      await expect(more).toBeFocused();
      await expect(more).toHaveAttribute('aria-expanded', 'false');

      // An entry of the drawer shows its screen and closes the drawer; "Więcej" is marked.
      await openMore(page);
      await drawer(page).getByRole('link', { name: 'Alerty bezpieczeństwa' }).click();
      await expect(page).toHaveURL(/\/alerts$/);
      await expect(drawer(page)).toBeHidden();
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Alerty');
      await expectAccessible(page, `alerty (${size})`);

      // A settings screen through the submenu, from the keyboard alone.
      await openMore(page);
      const settings = drawer(page).getByRole('button', { name: 'Ustawienia' });
      await settings.focus();
      await page.keyboard.press('Enter');
      await expect(settings).toHaveAttribute('aria-expanded', 'true');
      await drawer(page).getByRole('link', { name: 'Numer próbki' }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/settings\/probe_config$/);
      await expect(drawer(page)).toBeHidden();
      await expectNoSidewaysScroll(page);
    });

    test(`a doctor reaches every own entry (${size})`, async ({ page, request, api }) => {
      const unit = await api.createUnit();
      const { credentials } = await api.readyDoctor(unit.id);
      await openSignedIn(page, request, '/patients', 'doctor', credentials);
      const desktop = await desktopEntries(page, '/patients');
      expect(desktop).toContain('Próbki');

      await page.setViewportSize(SIZES[size]);
      const { bar, rest } = await narrowEntries(page);
      expect(bar).toEqual(['Pacjenci', 'Jednostki', 'Kalendarz jednostki']);
      expect(rest).not.toContain('Lekarze');
      expect([...bar, ...rest].sort()).toEqual(
        desktop.filter((name) => name !== 'Zmień hasło').sort(),
      );

      await openMore(page);
      await expectAccessible(page, `menu lekarza: Więcej (${size})`);
      await drawer(page).getByRole('link', { name: 'Próbki', exact: true }).click();
      await expect(page).toHaveURL(/\/probes$/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Próbki');
    });
  });
}
