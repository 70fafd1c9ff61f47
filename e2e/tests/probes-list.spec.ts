import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

const TITLE = 'Próbki';
/** Every seeded sample's number starts so; other specs' samples never do. */
const SEEDED = 'E2E-PL';

const table = (page: Page) => page.getByRole('table', { name: TITLE });
/** The sample numbers of the table's rows, in order (the number is the second cell). */
const codes = (page: Page) =>
  table(page).getByRole('row').locator('td:nth-child(2)').allTextContents();

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Szukaj' }).fill(text);
}

/** A searchable multi-select: type part of the name, pick, close. */
async function pick(page: Page, select: Locator, option: RegExp, typed: string) {
  await select.click();
  await select.fill(typed);
  await page.getByRole('option', { name: option }).click();
  await select.press('Escape');
}

test.describe('Próbki', () => {
  test('an administrator lists, searches, filters, sorts and opens samples', async ({
    page,
    request,
  }) => {
    const seed = e2eSeed().probeList;
    await openSignedIn(page, request, '/patients');
    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: TITLE, exact: true })
      .click();
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await expect(page).toHaveURL(/\/probes$/);
    for (const header of [
      'Data utworzenia',
      'Numer próbki',
      'Pacjent',
      'Rodzaj materiału',
      'Status przesyłki',
    ]) {
      await expect(table(page).getByRole('columnheader', { name: header })).toBeVisible();
    }

    // Newest first; every unit's samples.
    await search(page, SEEDED);
    await expect
      .poll(() => codes(page))
      .toEqual(['E2E-PL-001', 'E2E-PL-002', 'E2E-PL-004', 'E2E-PL-003']);
    const first = table(page).getByRole('row').nth(1);
    await expect(first).toContainText('Elektrokardiogramowski Edward');
    await expect(first).toContainText('Żylna');
    await expect(first).toContainText(/\d\d\.\d\d\.\d{4} \d\d:\d\d/);
    await expect(first.getByRole('cell').nth(4)).toHaveText('-');
    await expect(table(page).getByRole('row').nth(2)).toContainText('Włośniczkowa');
    await expectAccessible(page, 'probes list');

    // Diacritics are optional.
    await search(page, 'cwiklinski');
    await expect.poll(() => codes(page)).toEqual(['E2E-PL-004']);

    // Sort by number, ascending then descending.
    await search(page, SEEDED);
    const header = table(page).getByRole('columnheader', { name: 'Numer próbki' });
    await header.getByRole('button', { name: 'Numer próbki' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect
      .poll(() => codes(page))
      .toEqual(['E2E-PL-001', 'E2E-PL-002', 'E2E-PL-003', 'E2E-PL-004']);
    await header.getByRole('button', { name: 'Numer próbki' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect
      .poll(() => codes(page))
      .toEqual(['E2E-PL-004', 'E2E-PL-003', 'E2E-PL-002', 'E2E-PL-001']);

    // The patient filter: both of Zenon Zaległy's samples.
    const filters = page.getByRole('region', { name: 'Filtry' });
    await pick(
      page,
      filters.getByRole('combobox', { name: 'Pacjenci' }),
      /^Zaległy Zenon/,
      'zaleg',
    );
    await expect.poll(() => codes(page)).toEqual(['E2E-PL-003', 'E2E-PL-002']);

    // Created today: none of his; cleared, today's sample alone.
    const range = page.getByRole('combobox', { name: 'Data utworzenia' });
    await range.click();
    await page.getByRole('option', { name: 'Dzisiaj', exact: true }).click();
    await expect(page.getByText('Brak danych')).toBeVisible();
    await page.getByRole('button', { name: 'Wyczyść filtry' }).click();
    await expect(range).toHaveValue('Od początku');
    await range.click();
    await page.getByRole('option', { name: 'Dzisiaj', exact: true }).click();
    await expect.poll(() => codes(page)).toEqual(['E2E-PL-001']);

    // The details link opens the sample.
    await table(page).getByRole('link', { name: 'Szczegóły próbki E2E-PL-001' }).click();
    await expect(page).toHaveURL(new RegExp(`/probes/${seed.today.id}$`));
  });

  test("a doctor sees only the own unit's samples", async ({ page, request }) => {
    const seed = e2eSeed();
    await openSignedIn(page, request, '/probes', 'doctor', seed.doctor);
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await search(page, SEEDED);
    await expect.poll(() => codes(page)).toEqual(['E2E-PL-001', 'E2E-PL-002', 'E2E-PL-003']);
    await search(page, 'cwiklinski');
    await expect(page.getByText('Brak danych')).toBeVisible();
  });

  test('on a phone the samples are cards', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openSignedIn(page, request, '/probes');
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await search(page, 'E2E-PL-002');
    const cards = page.getByRole('list', { name: TITLE });
    await expect(cards.getByRole('listitem')).toHaveCount(1);
    await expect(cards).toContainText('Próbka nr E2E-PL-002');
    await expect(cards).toContainText('Zaległy Zenon');
    await expect(cards).toContainText('Włośniczkowa');
    await expect(cards.getByRole('link', { name: 'Szczegóły próbki E2E-PL-002' })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'probes list, phone');
  });
});
