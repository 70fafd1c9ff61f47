import type { Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { sampleWithResults } from '../dashweb.js';

/** Amlodipine: the drug with a study range for its concentration (6–18 ng/ml). */
const AMLODIPINE = 7;

/** The list's "1–2 z 2" line, or its empty state for none. */
async function expectListTotal(page: Page, total: number) {
  if (total === 0) {
    await expect(page.getByText('Brak danych').first()).toBeVisible();
  } else {
    await expect(page.getByText(new RegExp(`^1–${Math.min(total, 20)} z ${total}$`))).toBeVisible();
  }
}

/** A tile's link: "label: value", the value read from its text. */
async function tileValue(page: Page, label: string) {
  const tile = page.getByRole('link', { name: new RegExp(`^${label}\\s*:\\s*\\d+$`) });
  await expect(tile).toBeVisible();
  const name = (await tile.textContent()) ?? '';
  return { tile, value: Number(/(\d+)$/.exec(name.replace(/\s/g, ''))?.[1]) };
}

test.describe('Pulpit: kafelki prowadzą do przefiltrowanych list', () => {
  test('an administrator follows the tiles of one unit to lists with the same counts', async ({
    page,
    request,
    api,
  }) => {
    // A long walk through five lists, each checked by axe, on a shared 2-core machine.
    test.setTimeout(180_000);
    const unit = await api.createUnit();
    const { doctor } = await api.readyDoctor(unit.id);
    const first = await registerPatient(api, doctor);
    const second = await registerPatient(api, doctor);
    // ALT 200 and amlodipine 30 ng/ml are out of norm; ALT 30 and 10 ng/ml are not.
    await sampleWithResults(api, first, {
      alt: 200,
      concentrations: [{ medicine_id: AMLODIPINE, value: 30 }],
    });
    await sampleWithResults(api, second, {
      alt: 30,
      concentrations: [{ medicine_id: AMLODIPINE, value: 10 }],
    });
    // Another unit's sample counts in neither the tile nor the list.
    const elsewhere = await api.readyDoctor((await api.createUnit()).id);
    await sampleWithResults(api, await registerPatient(api, elsewhere.doctor), { alt: 300 });

    const dashboard = `/dashboard?unit_id=${unit.id}`;
    await openSignedIn(page, request, dashboard);
    await expect(page.getByRole('heading', { level: 1, name: 'Pulpit' })).toBeVisible();

    // Samples: the tile, then the list of the unit with the same count.
    const samples = await tileValue(page, 'Próbki');
    expect(samples.value).toBe(2);
    await expectAccessible(page, 'pulpit jednostki z linkami');
    await samples.tile.click();
    await expect(page).toHaveURL(new RegExp(`/probes\\?unit_id=${unit.id}$`));
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveValue(unit.name);
    await expectListTotal(page, 2);

    // Samples by status: each bar's link.
    await page.goto(dashboard);
    const byStatus = page.getByRole('region', { name: 'Próbki według statusu' });
    await byStatus.getByRole('link', { name: 'Próbki: Wyniki odebrane' }).click();
    await expect(page).toHaveURL(new RegExp(`/probes\\?status=received&unit_id=${unit.id}$`));
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Wyniki odebrane');
    await expectListTotal(page, 2);

    // Out of norm per analyte, the drug concentration among them.
    await page.goto(dashboard);
    const norm = page.getByRole('region', { name: 'Wyniki poza normą według badania' });
    await norm.getByRole('button', { name: /^Pokaż tabelę/ }).click();
    await expect(norm.getByRole('row', { name: /^ALT 50%$/ })).toBeVisible();
    await expect(norm.getByRole('row', { name: /amlodypina \(stężenie\) 50%$/i })).toBeVisible();
    await norm.getByRole('link', { name: 'Poza normą: ALT' }).click();
    await expect(page).toHaveURL(new RegExp(`/probes\\?out_of_norm=alt&unit_id=${unit.id}$`));
    await expect(page.getByRole('combobox', { name: 'Wynik poza normą' })).toHaveValue('ALT');
    await expectListTotal(page, 1);
    await expectAccessible(page, 'próbki poza normą');
    await page.goto(dashboard);
    await page
      .getByRole('region', { name: 'Wyniki poza normą według badania' })
      .getByRole('link', { name: /^Poza normą: amlodypina \(stężenie\)$/i })
      .click();
    await expect(page).toHaveURL(
      new RegExp(`/probes\\?out_of_norm=medicine_${AMLODIPINE}&unit_id=${unit.id}$`),
    );
    await expectListTotal(page, 1);

    // Visits: the week's and the window's tiles open the visits list filtered the same way.
    await page.goto(dashboard);
    const week = await tileValue(page, 'Wizyty w tym tygodniu');
    await week.tile.click();
    await expect(page).toHaveURL(
      new RegExp(`/visits\\?from=\\d{4}-\\d{2}-\\d{2}&to=\\d{4}-\\d{2}-\\d{2}&unit_id=${unit.id}$`),
    );
    await expect(page.getByRole('heading', { level: 1, name: 'Wizyty' })).toBeVisible();
    await expect(page.getByText(/^Dni: \d{2}\.\d{2}\.\d{4} – \d{2}\.\d{2}\.\d{4}$/)).toBeVisible();
    await expectListTotal(page, week.value);
    await expectAccessible(page, 'wizyty tygodnia');
    await page.goto(dashboard);
    const outside = await tileValue(page, 'Wizyty poza oknem');
    await outside.tile.click();
    await expect(page).toHaveURL(new RegExp(`/visits\\?out_of_window=1&unit_id=${unit.id}$`));
    await expect(page.getByRole('combobox', { name: 'Okno wizyty' })).toHaveValue('Poza oknem');
    await expectListTotal(page, outside.value);

    // Open alerts of the unit.
    await page.goto(dashboard);
    const alerts = await tileValue(page, 'Otwarte alerty bezpieczeństwa');
    await alerts.tile.click();
    await expect(page).toHaveURL(new RegExp(`/alerts\\?status=open&unit_id=${unit.id}$`));
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveValue(unit.name);
    await expectListTotal(page, alerts.value);
  });

  // The target is one for the whole study: @study-wide runs it apart from the other tests (ADR 065).
  test(
    'an administrator sets the recruitment target and the chart draws it',
    {
      tag: '@study-wide',
    },
    async ({ page, request, api }) => {
      const unit = await api.createUnit();
      const { doctor } = await api.readyDoctor(unit.id);
      await registerPatient(api, doctor);
      try {
        await openSignedIn(page, request, '/dashboard');
        const nav = page.getByRole('navigation', { name: 'Menu główne' });
        await nav.getByRole('button', { name: 'Ustawienia' }).click();
        await nav.getByRole('link', { name: 'Cel rekrutacji', exact: true }).click();
        await expect(page).toHaveURL(/\/settings\/recruitment_target$/);
        await expect(page.getByRole('heading', { level: 1, name: 'Cel rekrutacji' })).toBeVisible();

        const perUnit = page.getByRole('textbox', { name: 'Pacjentów na jednostkę w miesiącu' });
        await perUnit.fill('2.5');
        await page.getByRole('button', { name: 'Zapisz' }).click();
        await expect(perUnit).toHaveAttribute('aria-invalid', 'true');
        await expect(page.getByText('To pole musi być liczbą')).toBeVisible();
        await expectAccessible(page, 'cel rekrutacji: błąd');

        await perUnit.fill('7');
        await page.getByRole('textbox', { name: 'Pacjentów w całym badaniu' }).fill('');
        await page.getByRole('button', { name: 'Zapisz' }).click();
        await expect(page.getByText('Zmiany zostały zapisane').last()).toBeVisible();
        await page.reload();
        await expect(
          page.getByRole('textbox', { name: 'Pacjentów na jednostkę w miesiącu' }),
        ).toHaveValue('7');
        await expectAccessible(page, 'cel rekrutacji');

        // One unit: 7 a month; the chart's summary says so.
        await page.goto(`/dashboard?unit_id=${unit.id}`);
        await expect(
          page
            .getByRole('region', { name: 'Rekrutacja w miesiącach' })
            .getByText(/Cel: 7 pacjentów na miesiąc\./),
        ).toBeVisible();
      } finally {
        await api.call('POST', '/settings/recruitment_target', {
          value: { per_unit_month: null, total: null },
        });
      }
    },
  );
});
