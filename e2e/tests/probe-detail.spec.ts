import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';
import { expectNoSidewaysScroll } from '../layout.js';
import { giveReason } from '../reason.js';

const HYS_LAW = "Możliwe polekowe uszkodzenie wątroby (prawo Hy'a)";
const PATIENT = 'Biochemiczna Barbara';

const resultRow = (page: Page, key: string) => page.getByTestId(`result-${key}`);
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

async function openSample(page: Page, code: string) {
  await expect(page.getByRole('heading', { level: 1, name: `Próbka nr ${code}` })).toBeVisible();
}

async function enterResults(
  page: Page,
  values: { alt: string; ast: string; creatine: string; bilirubine: string },
  { correction = false } = {},
) {
  await page.getByRole('button', { name: 'Wprowadź wyniki' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await field(page, 'ALT (U/l)').fill(values.alt);
  await field(page, 'AST (U/l)').fill(values.ast);
  await field(page, 'Kreatynina (mg/dl)').fill(values.creatine);
  await field(page, 'Bilirubina (mg/dl)').fill(values.bilirubine);
  await dialog.getByRole('button', { name: 'Zapisz wyniki' }).click();
  // Results already stored are entered clinical data: correcting them asks why (ADR 048).
  if (correction) await giveReason(page, 'Korekta na podstawie dokumentacji źródłowej');
  // The toast of an earlier save may still show (6 s): the newest one is this save's.
  await expect(page.getByText('Wyniki zostały zapisane').last()).toBeVisible();
  await expect(dialog).toBeHidden();
}

test.describe('Próbka: szczegóły, wyniki i alerty', () => {
  test('basic data, adverse events, results flagged for a woman, a Hy’s-law alert acknowledged, every change in the audit trail', async ({
    page,
    request,
  }) => {
    const { sampleDetail } = e2eSeed();
    await openSignedIn(page, request, `/probes/${sampleDetail.probe_id}`);
    await openSample(page, sampleDetail.code);

    const basic = page.getByTestId('probe-basic');
    await expect(page.getByTestId('probe-status')).toHaveText('Pobrana');
    await expect(basic).toContainText(sampleDetail.code);
    await expect(basic).toContainText('Biochemia');
    await expect(basic).toContainText('Żylna');
    await expect(basic).toContainText('Poradnia');
    await expect(basic.getByRole('link', { name: `Karta pacjenta: ${PATIENT}` })).toBeVisible();
    await expect(page.getByTestId('probe-additional')).toContainText('Wiktor Wizytowy');
    await expect(page.getByTestId('probe-additional')).toContainText('ul. Banacha 1a');
    await expect(page.getByTestId('probe-adverse-events')).toHaveText(
      '- brak zdarzeń niepożądanych -',
    );
    await expect(resultRow(page, 'alt')).toContainText('8–41 U/l');
    await expect(resultRow(page, 'bilirubine')).toContainText('< 1,2 mg/dl');
    await expectAccessible(page, 'sample detail before results');

    // Adverse events through the rich-text dialog.
    await page
      .getByRole('region', { name: 'Zdarzenia niepożądane' })
      .getByRole('button', { name: 'Edytuj' })
      .click();
    const editor = page.getByRole('textbox', { name: 'Opis zdarzeń niepożądanych' });
    await editor.click();
    await page.keyboard.type('Zawroty głowy po pobraniu krwi.');
    await page.getByRole('dialog').getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Zdarzenia niepożądane zostały zapisane')).toBeVisible();
    await expect(page.getByTestId('probe-adverse-events')).toHaveText(
      'Zawroty głowy po pobraniu krwi.',
    );

    // A minus sign and letters never reach the field.
    await page.getByRole('button', { name: 'Wprowadź wyniki' }).click();
    await field(page, 'ALT (U/l)').pressSequentially('-1x2');
    await expect(field(page, 'ALT (U/l)')).toHaveValue('12');
    await expectAccessible(page, 'results dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Anuluj' }).click();

    // ALT 55 U/l is above a woman's 8–41 (a man's range would hold it).
    await enterResults(page, { alt: '55', ast: '20', creatine: '0,7', bilirubine: '0,5' });
    await expect(resultRow(page, 'alt')).toContainText('55 U/l');
    await expect(resultRow(page, 'alt')).toContainText('poza normą');
    await expect(resultRow(page, 'ast')).not.toContainText('poza normą');
    await expect(resultRow(page, 'creatine')).toContainText('0,7 mg/dl');
    await expect(page.getByTestId('probe-status')).toHaveText('Wyniki odebrane');
    await expect(page.getByText('Zakresy referencyjne dla kobiet.')).toBeVisible();

    // ALT above 3 × ULN with bilirubin above 2 × ULN: Hy's law.
    await enterResults(
      page,
      { alt: '200', ast: '30', creatine: '0,7', bilirubine: '3' },
      { correction: true },
    );
    await expect(resultRow(page, 'bilirubine')).toContainText('poza normą');

    // The banner on the patient's card, with a link back to the sample.
    await basic.getByRole('link', { name: `Karta pacjenta: ${PATIENT}` }).click();
    const banner = page.getByTestId('patient-alerts-banner');
    await expect(banner).toContainText(HYS_LAW);
    await expect(banner).toContainText('ALT (U/l): 200');
    await expect(banner.getByRole('link', { name: 'Próbka' })).toHaveAttribute(
      'href',
      `/probes/${sampleDetail.probe_id}`,
    );
    await expectAccessible(page, 'patient card with an open alert');

    // The alerts list: open by default, acknowledged with a comment.
    await page.goto('/alerts');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Alerty bezpieczeństwa' }),
    ).toBeVisible();
    const table = page.getByRole('table', { name: 'Alerty bezpieczeństwa' });
    const row = table.getByRole('row').filter({ hasText: PATIENT });
    await expect(row).toContainText(HYS_LAW);
    await expectAccessible(page, 'alerts list');
    await row.getByRole('button', { name: `Potwierdź: ${HYS_LAW}, ${PATIENT}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Potwierdzenie alertu' });
    await dialog.getByRole('textbox', { name: 'Komentarz' }).fill('Pacjentka wezwana na kontrolę.');
    await dialog.getByRole('button', { name: 'Potwierdź' }).click();
    await expect(page.getByText('Alert został potwierdzony')).toBeVisible();
    await expect(row).toHaveCount(0);
    await page.getByText('Potwierdzone', { exact: true }).click();
    await expect(row).toContainText('Pacjentka wezwana na kontrolę.');

    // The banner is gone from the card.
    await page.goto(`/patients/card/${sampleDetail.patient_id}`);
    await expect(page.getByRole('heading', { level: 1, name: PATIENT })).toBeVisible();
    await expect(page.getByTestId('patient-alerts-banner')).toHaveCount(0);

    // The audit trail: the ALT correction with the old and the new value, the adverse events
    // and the acknowledgement.
    await page.goto('/audit_trial');
    await expect(page.getByRole('heading', { name: 'Historia zmian' })).toBeVisible();
    const picker = page.getByRole('region', { name: 'Filtry' }).getByLabel('Pacjenci');
    await picker.click();
    await picker.fill('Biochemiczna');
    await page.getByRole('option', { name: new RegExp(`^${PATIENT}`) }).click();
    await picker.press('Escape');
    await page.getByRole('combobox', { name: 'Liczba wierszy na stronie' }).selectOption('100');
    const audit = page.getByRole('table', { name: 'Historia zmian' }).getByRole('row');
    const altChange = audit
      .filter({ hasText: 'Próbki' })
      .filter({ has: page.getByRole('cell', { name: 'ALT', exact: true }) })
      .filter({ hasText: '200' });
    await expect(altChange.getByRole('cell').nth(5)).toHaveText('55');
    await expect(altChange.getByRole('cell').nth(6)).toHaveText('200');
    await expect(
      audit.filter({ hasText: 'Zdarzenia niepożądane' }).filter({ hasText: 'Zawroty głowy' }),
    ).not.toHaveCount(0);
    await expect(
      audit.filter({ hasText: 'Komentarz do potwierdzenia' }).filter({ hasText: 'kontrolę' }),
    ).not.toHaveCount(0);
  });

  test('the sample page on a phone', async ({ page, request }) => {
    const { sampleDetail } = e2eSeed();
    await page.setViewportSize({ width: 375, height: 740 });
    await openSignedIn(page, request, `/probes/${sampleDetail.probe_id}`);
    await openSample(page, sampleDetail.code);
    await expect(page.getByRole('button', { name: 'Wprowadź wyniki' })).toBeVisible();
    // Nothing wider than the screen.
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'sample detail on a phone');
    // Opened directly: back leads to the sample list.
    await page.getByRole('button', { name: 'Wróć' }).click();
    await expect(page).toHaveURL(/\/probes$/);
    await page.goto('/alerts');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Alerty bezpieczeństwa' }),
    ).toBeVisible();
    await expectAccessible(page, 'alerts on a phone');
  });

  test('results from the laboratory: "< 0,5" below the detection limit and its comments', async ({
    page,
    request,
  }) => {
    const { sampleDetail } = e2eSeed();
    await openSignedIn(page, request, `/probes/${sampleDetail.hl7_probe_id}`);
    await openSample(page, sampleDetail.hl7_code);
    await expect(page.getByTestId('probe-status')).toHaveText('Wyniki odebrane');
    await expect(resultRow(page, 'bilirubine')).toContainText('< 0,5 mg/dl');
    // Below the detection limit, under the laboratory's "< 1,2": in norm.
    await expect(resultRow(page, 'bilirubine')).not.toContainText('poza normą');
    await expect(resultRow(page, 'bilirubine')).toContainText('< 1,2 mg/dl');
    await expect(resultRow(page, 'alt')).toContainText('23,5 U/l');
    const comments = page.getByRole('region', { name: 'Uwagi laboratorium' });
    await expect(
      comments.getByRole('heading', { level: 2, name: 'Uwagi laboratorium' }),
    ).toBeVisible();
    await expect(comments).toContainText('Próbka lekko zhemolizowana.');
    await expect(comments).toContainText('Wynik potwierdzono.');
    await expect(page.getByTestId('lab-comment-bilirubine')).toContainText('Bilirubina');
    await expect(page.getByTestId('lab-comment-bilirubine')).toContainText(
      'Wynik poniżej granicy oznaczalności.',
    );
    await expectAccessible(page, 'sample detail with laboratory results and comments');
  });
});
