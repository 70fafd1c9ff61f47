import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

/**
 * Settings › Retencja danych (issue 24, ADR 059): no years set says so; with 10 years the dry run
 * lists the seeded patient whose participation ended 12 years ago; the run asks first, shows its
 * progress and leaves the patient anonymised. The setting is global: only this file writes it.
 */
test.describe('Retencja danych', () => {
  test('an administrator sets the years, checks the dry run and anonymises', async ({
    page,
    request,
    api,
  }) => {
    const { retention } = e2eSeed();
    await openSignedIn(page, request, '/doctors');
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await nav.getByRole('button', { name: 'Ustawienia' }).click();
    await nav.getByRole('link', { name: 'Retencja danych', exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/retention$/);
    await expect(page.getByRole('heading', { name: 'Retencja danych' })).toBeVisible();
    await expect(page.getByText('Ustaw okres przechowywania, aby zobaczyć')).toBeVisible();
    await expectAccessible(page, 'retencja: bez ustawienia');

    const years = page.getByRole('textbox', { name: 'Okres przechowywania (lata)' });
    await years.fill('10');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Zmiany zostały zapisane')).toBeVisible();

    const list = page.getByRole('table', { name: 'Próba: pacjenci do anonimizacji' });
    const row = list.getByRole('row').filter({ hasText: 'FDC-E2E-SEED-1940-731' });
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: `#${retention.patient_id}` })).toBeVisible();
    // The dry run shows no identity.
    await expect(list).not.toContainText('Retencyjna');
    await expectAccessible(page, 'retencja: próba');

    // Asked first; cancelling changes nothing.
    await page.getByRole('button', { name: 'Anonimizuj' }).click();
    const dialog = page.getByRole('dialog', { name: /Zanonimizować \d+ pacjentów\?/ });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'retencja: pytanie');
    await dialog.getByRole('button', { name: 'Anuluj' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();

    await page.getByRole('main').getByRole('button', { name: 'Anonimizuj' }).click();
    await page
      .getByRole('dialog', { name: /Zanonimizować/ })
      .getByRole('button', { name: 'Anonimizuj' })
      .click();
    await expect(page.getByText(/Ostatnia anonimizacja zakończona: (\d+) z \1\./)).toBeVisible({
      timeout: 30_000,
    });
    await expect(list.getByRole('row').filter({ hasText: 'FDC-E2E-SEED-1940-731' })).toHaveCount(0);
    await expectAccessible(page, 'retencja: po anonimizacji');

    // The patient keeps the clinical data, not the name.
    const patient = await api.call<{ firstname: string; surname: string; weight: unknown }>(
      'GET',
      `/patients/${retention.patient_id}`,
    );
    expect(patient).toMatchObject({ firstname: 'Anonimizowany', surname: 'Pacjent' });
  });
});
