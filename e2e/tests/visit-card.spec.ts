import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';
import { giveReason } from '../reason.js';
import { expectNoSidewaysScroll } from '../layout.js';

/** A minimal PDF: the server checks the content, not only the name. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const IMPLAUSIBLE = 'Ta wartość jest poza możliwym zakresem';

const ddmmyyyy = (day: string) => day.split('-').reverse().join('.');
const cardPath = () => {
  const { recorded } = e2eSeed();
  return `/patients/${recorded.patient_id}/visits/${recorded.visit_id}`;
};
const ecgRow = (page: Page, parameter: string) => page.getByTestId(`ecg-${parameter}`);
const input = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

async function openCard(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Karta wizyty' })).toBeVisible();
  await expect(page.getByText('Elektrokardiogramowski Edward')).toBeVisible();
}

async function fillEcg(page: Page, values: { qt: string; rr: string; pq: string; qrs: string }) {
  await input(page, 'QT (ms)').fill(values.qt);
  await input(page, 'RR (ms)').fill(values.rr);
  await input(page, 'PQ (ms)').fill(values.pq);
  await input(page, 'QRS (ms)').fill(values.qrs);
}

test.describe('Karta wizyty', () => {
  test('the doctor records a past visit, sees QTcB/QTcF with the flags, and adds, downloads and deletes an ECG file', async ({
    page,
    request,
  }) => {
    const seed = e2eSeed();
    await openSignedIn(page, request, cardPath(), 'doctor', seed.doctor);
    await openCard(page);
    await expect(page.getByText('Pierwsza wizyta')).toBeVisible();
    await expect(page.getByText(ddmmyyyy(seed.recorded.date))).toBeVisible();
    await expect(page.getByText('09:00–09:30')).toBeVisible();
    await expect(page.getByText('Brak próbek')).toBeVisible();
    await expect(page.getByText('Brak plików EKG')).toBeVisible();
    await expectAccessible(page, 'visit card before recording');

    // An absurd value: the server's message on the field, nothing saved.
    await fillEcg(page, { qt: '5000', rr: '640', pq: '230', qrs: '90' });
    await page.getByRole('button', { name: 'Zapisz wizytę' }).click();
    await expect(page.getByText(IMPLAUSIBLE)).toBeVisible();
    await expect(ecgRow(page, 'qt')).toContainText('–');

    await input(page, 'QT (ms)').fill('400');
    await page.getByRole('switch', { name: 'Wizyta odbyta' }).check();
    await page
      .getByRole('textbox', { name: 'Komentarz' })
      .fill('Rytm zatokowy miarowy.\nPQ wydłużone.');
    await page.getByRole('button', { name: 'Zapisz wizytę' }).click();
    await expect(page.getByText('Wizyta została zapisana')).toBeVisible();

    // QTcB = 400/√0.64 = 500, QTcF = 400/∛0.64 = 464: both above 450, PQ 230 above 200.
    await expect(ecgRow(page, 'qtcb')).toContainText('500 ms');
    await expect(ecgRow(page, 'qtcb')).toContainText('poza normą');
    await expect(ecgRow(page, 'qtcfra')).toContainText('464 ms');
    await expect(ecgRow(page, 'qtcfra')).toContainText('poza normą');
    await expect(ecgRow(page, 'pq')).toContainText('poza normą');
    await expect(ecgRow(page, 'rr')).toContainText('640 ms');
    await expect(ecgRow(page, 'rr')).not.toContainText('poza normą');
    await expect(ecgRow(page, 'qrs')).not.toContainText('poza normą');
    await expect(ecgRow(page, 'qtcb')).toContainText('≤ 450 ms');
    await expect(page.getByTestId('visit-comment')).toContainText('PQ wydłużone.');
    await expect(page.getByRole('switch', { name: 'Wizyta odbyta' })).toBeChecked();

    // An ECG file: refused when its content is not what its name says, then a real one.
    let chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Dodaj plik EKG' }).click();
    await (
      await chooser
    ).setFiles({ name: 'zapis.png', mimeType: 'image/png', buffer: Buffer.from('nie obraz') });
    await expect(page.getByText('Nieprawidłowy rodzaj pliku')).toBeVisible();

    chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Dodaj plik EKG' }).click();
    await (
      await chooser
    ).setFiles({ name: 'EKG spoczynkowe – Żółć.pdf', mimeType: 'application/pdf', buffer: PDF });
    const link = page.getByRole('button', { name: 'Pobierz plik EKG spoczynkowe – Żółć.pdf' });
    await expect(link).toBeVisible();
    const download = page.waitForEvent('download');
    await link.click();
    expect((await download).suggestedFilename()).toBe('EKG spoczynkowe – Żółć.pdf');
    await expectAccessible(page, 'visit card recorded, with a file');

    await page.getByRole('button', { name: 'Usuń plik: EKG spoczynkowe – Żółć.pdf' }).click();
    const question = page.getByRole('dialog', {
      name: 'Czy na pewno chcesz usunąć plik EKG spoczynkowe – Żółć.pdf?',
    });
    await question.getByRole('button', { name: 'Tak' }).click();
    await expect(page.getByText('Plik został usunięty')).toBeVisible();
    await expect(page.getByText('Brak plików EKG')).toBeVisible();

    // Back to the patient's visits tab.
    await page.getByRole('link', { name: 'Wróć do wizyt pacjenta' }).click();
    await expect(page).toHaveURL(
      new RegExp(`/patients/card/${seed.recorded.patient_id}\\?tab=visits$`),
    );
  });

  test('a doctor of another unit does not see the visit', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, cardPath(), 'doctor', credentials);
    await expect(page.getByText('Nie znaleziono tej wizyty.')).toBeVisible();
  });
});

test.describe('Karta wizyty na telefonie', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('an administrator records by keyboard on a 375 px screen without sideways scrolling', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, cardPath());
    await openCard(page);
    // Recorded by the desktop test before: the card opens read-only, correcting is asked for.
    await expect(page.getByRole('heading', { name: 'Zapis wizyty' })).toBeVisible();
    const correct = page.getByRole('button', { name: 'Popraw zapis' });
    const correcting = await correct.isVisible();
    if (correcting) await correct.click();
    await fillEcg(page, { qt: '420', rr: '1000', pq: '160', qrs: '100' });
    // Enter in a field submits the form.
    await input(page, 'QRS (ms)').press('Enter');
    // A recorded visit is entered clinical data: its correction asks why (ADR 048).
    if (correcting) await giveReason(page);
    await expect(page.getByText('Wizyta została zapisana')).toBeVisible();
    // RR 1 s: both corrections equal QT, and nothing is out of range.
    await expect(ecgRow(page, 'qtcb')).toContainText('420 ms');
    await expect(ecgRow(page, 'qtcfra')).toContainText('420 ms');
    await expect(page.getByText('poza normą')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'visit card on a phone');
  });
});
