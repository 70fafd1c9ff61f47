import type { Page } from '@playwright/test';
import { expect, openSignedIn, PortalApi, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { expectNoSidewaysScroll } from '../layout.js';

const SAVED = 'Zmiany zostały zapisane';
const END_BEFORE_START = 'To pole musi mieć wartość po lub równą czasie rozpoczęcia';
const NOT_DIVIDING = 'Czas pracy w ciągu dnia musi dzielić się bez reszty na wizyty tej długości';

/**
 * The shipped defaults (docs/product-rules.md "Work hours and slots"): 8–16, 30 minutes, visits
 * 2…10 every 28 days.
 */
const DEFAULTS = {
  visit_start_hour: 8,
  visit_end_hour: 16,
  meeting_length_minutes: 30,
  schedule: Array.from({ length: 9 }, (_, i) => ({
    visit: i + 2,
    day: 28 * (i + 1),
    window_days: i === 0 ? 3 : 7,
  })),
};

/**
 * The setting is global and other specs book visits on its grid: every test starts from and
 * leaves the defaults, and what it saves (7–17, 30 minutes) keeps the default hours' slots.
 */
test.beforeEach(async ({ api }) => {
  await api.call('POST', '/settings/visits', { value: DEFAULTS });
});
test.afterEach(async ({ api }) => {
  await api.call('POST', '/settings/visits', { value: DEFAULTS });
});

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const cell = (page: Page, column: string, row: number) => field(page, `${column}, wiersz ${row}`);

async function expectDefaults(page: Page) {
  await expect(field(page, 'Godzina rozpoczęcia')).toHaveValue('8');
  await expect(field(page, 'Godzina zakończenia')).toHaveValue('16');
  await expect(field(page, 'Długość wizyty (minuty)')).toHaveValue('30');
  await expect(page.getByText('Wizyt dziennie: 16')).toBeVisible();
  const rows = page.getByRole('table', { name: 'Harmonogram wizyt badania' }).getByRole('row');
  await expect(rows).toHaveCount(10); // the header and visits 2…10
  await expect(cell(page, 'Numer wizyty', 1)).toHaveValue('2');
  await expect(cell(page, 'Dzień docelowy', 1)).toHaveValue('28');
  await expect(cell(page, 'Okno ± dni', 1)).toHaveValue('3');
  await expect(cell(page, 'Numer wizyty', 9)).toHaveValue('10');
  await expect(cell(page, 'Dzień docelowy', 9)).toHaveValue('252');
}

test.describe('Ustawienia wizyt', () => {
  test('an administrator corrects wrong hours and length, saves, and the values stay', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, '/doctors');
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    // The submenu opens from the keyboard.
    const group = nav.getByRole('button', { name: 'Ustawienia' });
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Wizyty', exact: true })).toBeHidden();
    await group.focus();
    await page.keyboard.press('Enter');
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'Wizyty', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/settings\/visits$/);
    await expect(page.getByRole('heading', { name: 'Ustawienia wizyt' })).toBeVisible();
    await expectDefaults(page);
    await expectAccessible(page, 'ustawienia wizyt');

    // An end before the start.
    await field(page, 'Godzina zakończenia').fill('7');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(field(page, 'Godzina zakończenia')).toHaveAccessibleDescription(END_BEFORE_START);
    await expectAccessible(page, 'ustawienia wizyt: błąd godzin');

    // Ten hours do not split into 45-minute visits.
    await field(page, 'Godzina rozpoczęcia').fill('7');
    await field(page, 'Godzina zakończenia').fill('17');
    await field(page, 'Długość wizyty (minuty)').fill('45');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(field(page, 'Długość wizyty (minuty)')).toHaveAccessibleDescription(NOT_DIVIDING);
    await expect(page.getByText(END_BEFORE_START)).toBeHidden();

    await field(page, 'Długość wizyty (minuty)').fill('30');
    await expect(page.getByText('Wizyt dziennie: 20')).toBeVisible();
    // Two rows added after visit 10, the last one removed again.
    await page.getByRole('button', { name: 'Dodaj wizytę' }).click();
    await page.getByRole('button', { name: 'Dodaj wizytę' }).click();
    await expect(cell(page, 'Numer wizyty', 11)).toHaveValue('12');
    await page.getByRole('button', { name: 'Usuń wiersz 11' }).click();
    await expect(cell(page, 'Numer wizyty', 11)).toHaveCount(0);
    await expect(cell(page, 'Numer wizyty', 10)).toHaveValue('11');
    await expect(cell(page, 'Dzień docelowy', 10)).toHaveValue('280');
    await cell(page, 'Okno ± dni', 10).fill('10');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();

    await page.reload();
    await expect(field(page, 'Godzina rozpoczęcia')).toHaveValue('7');
    await expect(field(page, 'Godzina zakończenia')).toHaveValue('17');
    await expect(field(page, 'Długość wizyty (minuty)')).toHaveValue('30');
    await expect(cell(page, 'Numer wizyty', 10)).toHaveValue('11');
    await expect(cell(page, 'Dzień docelowy', 10)).toHaveValue('280');
    await expect(cell(page, 'Okno ± dni', 10)).toHaveValue('10');
    // The submenu is open on its own screen.
    await expect(
      page
        .getByRole('navigation', { name: 'Menu główne' })
        .getByRole('link', { name: 'Wizyty', exact: true }),
    ).toHaveAttribute('aria-current', 'page');
  });

  test('a schedule out of order is marked on its row', async ({ page, request }) => {
    await openSignedIn(page, request, '/settings/visits');
    await expectDefaults(page);
    await cell(page, 'Dzień docelowy', 2).fill('20');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(cell(page, 'Dzień docelowy', 2)).toHaveAccessibleDescription(
      'Niektóre pola są nieprawidłowe',
    );
    await expectAccessible(page, 'ustawienia wizyt: błąd harmonogramu');
  });

  test('a save over someone else’s loads their version, keeps what was typed, then wins', async ({
    page,
    request,
    api,
  }) => {
    await openSignedIn(page, request, '/settings/visits');
    await expectDefaults(page);
    await field(page, 'Godzina rozpoczęcia').fill('7');
    // Another administrator saves meanwhile.
    await api.call('POST', '/settings/visits', { value: { ...DEFAULTS, visit_end_hour: 17 } });
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(
      page.getByText('Ktoś inny właśnie zmienił ten rekord', { exact: false }),
    ).toBeVisible();
    await expect(field(page, 'Godzina rozpoczęcia')).toHaveValue('7');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    const stored = await api.call<{ data: { value: typeof DEFAULTS } }>('GET', '/settings/visits');
    expect(stored.data.value).toMatchObject({ visit_start_hour: 7, visit_end_hour: 16 });
  });

  test('a doctor has no settings entry and is kept out of the screen', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/units', 'doctor', credentials);
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(nav.getByRole('link', { name: 'Jednostki', exact: true })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Ustawienia' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Wizyty', exact: true })).toHaveCount(0);

    await page.goto('/settings/visits');
    // Sent to the start page (ADR 060).
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Ustawienia wizyt' })).toHaveCount(0);
    // The server refuses the doctor too.
    const { api: asDoctor } = await PortalApi.signIn(request, 'doctor', credentials);
    expect((await asDoctor.send('GET', '/settings/visits')).status()).toBe(403);
  });
});

