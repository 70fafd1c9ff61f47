import { readFile } from 'node:fs/promises';
import { PortalApi, expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';
import { giveReasonIn } from '../signweb.js';

const BANNER = 'Badanie jest zablokowane — dane tylko do odczytu';
const LOCK_REASON = 'Zamknięcie bazy danych E2E';

/**
 * Issue 23 items 3 and 5 on screen (ADRs 048, 049): an administrator locks the study under
 * Settings › "Blokada badania" with a reason and a confirmation; every screen shows the banner, a
 * save is refused with the lock's message; the unlock asks a reason; the audit export downloads
 * the trail with the reason. Other specs share the server: these run after all of them, one at a
 * time (the tag @study-wide, ADR 065), and the study is unlocked at the end, come what may.
 */
test.describe.serial('Blokada badania', { tag: '@study-wide' }, () => {
  test.afterAll(async ({ playwright }) => {
    const request = await playwright.request.newContext();
    const { api } = await PortalApi.signIn(request);
    const state = await api.call<{ locked: boolean }>('GET', '/study/lock');
    if (state.locked) {
      await api.call('POST', '/study/unlock', {
        reason: { code: 'other', text: 'Sprzątanie po teście E2E' },
      });
    }
    await request.dispose();
  });

  test('an administrator locks the study with a reason and a confirmation; the banner shows everywhere and a save is refused', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, '/dashboard');
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await nav.getByRole('button', { name: 'Ustawienia' }).click();
    await nav.getByRole('link', { name: 'Blokada badania', exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/study_lock$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Blokada badania' })).toBeVisible();
    await expect(page.getByTestId('study-lock-state')).toHaveText('Odblokowane');
    await expect(page.getByText(BANNER)).toHaveCount(0);
    await expectAccessible(page, 'study lock, unlocked');

    await page.getByRole('button', { name: 'Zablokuj badanie' }).click();
    await giveReasonIn(page, 'Powód blokady badania', 'Inny', LOCK_REASON);
    const question = page.getByRole('dialog', { name: 'Czy na pewno zablokować badanie?' });
    await expect(question).toBeVisible();
    await expectAccessible(page, 'study lock question');
    await question.getByRole('button', { name: 'Zablokuj badanie' }).click();
    await expect(page.getByText('Badanie zostało zablokowane')).toBeVisible();
    await expect(page.getByTestId('study-lock-state')).toHaveText('Zablokowane');
    await expect(page.getByTestId('study-lock-since')).toContainText('koordynator');
    await expect(page.getByTestId('study-lock-banner')).toContainText(BANNER);
    await expectAccessible(page, 'study lock, locked');

    // A save anywhere: refused with the lock's own message, not a generic error.
    const { overdue } = e2eSeed();
    await page.goto(`/patients/${overdue.patient_id}/visits/${overdue.visit_id}`);
    await expect(page.getByTestId('study-lock-banner')).toContainText(BANNER);
    await page.getByRole('button', { name: 'Edytuj notatki' }).click();
    const notes = page.getByRole('dialog', { name: 'Notatki z wizyty' });
    const editor = notes.getByRole('textbox', { name: 'Treść notatek' });
    await editor.click();
    await editor.pressSequentially('Nie zostanie zapisane');
    await notes.getByRole('button', { name: 'Zapisz notatki' }).click();
    await expect(
      page.getByText(
        'Badanie jest zablokowane — dane tylko do odczytu. Zmiana nie została zapisana.',
      ),
    ).toBeVisible();
  });

  test('a doctor sees the banner too', async ({ page, request }) => {
    const { doctor } = e2eSeed();
    await openSignedIn(page, request, '/patients', 'doctor', doctor);
    await expect(page.getByTestId('study-lock-banner')).toContainText(BANNER);
    await expectAccessible(page, 'patients list with the study lock banner');
  });

  test('the unlock asks a reason; the audit export downloads the trail with the reasons', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, '/settings/study_lock');
    await page.getByRole('button', { name: 'Odblokuj badanie' }).click();
    await giveReasonIn(page, 'Powód odblokowania badania', 'Inny', 'Ponowne otwarcie bazy E2E');
    await page
      .getByRole('dialog', { name: 'Czy na pewno odblokować badanie?' })
      .getByRole('button', { name: 'Odblokuj badanie' })
      .click();
    await expect(page.getByText('Badanie zostało odblokowane')).toBeVisible();
    await expect(page.getByTestId('study-lock-state')).toHaveText('Odblokowane');
    await expect(page.getByTestId('study-lock-banner')).toHaveCount(0);

    await page.goto('/audit_trial');
    await expect(page.getByRole('heading', { level: 1, name: 'Historia zmian' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Eksport PDF' })).toBeVisible();
    await expectAccessible(page, 'audit trail with the export buttons');
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Eksport CSV' }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toBe('audit.csv');
    const text = await readFile(await csv.path(), 'utf8');
    expect(text).toContain(LOCK_REASON);
    expect(text).toContain('Ponowne otwarcie bazy E2E');

    const pdfDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Eksport PDF' }).click();
    const pdf = await pdfDownload;
    expect(pdf.suggestedFilename()).toBe('audit.pdf');
    expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
