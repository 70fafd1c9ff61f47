import type { Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/**
 * A sample code that names its participant (ADR 041): the registration wizard offers the next
 * free project number; the sample dialog says "Rodzaj pojemnika" and questions a DBS card with
 * venous blood.
 */

const SAMPLE_DIALOG = 'Wyślij próbkę do analizy';
const DBS = 'Karta DBS (sucha kropla krwi)';

const sampleDialog = (page: Page) => page.getByRole('dialog', { name: SAMPLE_DIALOG });

for (const { width, height, label } of [
  { width: 1440, height: 900, label: 'komputer' },
  { width: 390, height: 844, label: 'telefon' },
]) {
  test.describe(`Numery uczestników (${label})`, () => {
    test.use({ viewport: { width, height } });

    test('the registration wizard offers the next free project number, editable', async ({
      page,
      request,
      api,
    }) => {
      const unit = await api.createUnit();
      const doctor = await api.createDoctor(unit.id);
      const stamp = Date.now();
      // The latest numbered patient sets the series: the next one is offered.
      await registerPatient(api, doctor, { personal: { project_number: `E${stamp}-041` } });
      const { project_number } = await api.call<{ project_number: string }>(
        'GET',
        '/patients/next_project_number',
      );
      expect(project_number).toBe(`E${stamp}-042`);

      await openSignedIn(page, request, '/patients/create');
      const field = page.getByRole('textbox', { name: 'Numer projektu', exact: true });
      await expect(field).toHaveValue(`E${stamp}-042`);
      await expect(field).toHaveAccessibleDescription(/Proponowany kolejny wolny numer/);
      await field.fill(`E${stamp}-050`);
      await expect(field).toHaveValue(`E${stamp}-050`);
      await expectAccessible(page, 'rejestracja: proponowany numer projektu');
    });

    test('the sample dialog says "Rodzaj pojemnika" and questions a DBS card with venous blood', async ({
      page,
      request,
      api,
    }) => {
      const unit = await api.createUnit();
      const { doctor, credentials } = await api.readyDoctor(unit.id);
      const patient = await registerPatient(api, { id: doctor.id, unit_id: unit.id });
      await openSignedIn(
        page,
        request,
        `/patients/card/${patient.id}?tab=samples`,
        'doctor',
        credentials,
      );
      await page.getByRole('button', { name: 'Dodaj próbkę' }).click();
      const dialog = sampleDialog(page);
      await expect(dialog).toBeVisible();
      const carrier = dialog.getByRole('combobox', { name: 'Rodzaj pojemnika', exact: true });
      await expect(carrier).toBeVisible();
      await expect(dialog.getByText('Przewoźnik')).toHaveCount(0);
      await carrier.click();
      await page.getByRole('option', { name: DBS }).click();
      await expect(dialog.getByRole('radio', { name: 'Żylna' })).toBeChecked();
      await expect(dialog.getByRole('status').filter({ hasText: DBS })).toHaveText(
        `Rodzaj pojemnika „${DBS}” nie jest przeznaczony do materiału „Żylna”. Sprawdź rodzaj pojemnika albo rodzaj materiału.`,
      );
      await expectAccessible(page, 'próbka: pojemnik niepasujący do materiału');

      await dialog.getByRole('button', { name: 'Wyślij' }).click();
      const question = page.getByRole('dialog', {
        name: `Czy na pewno zapisać próbkę z materiałem „Żylna” na „${DBS}”?`,
      });
      await expect(question).toBeVisible();
      await expectAccessible(page, 'próbka: pytanie o pojemnik');
      await question.getByRole('button', { name: 'Anuluj' }).click();
      await expect(question).toBeHidden();
      const none = await api.call<{ data: unknown[] }>('GET', `/patients/${patient.id}/probes`);
      expect(none.data).toEqual([]);

      // Capillary blood fits the card: no warning. Venous again, confirmed, is saved.
      await dialog.getByRole('radio', { name: 'Włośniczkowa' }).check();
      await expect(dialog.getByRole('status').filter({ hasText: DBS })).toHaveCount(0);
      await dialog.getByRole('radio', { name: 'Żylna' }).check();
      await dialog.getByRole('button', { name: 'Wyślij' }).click();
      await question.getByRole('button', { name: 'Tak, zapisz' }).click();
      await expect(dialog).toBeHidden();
      const saved = await api.call<{
        data: { code: string; type_of_material: string; carrier: { name: string } }[];
      }>('GET', `/patients/${patient.id}/probes`);
      expect(saved.data).toHaveLength(1);
      expect(saved.data[0]).toMatchObject({ type_of_material: 'venous', carrier: { name: DBS } });

      // The sample's page names the carrier "Rodzaj pojemnika" too.
      await page.goto(`/probes/${(saved.data[0] as unknown as { id: number }).id}`);
      await expect(page.getByText('Rodzaj pojemnika', { exact: true })).toBeVisible();
      await expect(page.getByText(DBS)).toBeVisible();
      await expectAccessible(page, 'próbka: rodzaj pojemnika');
    });
  });
}
