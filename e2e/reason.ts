import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

/**
 * Answers "Powód zmiany", which a change of entered clinical data asks before it is saved
 * (ADR 048): picks the reason and saves the change.
 */
export async function giveReason(page: Page, reason = 'Błąd wprowadzania danych'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Powód zmiany' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Powód', exact: true }).click();
  await page.getByRole('option', { name: reason }).click();
  await dialog.getByRole('button', { name: 'Zapisz zmianę' }).click();
  await expect(dialog).toBeHidden();
}
