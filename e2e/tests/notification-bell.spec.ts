import type { Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { sampleWithResults } from '../dashweb.js';

/** The header's bell (the desktop header's first). */
const bell = (page: Page) => page.getByRole('button', { name: /^Powiadomienia/ }).first();

test.describe('Dzwonek powiadomień', () => {
  test('a safety alert of the doctor’s patient rings the bell; reading one lowers the count', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    const first = await registerPatient(api, doctor);
    const second = await registerPatient(api, doctor);
    await openSignedIn(page, request, '/patients', 'doctor', credentials);
    await expect(bell(page)).toHaveAccessibleName('Powiadomienia');

    // Hy's law (ALT > 3 × ULN with bilirubin > 2 × ULN) for two of the doctor's patients,
    // entered through the API as the laboratory's results.
    for (const patient of [first, second]) {
      await sampleWithResults(api, patient, { alt: 250, bilirubine: 3 });
    }

    // The notifications go out with the alerts; the bell asks again on a reload.
    await expect(async () => {
      await page.reload();
      await expect(bell(page)).toHaveAccessibleName('Powiadomienia: 2 nieprzeczytane', {
        timeout: 2_000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId('bell-count').first()).toHaveText('2');

    await bell(page).click();
    const dropdown = page.getByRole('dialog', { name: 'Powiadomienia' });
    await expect(dropdown).toBeVisible();
    const items = dropdown.getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText(
      'Nowy alert bezpieczeństwa pacjenta (nieprzeczytane)',
    );
    await expectAccessible(page, 'dzwonek z nieprzeczytanymi');

    // Reading one opens the alerts and lowers the count.
    await items.first().getByRole('button').click();
    await expect(page).toHaveURL(/\/alerts/);
    await expect(bell(page)).toHaveAccessibleName('Powiadomienia: 1 nieprzeczytane');
    await bell(page).click();
    await expect(
      page.getByRole('dialog', { name: 'Powiadomienia' }).getByText('(nieprzeczytane)'),
    ).toHaveCount(1);
    await expectAccessible(page, 'dzwonek po przeczytaniu');
  });
});
