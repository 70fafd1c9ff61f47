import { randomBytes, randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

const HEADER = [
  'firstname',
  'surname',
  'pesel',
  'address_street',
  'address_building',
  'address_apartment',
  'address_postcode',
  'address_city',
  'phone_number',
  'email',
  'weight',
  'height',
  'project_number',
  'unit_id',
  'doctor_id',
  'group_id',
  'subgroup_id',
  'dose',
  'interval',
  'is_above_18',
  'is_classified',
  'exclusion_criteria_id',
  'medicines',
];

const SUCCESS = 'Import zakończony powodzeniem';
const FAILURE = 'Import nie powiódł się';
const ERROR_INTRO = 'Nie udało się zaimportować niektórych danych:';
const WRONG_TYPE = 'Nieprawidłowy rodzaj pliku';

/** A valid PESEL of a man born in the 1900s, with a random serial so that runs never collide. */
function pesel(year: number, month: number, day: number): string {
  const serial = String(randomInt(0, 1000)).padStart(3, '0');
  const two = (n: number) => String(n).padStart(2, '0');
  const digits = `${two(year % 100)}${two(month)}${two(day)}${serial}1`;
  const weights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

interface Row {
  firstname: string;
  surname: string;
  pesel: string;
}

/** A patients csv in the template's layout, for the seeded import unit and doctor. */
function patientsCsv(rows: Row[]): Buffer {
  const ids = e2eSeed().imports;
  const line = (row: Row) =>
    [
      row.firstname,
      row.surname,
      row.pesel,
      'ul. Piotrkowska',
      '10',
      '',
      '90-001',
      'Łódź',
      '501000111',
      '',
      '80',
      '178',
      // One active patient per project number (ADR 041).
      `FDC-${row.pesel}`,
      ids.unit_id,
      ids.doctor_id,
      ids.group_id,
      ids.subgroup_id,
      ids.dose,
      '',
      '1',
      '1',
      '',
      ids.medicines,
    ].join(',');
  return Buffer.from([HEADER.join(','), ...rows.map(line)].join('\n') + '\n', 'utf8');
}

async function choose(page: Page, name: string, buffer: Buffer, mimeType = 'text/csv') {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).last();

async function waitForToastsToClose(page: Page) {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

const importButtons = (page: Page) => [
  page.getByRole('button', { name: 'Wyczyść dane', exact: true }),
  page.getByRole('button', { name: 'Importuj wyniki', exact: true }),
  page.getByRole('button', { name: 'Importuj dane pacjentów', exact: true }),
];

/**
 * The patients list searched for `tag`: `count` patients, live, or removed by a flush (an
 * administrator sees soft-deleted patients marked "Usunięty"), or none at all.
 */
async function expectPatientsListed(
  page: Page,
  tag: string,
  count: number,
  state: 'live' | 'deleted' = 'live',
) {
  await page.goto('/patients');
  await page.getByRole('searchbox', { name: 'Szukaj' }).fill(tag);
  const rows = page.getByRole('table', { name: 'Pacjenci' }).getByRole('row').filter({
    hasText: tag,
  });
  if (count === 0) await expect(page.getByText('Brak danych')).toBeVisible();
  await expect(rows).toHaveCount(count);
  await expect(rows.filter({ hasText: 'Usunięty' })).toHaveCount(state === 'deleted' ? count : 0);
}

async function openImport(page: Page, request: Parameters<typeof openSignedIn>[1]) {
  await openSignedIn(page, request, '/patients');
  const nav = page.getByRole('navigation', { name: 'Menu główne' });
  await nav.getByRole('link', { name: 'Import danych', exact: true }).click();
  await expect(page).toHaveURL(/\/data_import$/);
  await expect(page.getByRole('heading', { name: 'Import danych', level: 1 })).toBeVisible();
}

test.describe('Import danych', () => {
  test('a good csv of patients is imported, flushed and restored from the batches', async ({
    page,
    request,
  }) => {
    const tag = `Imp${randomBytes(3).toString('hex')}`;
    const name = `pacjenci-${tag}.csv`;
    await openImport(page, request);
    await expectAccessible(page, 'data import');

    await choose(
      page,
      name,
      patientsCsv([
        { firstname: 'Anna', surname: `Nowak${tag}`, pesel: pesel(1961, 4, 12) },
        { firstname: 'Jan', surname: `Kowal${tag}`, pesel: pesel(1955, 11, 3) },
      ]),
    );
    const chosen = page.getByRole('list', { name: 'Wybrane pliki' });
    await expect(chosen.getByRole('listitem')).toHaveCount(1);
    await expect(chosen.getByRole('listitem').first()).toContainText(name);
    await expect(chosen.getByRole('listitem').first()).toContainText(/\d+(,\d)? (B|KB)/);

    await page.getByRole('button', { name: 'Importuj dane pacjentów', exact: true }).click();
    const modal = page.getByRole('dialog', { name: SUCCESS });
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('pacjenci: 2');
    await expectAccessible(page, 'data import, success');
    await modal.getByRole('button', { name: 'OK' }).click();
    await expect(modal).toBeHidden();
    // A successful import empties the picker: the same files are not imported twice by mistake.
    await expect(page.getByText('Nie wybrano plików.')).toBeVisible();

    const batches = page.getByRole('table', { name: 'Importy' });
    const batch = batches.getByRole('row').filter({ hasText: name });
    await expect(batch).toContainText('Dane pacjentów');
    await expect(batch).toContainText('Aktywny');
    await expectPatientsListed(page, tag, 2);

    await page.goto('/data_import');
    await page.getByRole('button', { name: 'Wyczyść dane', exact: true }).click();
    const question = page.getByRole('dialog', {
      name: 'Czy na pewno wyczyścić zaimportowane dane?',
    });
    await expectAccessible(page, 'data import, flush question');
    await question.getByRole('button', { name: 'Wyczyść dane' }).click();
    await expect(toast(page, 'Wyczyszczono zaimportowane dane')).toContainText('pacjenci:');
    await expect(batch).toContainText('Wyczyszczony');
    await expectPatientsListed(page, tag, 2, 'deleted');

    await page.goto('/data_import');
    await waitForToastsToClose(page);
    await batch.getByRole('button', { name: /^Przywróć/ }).click();
    await page
      .getByRole('dialog', { name: 'Czy przywrócić dane tego importu?' })
      .getByRole('button', { name: 'Tak' })
      .click();
    await expect(toast(page, 'Przywrócono: pacjenci: 2.')).toBeVisible();
    await expect(batch).toContainText('Aktywny');
    await expectPatientsListed(page, tag, 2);
  });

  test('a bad file lists every error and imports nothing', async ({ page, request }) => {
    const tag = `Bad${randomBytes(3).toString('hex')}`;
    const name = `pacjenci-${tag}.csv`;
    await openImport(page, request);
    const good = pesel(1970, 1, 20);
    // Row 2 is valid, row 3 has a PESEL with a wrong check digit, row 4 has no surname.
    const badPesel = `${good.slice(0, 10)}${(Number(good[10]) + 1) % 10}`;
    await choose(
      page,
      name,
      patientsCsv([
        { firstname: 'Ewa', surname: `Dobra${tag}`, pesel: good },
        { firstname: 'Olga', surname: `Zla${tag}`, pesel: badPesel },
        { firstname: 'Piotr', surname: '', pesel: pesel(1972, 2, 2) },
      ]),
    );

    // Held until the buttons were seen disabled: the request is still running then.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/data_import/patient_data', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Importuj dane pacjentów', exact: true }).click();
    for (const button of importButtons(page)) await expect(button).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Wybierz pliki', exact: true })).toBeDisabled();
    // Where the request stands: the upload's percent, then the server validating.
    await expect(
      page.getByRole('status').filter({ hasText: /Wysyłanie plików: \d+%|Przetwarzanie…/ }),
    ).toBeVisible();
    release();

    const modal = page.getByRole('dialog', { name: FAILURE });
    await expect(modal).toBeVisible();
    await expect(modal.getByText(ERROR_INTRO)).toBeVisible();
    await expect(modal.getByTestId('import-errors').getByRole('listitem')).toHaveText([
      `${name}, wiersz 3, kolumna pesel: Niepoprawny numer PESEL`,
      `${name}, wiersz 4, kolumna surname: To pole musi być wypełnione`,
    ]);
    await expectAccessible(page, 'data import, errors');
    await modal.getByRole('button', { name: 'OK' }).click();
    for (const button of importButtons(page)) await expect(button).toBeEnabled();
    // The files stay chosen after a refusal, to be removed or fixed.
    const item = page.getByRole('list', { name: 'Wybrane pliki' }).getByRole('listitem');
    await expect(item).toHaveCount(1);
    await page.getByRole('button', { name: `Usuń plik ${name}` }).click();
    await expect(item).toHaveCount(0);

    // A file of another type is refused before it is sent.
    await choose(page, 'notatka.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
    await expect(toast(page, WRONG_TYPE)).toBeVisible();
    await expect(page.getByText('Nie wybrano plików.')).toBeVisible();

    // Not even the valid row was written.
    await expectPatientsListed(page, tag, 0);
  });

  test('a file with no data rows is refused with a message, not imported empty', async ({
    page,
    request,
  }) => {
    const tag = `Pusty${randomBytes(3).toString('hex')}`;
    const name = `naglowek-${tag}.csv`;
    await openImport(page, request);
    // The template's header and nothing under it, as a user saves an untouched template.
    await choose(page, name, patientsCsv([]));
    await page.getByRole('button', { name: 'Importuj dane pacjentów', exact: true }).click();
    const modal = page.getByRole('dialog', { name: FAILURE });
    await expect(modal).toBeVisible();
    await expect(modal.getByTestId('import-errors').getByRole('listitem')).toHaveText([
      `${name}: plik nie zawiera żadnych wierszy danych`,
    ]);
    await expectAccessible(page, 'data import, no data rows');
    await modal.getByRole('button', { name: 'OK' }).click();
    // No batch was made of it.
    await expect(
      page.getByRole('table', { name: 'Importy' }).getByRole('row').filter({ hasText: name }),
    ).toHaveCount(0);
  });

  test('templates download under their names', async ({ page, request }) => {
    await openImport(page, request);
    for (const [label, file] of [
      ['Pobierz szablon: dane pacjentów', 'patient_data.xlsx'],
      ['Pobierz szablon: wyniki', 'results.xlsx'],
    ] as const) {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: label }).click();
      expect((await download).suggestedFilename()).toBe(file);
    }
  });

  test('on a phone the import works and the batches are cards', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const tag = `Tel${randomBytes(3).toString('hex')}`;
    const name = `telefon-${tag}.csv`;
    await openSignedIn(page, request, '/data_import');
    await expect(page.getByRole('heading', { name: 'Import danych', level: 1 })).toBeVisible();
    await choose(
      page,
      name,
      patientsCsv([{ firstname: 'Maria', surname: `Mobilna${tag}`, pesel: pesel(1966, 6, 6) }]),
    );
    await page.getByRole('button', { name: 'Importuj dane pacjentów', exact: true }).click();
    const modal = page.getByRole('dialog', { name: SUCCESS });
    await expect(modal).toContainText('pacjenci: 1');
    await expectAccessible(page, 'data import, phone, success');
    await modal.getByRole('button', { name: 'OK' }).click();
    const cards = page.getByRole('list', { name: 'Importy' });
    await expect(cards.getByRole('listitem').filter({ hasText: name })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'data import, phone');
  });
});