test.describe('Ustawienia wizyt na telefonie', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the form fits the screen and works from the keyboard', async ({ page, request }) => {
    await openSignedIn(page, request, '/settings/visits');
    await expect(page.getByRole('heading', { name: 'Ustawienia wizyt' })).toBeVisible();
    await expectDefaults(page);
    // Nothing wider than the phone: no sideways scrolling.
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'ustawienia wizyt: telefon');

    await field(page, 'Długość wizyty (minuty)').fill('45');
    await field(page, 'Długość wizyty (minuty)').press('Enter');
    await expect(field(page, 'Długość wizyty (minuty)')).toHaveAccessibleDescription(NOT_DIVIDING);

    // Keyboard only: remove the last row, put the length back, end an hour later, save (Enter).
    await page.getByRole('button', { name: 'Usuń wiersz 9' }).focus();
    await page.keyboard.press('Enter');
    await expect(cell(page, 'Numer wizyty', 9)).toHaveCount(0);
    await field(page, 'Długość wizyty (minuty)').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('30');
    await page.keyboard.press('Shift+Tab');
    await expect(field(page, 'Godzina zakończenia')).toBeFocused();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('17');
    await page.keyboard.press('Enter');
    await expect(page.getByText(SAVED)).toBeVisible();

    await page.reload();
    await expect(field(page, 'Godzina zakończenia')).toHaveValue('17');
    await expect(field(page, 'Długość wizyty (minuty)')).toHaveValue('30');
    await expect(cell(page, 'Numer wizyty', 8)).toHaveValue('9');
    await expect(cell(page, 'Numer wizyty', 9)).toHaveCount(0);
  });
});
