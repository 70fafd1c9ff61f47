import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

/**
 * Answers a reason dialog named other than "Powód zmiany" (a lock's, an unlock's; ADR 048): picks
 * the reason, writes its text when given, and saves. e2e/reason.ts answers the edits' dialog.
 */
export async function giveReasonIn(
  page: Page,
  dialogName: string,
  reason: string,
  text?: string,
): Promise<void> {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Powód', exact: true }).click();
  await page.getByRole('option', { name: reason }).click();
  if (text) await dialog.getByRole('textbox', { name: 'Opis' }).fill(text);
  await dialog.getByRole('button', { name: 'Zapisz zmianę' }).click();
  await expect(dialog).toBeHidden();
}

/** DD.MM.YYYY HH:mm in Warsaw, as the manifestation shows a signature's time: its date part. */
export function warsawToday(): string {
  const parts = new Intl.DateTimeFormat('pl-PL', {
    timeZone: 'Europe/Warsaw',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());
  return parts;
}
