import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, signInThroughUi, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/**
 * Smaller things met in a study day (ADR 039): where a doctor lands, toasts that leave the main
 * buttons free and leave when their step is fixed, drag handles in Polish, the samples list's
 * shipment sort. Announcement previews are walked in announcements.spec.ts (the only file that
 * writes announcements); the time fields in calendar.spec.ts.
 */

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1200, height: 800 },
  { width: 390, height: 844 },
];
const SELECT_INCLUSION = 'Wybierz co najmniej jedno kryterium włączenia';

/** Boxes overlap. */
function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * None of the page's main buttons lies under the toast: its header's actions and a wizard's
 * step buttons (content scrolled under a fixed toast is not what this asks).
 */
async function expectToastCoversNoButton(page: Page, toast: Locator, screen: string) {
  const box = await toast.boundingBox();
  expect(box, screen).not.toBeNull();
  const main = page.getByRole('main');
  const names = /^(Dodaj .*|Dalej|Wstecz|Wyczyść formularz|Zarejestruj pacjenta|Zapisz)$/;
  const controls = main.getByRole('button', { name: names });
  const boxes = await controls.evaluateAll((nodes) =>
    nodes.map((node) => {
      const rect = node.getBoundingClientRect();
      return {
        name: node.textContent?.trim() || node.getAttribute('aria-label') || node.tagName,
        x: rect.x,
        y: rect.y,
        width: rect.width,
        height: rect.height,
      };
    }),
  );
  expect(boxes.length, `main buttons on ${screen}`).toBeGreaterThan(0);
  const covered = boxes.filter((control) => control.width > 0 && overlaps(box!, control));
  expect(
    covered.map((control) => control.name),
    `toast over buttons on ${screen}`,
  ).toEqual([]);
}

test.describe('Drobiazgi dnia badania', () => {
  test('a doctor lands on the dashboard after signing in', async ({ page, api }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await signInThroughUi(page, 'doctor', credentials);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Pulpit' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Pulpit' }),
    ).toHaveAttribute('aria-current', 'page');
    await expectAccessible(page, 'lekarz po zalogowaniu');
  });

  for (const size of SIZES) {
    test(`a validation toast covers no main button and leaves when its step is fixed (${size.width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(size);
      await openSignedIn(page, request, '/patients/create');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.getByRole('button', { name: /Kryteria włączenia$/ }).click();
      await expect(
        page.getByRole('heading', { level: 2, name: /Kryteria włączenia/ }),
      ).toBeVisible();

      // Going on without a subgroup: the warning, over none of the wizard's buttons.
      await page.getByRole('button', { name: 'Dalej' }).click();
      const toast = page.getByRole('alert').filter({ hasText: SELECT_INCLUSION });
      await expect(toast).toBeVisible();
      await page.waitForFunction(() =>
        document.getAnimations().every((animation) => animation.playState !== 'running'),
      );
      await expectToastCoversNoButton(page, toast, `kreator (${size.width} px)`);
      await expectAccessible(page, `kreator: ostrzeżenie (${size.width} px)`);

      // Asked twice, one toast; a subgroup chosen, it leaves at once (long before it would time out).
      await page.getByRole('button', { name: 'Dalej' }).click();
      await expect(toast).toHaveCount(1);
      await page.getByRole('button', { name: /^1B: walsartan \+ hydrochlorotiazyd/ }).click();
      await expect(toast).toHaveCount(0, { timeout: 2_000 });
    });
  }

  for (const size of SIZES) {
    test(`a saved toast covers no main button of a list (${size.width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(size);
      await openSignedIn(page, request, '/units');
      await page.getByRole('button', { name: 'Dodaj jednostkę' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nowa jednostka' });
      const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
      await field('Nazwa').fill(`Poradnia Toastowa ${Date.now()}`);
      await field('Ulica').fill('ul. Zielona');
      await field('Numer budynku').fill('5');
      await field('Kod pocztowy').fill('90-001');
      await field('Miasto').fill('Łódź');
      await dialog.getByRole('button', { name: 'Zapisz' }).click();
      const toast = page.getByRole('alert').filter({ hasText: 'Zmiany zostały zapisane' });
      await expect(toast).toBeVisible();
      await expect(dialog).toBeHidden();
      await page.waitForFunction(() =>
        document.getAnimations().every((animation) => animation.playState !== 'running'),
      );
      await expectToastCoversNoButton(page, toast, `jednostki (${size.width} px)`);
    });
  }

  test('the probe number builder speaks Polish to a screen reader', async ({ page, request }) => {
    await openSignedIn(page, request, '/settings/probe_config');
    const handle = page.getByRole('button', { name: /^Przeciągnij: / }).first();
    await expect(handle).toBeVisible();
    await expect(handle).toHaveAttribute('aria-roledescription', 'element do przeciągnięcia');
    await expect(handle).toHaveAccessibleDescription(/^Aby podnieść element, naciśnij Spację/);
    await expectAccessible(page, 'konfiguracja numeru próbki');
  });

  test('the samples list sorts by shipment status', async ({ page, request }) => {
    await openSignedIn(page, request, '/probes');
    const table = page.getByRole('table', { name: 'Próbki' });
    const header = table.getByRole('columnheader', { name: 'Status przesyłki' });
    await header.getByRole('button', { name: 'Status przesyłki' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await header.getByRole('button', { name: 'Status przesyłki' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expectAccessible(page, 'próbki według statusu przesyłki');

    // A phone chooses the same order in the select.
    await page.setViewportSize({ width: 390, height: 844 });
    const sort = page.getByRole('combobox', { name: 'Sortowanie' });
    await expect(sort.locator('option', { hasText: 'Status przesyłki' })).toHaveCount(2);
  });
});
