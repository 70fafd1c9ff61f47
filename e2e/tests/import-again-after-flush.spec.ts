import { randomBytes, randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

/**
 * "Fix the file and import it again" (issue 21 item 11, ADR 032): after "Wyczyść dane" the same
 * PESEL imports again, and restoring the first batch brings back only whom nobody replaced,
 * naming the rest.
 */

const HEADER =
  'firstname,surname,pesel,phone_number,unit_id,doctor_id,group_id,subgroup_id,dose,is_above_18,is_classified,medicines';

/** A valid PESEL of a woman born in the 1900s, with a random serial so that runs never collide. */
function pesel(year: number, month: number, day: number): string {
  const serial = String(randomInt(0, 1000)).padStart(3, '0');
  const two = (n: number) => String(n).padStart(2, '0');
  const digits = `${two(year % 100)}${two(month)}${two(day)}${serial}2`;
  const weights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** Patients in the template's columns (the optional ones left out), for the seeded import unit. */
function patientsCsv(rows: { firstname: string; surname: string; pesel: string }[]): Buffer {
  const ids = e2eSeed().imports;
  const line = (row: { firstname: string; surname: string; pesel: string }) =>
    [
      row.firstname,
      row.surname,
      row.pesel,
      '501000111',
      ids.unit_id,
      ids.doctor_id,
      ids.group_id,
      ids.subgroup_id,
      ids.dose,
      '1',
      '1',
      ids.medicines,
    ].join(',');
  return Buffer.from([HEADER, ...rows.map(line)].join('\n') + '\n', 'utf8');
}

async function importPatients(page: Page, name: string, buffer: Buffer, count: number) {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer });
  await page.getByRole('button', { name: 'Importuj dane pacjentów', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Import zakończony powodzeniem' });
  await expect(modal).toContainText(`pacjenci: ${count}`);
  return modal;
}

async function waitForToastsToClose(page: Page) {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

test.describe('Import po wyczyszczeniu danych', () => {
  test('a corrected file imports again after "Wyczyść dane"; the restore names who stayed deleted', async ({
    page,
    request,
  }) => {
    const tag = `Pon${randomBytes(3).toString('hex')}`;
    const first = `pacjenci-${tag}.csv`;
    const fixed = `pacjenci-${tag}-poprawione.csv`;
    const anna = pesel(1962, 3, 14);
    const jan = pesel(1958, 9, 30);

    await openSignedIn(page, request, '/data_import');
    await expect(page.getByRole('heading', { name: 'Import danych', level: 1 })).toBeVisible();
    // The first file has a typo in Anna's surname.
    const imported = await importPatients(
      page,
      first,
      patientsCsv([
        { firstname: 'Anna', surname: `Nowakk${tag}`, pesel: anna },
        { firstname: 'Jan', surname: `Kowal${tag}`, pesel: jan },
      ]),
      2,
    );
    await imported.getByRole('button', { name: 'OK' }).click();

    await page.getByRole('button', { name: 'Wyczyść dane', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Czy na pewno wyczyścić zaimportowane dane?' })
      .getByRole('button', { name: 'Wyczyść dane' })
      .click();
    const batches = page.getByRole('table', { name: 'Importy' });
    const firstBatch = batches.getByRole('row').filter({ hasText: first });
    await expect(firstBatch).toContainText('Wyczyszczony');

    // The corrected file: the same PESEL is free again, the import succeeds.
    const again = await importPatients(
      page,
      fixed,
      patientsCsv([{ firstname: 'Anna', surname: `Nowak${tag}`, pesel: anna }]),
      1,
    );
    await expectAccessible(page, 'import again after a flush, success');
    await again.getByRole('button', { name: 'OK' }).click();
    await expect(batches.getByRole('row').filter({ hasText: fixed })).toContainText('Aktywny');

    // Restoring the first batch brings Jan back; Anna's first record stays deleted, and why.
    await waitForToastsToClose(page);
    await firstBatch.getByRole('button', { name: /^Przywróć/ }).click();
    await page
      .getByRole('dialog', { name: 'Czy przywrócić dane tego importu?' })
      .getByRole('button', { name: 'Tak' })
      .click();
    const result = page.getByRole('dialog', { name: 'Nie wszystkich pacjentów przywrócono' });
    await expect(result).toBeVisible();
    await expect(result).toContainText('Przywrócono: pacjenci: 1.');
    await expect(result.getByTestId('restore-skipped').getByRole('listitem')).toHaveText([
      `Anna Nowakk${tag}, PESEL ${anna.slice(0, 6)}*****: aktywny pacjent ma ten sam PESEL`,
    ]);
    // The whole PESEL is not shown.
    await expect(result).not.toContainText(anna);
    await expectAccessible(page, 'restore with a patient left deleted');
    await result.getByRole('button', { name: 'OK' }).click();
    await expect(result).toBeHidden();
    await expect(firstBatch).toContainText('Aktywny');

    // The patients list: the corrected Anna and Jan live, the first Anna deleted.
    await page.goto('/patients');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(tag);
    const rows = page.getByRole('table', { name: 'Pacjenci' }).getByRole('row').filter({
      hasText: tag,
    });
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: 'Usunięty' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Usunięty' })).toContainText(`Nowakk${tag}`);
    await expectAccessible(page, 'patients after the restore');
  });
});
