import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

const SAVED = 'Zmiany zostały zapisane';

async function chooseStatus(page: Page, name: string) {
  await page.getByText(name, { exact: true }).click();
}

/**
 * The whole queue for one screen size: the laboratory's code with a typo is matched to the right
 * sample (searched by its code), its value shows on the sample's page; another result is
 * discarded, the reason required first.
 */
async function resolveBoth(
  page: Page,
  request: Parameters<typeof openSignedIn>[1],
  size: 'desktop' | 'phone',
  expected: {
    analyte: string;
    value: string;
    resultKey: string;
    discardAnalyte: string;
    reason: string;
  },
) {
  const { unmatched } = e2eSeed();
  const seeded = unmatched[size];
  await openSignedIn(page, request, '/lab/unmatched');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Niedopasowane wyniki', exact: true }),
  ).toBeVisible();
  const matchName = `Dopasuj: ${expected.analyte}, kod ${seeded.match.code}`;
  await expect(page.getByRole('button', { name: matchName, exact: true })).toBeVisible();
  await expect(page.getByText(expected.reason).first()).toBeVisible();
  await expectAccessible(page, `unmatched results (${size})`);

  // The raw values unfold.
  await page.getByText('Dane z laboratorium').first().click();
  await expect(page.getByText('OBR-3:').first()).toBeVisible();

  // Match: the laboratory's code has a typo; the right sample is found by its own code.
  await page.getByRole('button', { name: matchName, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Dopasuj wynik do próbki' });
  await expect(dialog).toBeVisible();
  const picker = dialog.getByRole('combobox', { name: 'Próbka' });
  await picker.fill(seeded.probe.code);
  await page
    .getByRole('option', { name: new RegExp(`^${seeded.probe.code} — Laboratoryjny`) })
    .click();
  await expectAccessible(page, `match dialog (${size})`);
  await dialog.getByRole('button', { name: 'Dopasuj', exact: true }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: matchName, exact: true })).toBeHidden();

  // Discard: the reason is required.
  const discardName = `Odrzuć: ${expected.discardAnalyte}, kod ${seeded.discard.code}`;
  await page.getByRole('button', { name: discardName, exact: true }).click();
  const discardDialog = page.getByRole('dialog', { name: 'Odrzuć wynik' });
  await discardDialog.getByRole('button', { name: 'Odrzuć', exact: true }).click();
  await expect(discardDialog.getByText('To pole musi być wypełnione')).toBeVisible();
  await expectAccessible(page, `discard dialog (${size})`);
  const reason = `Wynik z innego badania (${size})`;
  await discardDialog.getByRole('textbox', { name: 'Powód odrzucenia' }).fill(reason);
  await discardDialog.getByRole('button', { name: 'Odrzuć', exact: true }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await expect(page.getByRole('button', { name: discardName, exact: true })).toBeHidden();

  await chooseStatus(page, 'Odrzucone');
  await expect(page.getByText(reason)).toBeVisible();

  // The matched result links to its sample, which now shows the value.
  await chooseStatus(page, 'Dopasowane');
  await expect(page.getByText(seeded.match.code, { exact: true }).first()).toBeVisible();
  await expectAccessible(page, `matched results (${size})`);
  await page.getByRole('link', { name: 'Otwórz próbkę' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/probes/\\d+$`));
  await page.goto(`/probes/${seeded.probe.id}`);
  await expect(page.getByTestId(`result-${expected.resultKey}`)).toContainText(expected.value);
}

test.describe('Niedopasowane wyniki', () => {
  test('desktop: match a result with a mistyped code to its sample, discard another with a reason', async ({
    page,
    request,
  }) => {
    await resolveBoth(page, request, 'desktop', {
      analyte: 'ALT',
      value: '87',
      resultKey: 'alt',
      discardAnalyte: 'Kreatynina',
      reason: 'Brak próbki o tym numerze',
    });
  });

  test.describe('phone', () => {
    test.use({ viewport: { width: 375, height: 812 } });
    test('375 px: cards, the same match and discard', async ({ page, request }) => {
      await resolveBoth(page, request, 'phone', {
        analyte: 'AST',
        value: '65',
        resultKey: 'ast',
        discardAnalyte: 'Bilirubina',
        reason: 'Data urodzenia się nie zgadza',
      });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(375);
    });
  });
});
