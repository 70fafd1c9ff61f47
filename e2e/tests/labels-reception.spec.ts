import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';
import { expectNoSidewaysScroll } from '../layout.js';
import { DEVICE, PAUSED_NO_PAPER, READY, fakeBrowserPrint } from '../fake-printer.js';
import type { FakePrinter } from '../fake-printer.js';

async function openReception(page: Page, request: Parameters<typeof openSignedIn>[1]) {
  await openSignedIn(page, request, '/probes/reception', 'doctor', e2eSeed().doctor);
  await expect(page.getByRole('heading', { level: 1, name: 'Przyjęcie próbek' })).toBeVisible();
}

async function scan(page: Page, code: string) {
  const field = page.getByRole('textbox', { name: 'Kod próbki' });
  await expect(field).toBeFocused();
  // A barcode scanner types the code and presses Enter.
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

test.describe('Przyjęcie próbek', () => {
  test('a scan records the arrival, a repeated and an unknown scan warn loudly', async ({
    page,
    request,
  }, testInfo) => {
    const seed = e2eSeed();
    const sample = seed.labels.reception[Math.min(testInfo.retry, 1)]!;
    await openReception(page, request);
    await expectAccessible(page, 'reception, empty');

    // A scanner with Caps Lock on sends the code in lower case: the sample is found all the same.
    await scan(page, sample.code.toLowerCase());
    const status = page.getByRole('status').filter({ hasText: `Przyjęto próbkę ${sample.code}` });
    await expect(status).toBeVisible();
    await expect(status).toContainText('Lucjan Etykietowy');
    const rows = page.getByTestId('reception-scan');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Przyjęta');

    // The same label again: the first scan's time and user, loud.
    await scan(page, sample.code);
    const already = page.getByRole('alert').filter({ hasText: 'została już przyjęta' });
    await expect(already).toBeVisible();
    await expect(already).toContainText(`Próbka ${sample.code} została już przyjęta!`);
    await expect(already).toContainText('Pierwsze skanowanie:');
    await expect(already).toContainText('Lucjan Etykietowy');
    await expect(rows.first()).toContainText('Już przyjęta');

    await scan(page, 'NIE-MA-TAKIEJ-123');
    await expect(
      page.getByRole('alert').filter({ hasText: 'Nieznany kod próbki: NIE-MA-TAKIEJ-123' }),
    ).toBeVisible();
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText('Nieznany kod');
    await expectAccessible(page, 'reception after a warning');

    // A phone: the list and the field stay usable at 375 px.
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(page.getByRole('textbox', { name: 'Kod próbki' })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });
});

test.describe('Drukuj etykiety', () => {
  async function openDialog(page: Page, request: Parameters<typeof openSignedIn>[1]) {
    const { print } = e2eSeed().labels;
    await openReception(page, request);
    await scan(page, print.code);
    const row = page.getByTestId('reception-scan').first();
    await expect(row).toContainText(print.code);
    await row.getByRole('button', { name: 'Drukuj etykiety' }).click();
    const dialog = page.getByRole('dialog', { name: 'Drukuj etykiety' });
    await expect(dialog).toBeVisible();
    return { dialog, code: print.code };
  }

  test('prints ZPL on a ready Zebra printer and downloads the PDF', async ({ page, request }) => {
    const printer: FakePrinter = {
      defaultDevice: DEVICE,
      status: READY,
      written: [],
      unreachable: false,
    };
    await fakeBrowserPrint(page, printer);
    const { dialog, code } = await openDialog(page, request);
    await expect(dialog).toContainText('DOM - WŁO');
    await expect(dialog).toContainText(code);
    const amount = dialog.getByRole('textbox', { name: 'Liczba etykiet' });
    await expect(amount).toHaveValue('1');
    await expectAccessible(page, 'label dialog');

    await amount.fill('11');
    await expect(dialog).toContainText('Liczba etykiet musi być liczbą całkowitą od 0 do 10');
    await expect(dialog.getByRole('button', { name: 'Drukuj na drukarce Zebra' })).toBeDisabled();
    await amount.fill('2');
    await dialog.getByRole('button', { name: 'Drukuj na drukarce Zebra' }).click();
    await expect(
      page.getByText(`Etykiety wysłane do drukarki ${DEVICE.name} (liczba: 2)`),
    ).toBeVisible();
    // The status query first, then the label.
    expect(printer.written[0]).toBe('~HQES');
    const zpl = printer.written[1]!;
    expect(zpl).toContain('^XA');
    expect(zpl).toContain('^CI28');
    expect(zpl).toMatch(new RegExp(`\\^BX[^\\n]*\\^FD${code}\\^FS`));
    // The readable code in one of the printer's fixed-width fonts, whole (ADR 035).
    expect(zpl).toMatch(new RegExp(`\\^A[DF]N,\\d+,\\d+\\^FH\\^FD${code}\\^FS`));
    expect(zpl).toContain('^PQ2,');
    expect(zpl).toContain('^XZ');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Pobierz PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`etykiety-${code}.pdf`);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  test('shows the fixed alerts for each printer problem', async ({ page, request }) => {
    const printer: FakePrinter = {
      defaultDevice: DEVICE,
      status: PAUSED_NO_PAPER,
      written: [],
      unreachable: false,
    };
    await fakeBrowserPrint(page, printer);
    const { dialog } = await openDialog(page, request);
    const printButton = dialog.getByRole('button', { name: 'Drukuj na drukarce Zebra' });
    const alert = dialog.getByRole('alert');

    await printButton.click();
    await expect(alert).toContainText('Drukarka nie jest dostępna (#304)');
    await expect(alert).toContainText('brak papieru (etykiet)');
    await expect(alert).toContainText('drukarka jest wstrzymana (pauza)');
    // Nothing but the status query reached the printer.
    expect(printer.written).toEqual(['~HQES']);
    await expectAccessible(page, 'label dialog with a printer alert');

    printer.defaultDevice = '';
    await printButton.click();
    await expect(alert).toHaveText(/Drukarka nie jest dostępna \(#104\)/);

    printer.defaultDevice = DEVICE;
    printer.status = null;
    await printButton.click();
    await expect(alert).toHaveText(/Drukarka nie jest dostępna \(#204\)/);

    printer.unreachable = true;
    await printButton.click();
    await expect(alert).toContainText('Błąd podczas inicjalizacji wydruku');
  });
});
