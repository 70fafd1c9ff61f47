import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

const EMPTY = 'Nie wybrano żadnej kolumny raportu';
const NOT_VALID = 'Raport wymaga co najmniej dwóch kolumn';
const DOWNLOAD = 'Pobierz raport (data.xlsx)';

async function openReports(page: Page, request: Parameters<typeof openSignedIn>[1]) {
  await openSignedIn(page, request, '/reports');
  await expect(page.getByRole('heading', { name: 'Generuj raport', level: 1 })).toBeVisible();
}

async function choose(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Kolumny raportu' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
  await page.keyboard.press('Escape');
}

async function sheetOf(download: Download) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await download.path())) as unknown as ExcelJS.Buffer);
  return workbook.worksheets[0]!;
}

test('reports: the column rules, then data.xlsx read back and the ODM export', async ({
  page,
  request,
}) => {
  const seed = e2eSeed();
  await openReports(page, request);
  await expectAccessible(page, 'raporty');

  await page.getByRole('button', { name: DOWNLOAD }).click();
  await expect(page.getByText(EMPTY)).toBeVisible();
  await choose(page, 'Numer próbki');
  await expect(page.getByText(NOT_VALID)).toBeVisible();
  await expect(page.getByText(EMPTY)).toHaveCount(0);
  await expectAccessible(page, 'raporty: jedna kolumna');

  // Chosen second, written first: the file keeps the fixed order.
  await choose(page, 'Numer pacjenta');
  await expect(page.getByText(NOT_VALID)).toHaveCount(0);
  const [report] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: DOWNLOAD }).click(),
  ]);
  expect(report.suggestedFilename()).toBe('data.xlsx');
  const sheet = await sheetOf(report);
  expect(sheet.getRow(1).values).toEqual([undefined, 'Numer pacjenta', 'Numer próbki']);
  const codes: unknown[] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) codes.push(row.getCell(2).value);
  });
  expect(codes).toContain(seed.sampleDetail.code);
  const seeded = codes.indexOf(seed.sampleDetail.code) + 2;
  expect(sheet.getRow(seeded).getCell(1).value).toBe(seed.sampleDetail.patient_id);

  const [odm] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Eksport CDISC ODM' }).click(),
  ]);
  expect(odm.suggestedFilename()).toBe('odm.xml');
  const xml = await readFile(await odm.path(), 'utf8');
  expect(xml).toContain('ODMVersion="1.3.2"');
  expect(xml).toContain(`<SubjectData SubjectKey="${seed.sampleDetail.patient_id}">`);
  expect(xml).toContain(`<ItemData ItemOID="IT.PROBE_CODE" Value="${seed.sampleDetail.code}"/>`);
});

test('reports: a failed download says so in Polish', async ({ page, request }) => {
  await openReports(page, request);
  await page.route('**/api/generate_reports', (route) => route.abort('connectionreset'));
  await page.getByRole('button', { name: 'Wszystkie kolumny' }).click();
  await page.getByRole('button', { name: DOWNLOAD }).click();
  await expect(
    page.getByText('Nie udało się wygenerować raportu. Spróbuj ponownie.'),
  ).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('reports: all columns, fits the screen', async ({ page, request }) => {
    await openReports(page, request);
    await page.getByRole('button', { name: 'Wszystkie kolumny' }).click();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'raporty (telefon)');
    const [report] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: DOWNLOAD }).click(),
    ]);
    const sheet = await sheetOf(report);
    expect(sheet.getRow(1).cellCount).toBe(13);
    expect(sheet.getRow(1).getCell(13).value).toBe('QTcB');
  });
});

test('reports: usable by keyboard alone', async ({ page, request }) => {
  await openReports(page, request);
  const input = page.getByRole('combobox', { name: 'Kolumny raportu' });
  await input.focus();
  // Opens the list, then picks the first two options (Mantine keeps the list open after a pick).
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  // The chosen columns, as the field's pills.
  await expect(page.locator('.mantine-Pill-label')).toHaveText(['Numer pacjenta', 'Numer próbki']);
  await page.keyboard.press('Tab');
  // Past the clear button to the download button.
  const button = page.getByRole('button', { name: DOWNLOAD });
  for (let i = 0; i < 3 && !(await button.evaluate((b) => b === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  const [report] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect((await sheetOf(report)).getRow(1).cellCount).toBe(2);
});
