import type { Page } from '@playwright/test';
import { expect, openSignedIn, test, unique } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const REQUIRED = 'To pole musi być wypełnione';
const TOO_LONG = 'Wartość tego pola jest za długa';
const SAVED = 'Zmiany zostały zapisane';

function unitsTable(page: Page) {
  return page.getByRole('table', { name: 'Jednostki' });
}

function unitRow(page: Page, name: string) {
  return unitsTable(page).getByRole('row').filter({ hasText: name });
}

/** Types into the list search; the list follows after its debounce. */
async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Szukaj' }).fill(text);
}

test.describe('Jednostki', () => {
  test('administrator adds a unit through the dialog, with required and length checks', async ({
    page,
    request,
  }) => {
    const name = unique('Poradnia Kardiologiczna');
    await openSignedIn(page, request, '/units');
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();

    await page.getByRole('button', { name: 'Dodaj jednostkę' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nowa jednostka' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'jednostki: nowa jednostka');

    // Submitting the empty form marks all five fields.
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    for (const field of ['Nazwa', 'Ulica', 'Numer budynku', 'Kod pocztowy', 'Miasto']) {
      await expect(
        dialog.getByRole('textbox', { name: field, exact: true }),
      ).toHaveAccessibleDescription(REQUIRED);
    }
    await expect(dialog.getByText(REQUIRED)).toHaveCount(5);
    await expectAccessible(page, 'jednostki: dialog z błędami');

    // The input stops at the 255 characters the server accepts.
    const nameField = dialog.getByRole('textbox', { name: 'Nazwa', exact: true });
    await nameField.fill('x'.repeat(256));
    await expect(nameField).toHaveValue('x'.repeat(255));

    await nameField.fill(name);
    await dialog.getByRole('textbox', { name: 'Ulica', exact: true }).fill('ul. Kilińskiego');
    await dialog.getByRole('textbox', { name: 'Numer budynku', exact: true }).fill('12a');
    await dialog.getByRole('textbox', { name: 'Kod pocztowy', exact: true }).fill('90-012');
    await dialog.getByRole('textbox', { name: 'Miasto', exact: true }).fill('Łódź');
    await dialog.getByRole('button', { name: 'Zapisz' }).click();

    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = unitRow(page, name);
    await expect(row).toBeVisible();
    await expect(row).toContainText('ul. Kilińskiego 12a, 90-012 Łódź');
    await expectAccessible(page, 'jednostki: lista');
    // The toast goes away by itself (6 s).
    await expect(page.getByText(SAVED)).toBeHidden({ timeout: 10_000 });
  });

  test('a name longer than 255 characters is refused with the fixed message', async ({ api }) => {
    // The dialog's input cannot take a 256th character, so the rule is checked where it lives.
    const address = {
      street: 'ul. Piotrkowska',
      building_nr: '1',
      postcode: '90-001',
      city: 'Łódź',
    };
    const res = await api.send('POST', '/units', { name: 'x'.repeat(256), ...address });
    expect(res.status()).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors.name).toEqual([TOO_LONG]);
    // Exactly 255 characters are fine.
    const unit = await api.createUnit('x'.repeat(247) + unique('x'));
    expect(unit.name).toHaveLength(255);
  });

  test('search finds a unit and sorting by name toggles', async ({ page, request, api }) => {
    const tag = unique('Sortowanie');
    await api.createUnit(`${tag} Alfa`);
    await api.createUnit(`${tag} Beta`);
    await openSignedIn(page, request, '/units');

    await search(page, tag);
    await expect(unitsTable(page).getByRole('row')).toHaveCount(3);
    await expect(page.getByText('1–2 z 2')).toBeVisible();

    const header = unitsTable(page).getByRole('columnheader', { name: 'Nazwa' });
    const firstCell = unitsTable(page).getByRole('row').nth(1).getByRole('cell').nth(1);
    await expect(header).toHaveAttribute('aria-sort', 'none');
    await expect(firstCell).toHaveText(`${tag} Beta`); // newest first (id descending)

    await header.getByRole('button', { name: 'Nazwa' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(firstCell).toHaveText(`${tag} Alfa`);

    await header.getByRole('button', { name: 'Nazwa' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(firstCell).toHaveText(`${tag} Beta`);

    // Something nobody has: the list says so.
    await search(page, unique('Nie ma takiej'));
    await expect(page.getByText('Brak danych')).toBeVisible();
    await expect(page.getByText('0–0 z 0')).toBeVisible();
  });

  test('page size offers 10/20/50/100 and the range indicator follows', async ({
    page,
    request,
    api,
  }) => {
    const tag = unique('Stronicowanie');
    for (let i = 1; i <= 11; i += 1) await api.createUnit(`${tag} ${String(i).padStart(2, '0')}`);
    await openSignedIn(page, request, '/units');

    const pageSize = page.getByRole('combobox', { name: 'Liczba wierszy na stronie' });
    await expect(pageSize).toHaveValue('20');
    await expect(pageSize.getByRole('option')).toHaveText(['10', '20', '50', '100']);

    await search(page, tag);
    await expect(page.getByText('1–11 z 11')).toBeVisible();
    await expect(unitsTable(page).getByRole('row')).toHaveCount(12);

    await pageSize.selectOption('10');
    await expect(page.getByText('1–10 z 11')).toBeVisible();
    await expect(unitsTable(page).getByRole('row')).toHaveCount(11);

    await page.getByRole('button', { name: 'Następna strona' }).click();
    await expect(page.getByText('11–11 z 11')).toBeVisible();
    await expect(unitsTable(page).getByRole('row')).toHaveCount(2);
    await expect(unitRow(page, `${tag} 01`)).toBeVisible();
  });

  test('edit changes the name', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const renamed = unique('Przychodnia Przemianowana');
    await openSignedIn(page, request, '/units');
    await search(page, unit.name);

    await unitRow(page, unit.name).getByRole('button', { name: 'Edytuj' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edycja jednostki' });
    const nameField = dialog.getByRole('textbox', { name: 'Nazwa', exact: true });
    await expect(nameField).toHaveValue(unit.name);
    await expect(dialog.getByRole('textbox', { name: 'Miasto', exact: true })).toHaveValue('Łódź');

    // Clearing a required field is caught before saving.
    await nameField.fill('');
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(nameField).toHaveAccessibleDescription(REQUIRED);

    await nameField.fill(renamed);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();

    await search(page, renamed);
    await expect(unitRow(page, renamed)).toBeVisible();
    await expect(unitRow(page, renamed)).toContainText(String(unit.id));
  });

  test('delete asks first, greys the row, and restore brings it back', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    await openSignedIn(page, request, '/units');
    await search(page, unit.name);
    const row = unitRow(page, unit.name);
    await expect(row).toBeVisible();

    // "Nie" keeps the unit.
    await row.getByRole('button', { name: 'Usuń' }).click();
    const confirmDelete = page.getByRole('dialog', {
      name: 'Czy na pewno chcesz usunąć wybrany element?',
    });
    await expect(confirmDelete).toBeVisible();
    await expectAccessible(page, 'jednostki: pytanie o usunięcie');
    await confirmDelete.getByRole('button', { name: 'Nie' }).click();
    await expect(confirmDelete).toBeHidden();
    await expect(row.getByRole('button', { name: 'Usuń' })).toBeVisible();
    await expect(row).not.toHaveAttribute('data-deleted');

    // "Tak" deletes: the row stays, greyed, marked and offering restore.
    await row.getByRole('button', { name: 'Usuń' }).click();
    await confirmDelete.getByRole('button', { name: 'Tak' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(row).toHaveAttribute('data-deleted', 'true');
    await expect(row.getByText('Usunięty')).toBeVisible();
    await expect(row.getByRole('cell').nth(1)).toHaveCSS('font-style', 'italic');
    await expectAccessible(page, 'jednostki: usunięty wiersz');
    await expect(row.getByRole('button', { name: 'Usuń' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Edytuj' })).toHaveCount(0);

    // Restore asks too; "Nie" keeps it deleted, "Tak" restores.
    await row.getByRole('button', { name: 'Przywróć' }).click();
    const confirmRestore = page.getByRole('dialog', {
      name: 'Czy na pewno chcesz przywrócić wybrany element?',
    });
    await expect(confirmRestore).toBeVisible();
    await confirmRestore.getByRole('button', { name: 'Nie' }).click();
    await expect(confirmRestore).toBeHidden();
    await expect(row).toHaveAttribute('data-deleted', 'true');

    await row.getByRole('button', { name: 'Przywróć' }).click();
    await confirmRestore.getByRole('button', { name: 'Tak' }).click();
    await expect(row).not.toHaveAttribute('data-deleted');
    await expect(row.getByRole('button', { name: 'Usuń' })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Przywróć' })).toHaveCount(0);
  });

  test('Enter saves the dialog and Escape closes it without saving', async ({ page, request }) => {
    const name = unique('Poradnia Enter');
    const abandoned = unique('Poradnia Porzucona');
    await openSignedIn(page, request, '/units');

    await page.getByRole('button', { name: 'Dodaj jednostkę' }).click();
    let dialog = page.getByRole('dialog', { name: 'Nowa jednostka' });
    // The dialog starts in its first field.
    await expect(dialog.getByRole('textbox', { name: 'Nazwa', exact: true })).toBeFocused();
    await page.keyboard.type(abandoned);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Dodaj jednostkę' }).click();
    dialog = page.getByRole('dialog', { name: 'Nowa jednostka' });
    await expect(dialog.getByRole('textbox', { name: 'Nazwa', exact: true })).toHaveValue('');
    await dialog.getByRole('textbox', { name: 'Nazwa', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'Ulica', exact: true }).fill('ul. Sienkiewicza');
    await dialog.getByRole('textbox', { name: 'Numer budynku', exact: true }).fill('3');
    await dialog.getByRole('textbox', { name: 'Kod pocztowy', exact: true }).fill('00-015');
    await dialog.getByRole('textbox', { name: 'Miasto', exact: true }).fill('Warszawa');
    await dialog.getByRole('textbox', { name: 'Miasto', exact: true }).press('Enter');
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();

    await search(page, name);
    await expect(unitRow(page, name)).toContainText('ul. Sienkiewicza 3, 00-015 Warszawa');
    await search(page, abandoned);
    await expect(page.getByText('Brak danych')).toBeVisible();
  });
});
