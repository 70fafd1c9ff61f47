import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

const UPLOADED = 'Plik został przesłany';
const WRONG_TYPE = 'Nieprawidłowy rodzaj pliku';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
/** A Windows program's first bytes: what an .exe renamed .pdf carries. */
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(120, 0)]);

const PANELS = [
  { panel: 'doctor', menu: 'Dokumenty lekarza', title: 'Dokumenty panelu lekarza' },
  { panel: 'patient', menu: 'Dokumenty pacjenta', title: 'Dokumenty panelu pacjenta' },
] as const;

const suffix = () => randomBytes(3).toString('hex');

async function choose(page: Page, name: string, buffer: Buffer, mimeType: string) {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
}

/** The newest toast with this text (earlier ones may still show). */
const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).last();

/** Waits until the toasts have closed by themselves (6 s): clicking a leaving one is flaky. */
async function waitForToastsToClose(page: Page) {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

async function expectDownload(page: Page, name: string) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Pobierz plik ${name}`, exact: true }).click();
  expect((await download).suggestedFilename()).toBe(name);
}

test.describe('Dokumenty paneli', () => {
  for (const { panel, menu, title } of PANELS) {
    test(`an administrator uploads, downloads and deletes the ${panel} panel's documents`, async ({
      page,
      request,
    }) => {
      const pdfName = `Regulamin badania ${suffix()}.pdf`;
      const txtName = `Instrukcja – żółć ${suffix()}.txt`;
      await openSignedIn(page, request, '/doctors');
      const nav = page.getByRole('navigation', { name: 'Menu główne' });
      await nav.getByRole('button', { name: 'Ustawienia' }).click();
      await nav.getByRole('link', { name: menu, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/settings/documents/${panel}$`));
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
      await expectAccessible(page, `${panel} documents`);

      await choose(page, pdfName, PDF, 'application/pdf');
      await expect(toast(page, UPLOADED)).toBeVisible();
      await choose(page, txtName, Buffer.from('Zażółć gęślą jaźń.\n'), 'text/plain');
      const table = page.getByRole('table', { name: title });
      await expect(table.getByRole('row').filter({ hasText: txtName })).toBeVisible();
      await expect(table.getByRole('row').filter({ hasText: pdfName })).toBeVisible();
      // Newest first.
      await expect(table.getByRole('row').nth(1)).toContainText(txtName);
      await expectDownload(page, txtName);

      const rows = await table.getByRole('row').count();
      // An exe renamed .pdf: the server looks at the content.
      await choose(page, `wirus ${suffix()}.pdf`, EXE, 'application/pdf');
      await expect(toast(page, WRONG_TYPE)).toBeVisible();
      // A Word file: refused before it is sent.
      await choose(
        page,
        'notatka.docx',
        Buffer.from('PK\x03\x04'),
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      );
      await expect(toast(page, WRONG_TYPE)).toBeVisible();
      await expectAccessible(page, `${panel} documents, wrong type`);
      // Nothing was stored.
      await expect(table.getByRole('row')).toHaveCount(rows);

      // Toasts under the question's overlay would be measured through it: gone first.
      await waitForToastsToClose(page);
      await page.getByRole('button', { name: `Usuń dokument: ${pdfName}`, exact: true }).click();
      const question = page.getByRole('dialog', {
        name: `Czy na pewno chcesz usunąć dokument ${pdfName}?`,
      });
      await expectAccessible(page, `${panel} documents, delete question`);
      await question.getByRole('button', { name: 'Tak' }).click();
      await expect(toast(page, 'Dokument został usunięty')).toBeVisible();
      await expect(table.getByRole('row').filter({ hasText: pdfName })).toHaveCount(0);
      await expect(table.getByRole('row').filter({ hasText: txtName })).toBeVisible();
    });
  }

  test('on a phone the documents are cards and the upload works', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const name = `Telefon ${suffix()}.txt`;
    await openSignedIn(page, request, '/settings/documents/patient');
    await expect(page.getByRole('heading', { name: 'Dokumenty panelu pacjenta' })).toBeVisible();
    await choose(page, name, Buffer.from('Z telefonu.\n'), 'text/plain');
    await expect(toast(page, UPLOADED)).toBeVisible();
    const cards = page.getByRole('list', { name: 'Dokumenty panelu pacjenta' });
    await expect(cards.getByRole('listitem').filter({ hasText: name })).toBeVisible();
    await expectDownload(page, name);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'patient documents, phone');
  });

  test("a doctor reads and downloads the doctor panel's documents, without settings", async ({
    page,
    request,
  }) => {
    const seed = e2eSeed();
    await openSignedIn(page, request, '/patients', 'doctor', seed.doctor);
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(nav.getByRole('button', { name: 'Ustawienia' })).toHaveCount(0);
    await nav.getByRole('link', { name: 'Dokumenty', exact: true }).click();
    await expect(page).toHaveURL(/\/documents$/);
    await expect(page.getByRole('heading', { name: 'Dokumenty', exact: true })).toBeVisible();
    const table = page.getByRole('table', { name: 'Dokumenty' });
    await expect(
      table.getByRole('row').filter({ hasText: seed.documents.doctor_document.name }),
    ).toBeVisible();
    // Read only: nothing to upload or delete.
    await expect(page.locator('input[type="file"]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Usuń dokument/ })).toHaveCount(0);
    await expectDownload(page, seed.documents.doctor_document.name);
    await expectAccessible(page, 'documents, doctor');

    // The settings screens stay closed to a doctor.
    await page.goto('/settings/documents/patient');
    await expect(page.getByRole('heading', { name: 'Dokumenty panelu pacjenta' })).toHaveCount(0);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/documents');
    const cards = page.getByRole('list', { name: 'Dokumenty' });
    await expect(
      cards.getByRole('listitem').filter({ hasText: seed.documents.doctor_document.name }),
    ).toBeVisible();
    await expectAccessible(page, 'documents, doctor, phone');
  });

  test('every settings entry of the menu opens a working screen', async ({ page, request }) => {
    await openSignedIn(page, request, '/doctors');
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await nav.getByRole('button', { name: 'Ustawienia' }).click();
    const entries = [
      ['Wizyty', '/settings/visits'],
      ['Numer próbki', '/settings/probe_config'],
      ['Dokumenty lekarza', '/settings/documents/doctor'],
      ['Dokumenty pacjenta', '/settings/documents/patient'],
      ['Integracja z laboratorium', '/settings/synevo'],
      ['Numery telefonów', '/settings/phone'],
    ] as const;
    for (const [label, path] of entries) {
      const link = nav.getByRole('link', { name: label, exact: true });
      if (!(await link.isVisible())) await nav.getByRole('button', { name: 'Ustawienia' }).click();
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // No failure in the screen itself (the laboratory's last-error toast lives outside it).
      await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    }
    // An administrator manages the doctor panel there: no separate reading screen.
    await expect(nav.getByRole('link', { name: 'Dokumenty', exact: true })).toHaveCount(0);
  });
});
