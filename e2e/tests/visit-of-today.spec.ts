import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

/*
 * The visit of today (ADR 045): on its day the visits tab offers "Karta wizyty" and, once the
 * visit is recorded, "Zobacz"; a visit that has begun is neither moved nor cancelled, because
 * the server's abilities say so. The seeded visit began at 00:00 today.
 */

const ddmmyyyy = (day: string) => day.split('-').reverse().join('.');
const input = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

const SIZES = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

for (const [size, viewport] of SIZES) {
  test.describe(`Wizyta dzisiaj (${size})`, () => {
    test.use({ viewport });

    test('the doctor opens the card of a begun visit, records the ECG, then sees it', async ({
      page,
      request,
    }) => {
      const seed = e2eSeed();
      const today = seed.visitOfToday[size];
      const name = `Pierwsza wizyta, ${ddmmyyyy(today.date)}`;
      await openSignedIn(
        page,
        request,
        `/patients/card/${today.patient_id}?tab=visits`,
        'doctor',
        seed.doctor,
      );

      // Under way: upcoming, with its card, and neither moved nor cancelled.
      await expect(page.getByRole('tab', { name: 'Nadchodzące (1)' })).toBeVisible();
      const record = page.getByRole('link', { name: `Karta wizyty: ${name}` });
      await expect(record).toBeVisible();
      await expect(page.getByRole('button', { name: `Zmień termin: ${name}` })).toHaveCount(0);
      await expect(page.getByRole('button', { name: `Anuluj wizytę: ${name}` })).toHaveCount(0);
      await expectAccessible(page, `visit of today, ${size}`);

      // The card opens on the record form.
      await record.click();
      await expect(page.getByRole('heading', { level: 1, name: 'Karta wizyty' })).toBeVisible();
      await input(page, 'QT (ms)').fill('400');
      await input(page, 'RR (ms)').fill('1000');
      await input(page, 'PQ (ms)').fill('160');
      await input(page, 'QRS (ms)').fill('90');
      await page.getByRole('switch', { name: 'Wizyta odbyta' }).check();
      await page.getByRole('button', { name: 'Zapisz wizytę' }).click();
      await expect(page.getByText('Wizyta została zapisana')).toBeVisible();
      await expect(page.getByTestId('ecg-qtcfra')).toContainText('400 ms');

      // Recorded: no longer upcoming; "Zobacz" opens the card read-only.
      await page.getByRole('link', { name: 'Wróć do wizyt pacjenta' }).click();
      await expect(page.getByRole('tab', { name: 'Nadchodzące (0)' })).toBeVisible();
      await page.getByRole('tab', { name: 'Minione (1)' }).click();
      const see = page.getByRole('link', { name: `Zobacz: ${name}` });
      await expect(see).toBeVisible();
      await expect(page.getByRole('link', { name: `Karta wizyty: ${name}` })).toHaveCount(0);
      await expect(page.getByRole('button', { name: `Zmień termin: ${name}` })).toHaveCount(0);
      await expect(page.getByText('Odbyta', { exact: true })).toBeVisible();
      await expectAccessible(page, `recorded visit of today, ${size}`);

      await see.click();
      await expect(page.getByRole('heading', { level: 1, name: 'Karta wizyty' })).toBeVisible();
      await expect(page.getByTestId('ecg-qt')).toContainText('400 ms');
      await expect(page.getByRole('button', { name: 'Popraw zapis' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Zapisz wizytę' })).toHaveCount(0);
      await expectAccessible(page, `recorded visit card, read-only, ${size}`);
    });
  });
}
