import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, patientBody, registerPatient, test } from '../fixtures.js';
import type { PortalApi } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { expectNoSidewaysScroll } from '../layout.js';

function table(page: Page) {
  return page.getByRole('table', { name: 'Pacjenci' });
}

function patientRows(page: Page, text: string) {
  return table(page).getByRole('row').filter({ hasText: text });
}

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Szukaj' }).fill(text);
}

/** Only these surnames are listed (after the list has caught up with search and filters). */
async function expectListed(page: Page, tag: string, surnames: string[]) {
  await expect(patientRows(page, tag)).toHaveCount(surnames.length);
  for (const surname of surnames) await expect(patientRows(page, surname)).toHaveCount(1);
  await expect(page.getByText(`1–${surnames.length} z ${surnames.length}`)).toBeVisible();
}

/** One of the panel's multi-selects: type to narrow, pick the option, close the dropdown. */
async function pick(page: Page, select: Locator, option: string) {
  await select.click();
  await select.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
  await select.press('Escape');
}

/** Marks a patient as having finished the programme (PUT /patients/{id} with the full data). */
async function finish(api: PortalApi, id: number, body: ReturnType<typeof patientBody>) {
  const personal: Record<string, unknown> = { ...body.personal, is_finished: true };
  delete personal.acceptance;
  // The edit names the version it read (a stale one answers 409 conflict).
  const { version } = await api.call<{ version: number }>('GET', `/patients/${id}`);
  await api.call('PUT', `/patients/${id}`, {
    ...body,
    personal,
    version,
    reason: { code: 'entry_error' },
  });
}

test.describe('Lista pacjentów', () => {
  test('search finds patients by surname and by PESEL', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const tag = randomBytes(3).toString('hex');
    const first = await registerPatient(api, doctor, { personal: { surname: `Górska${tag}` } });
    const second = await registerPatient(api, doctor, {
      personal: { surname: `Baran${tag}`, firstname: 'Jan' },
    });
    await openSignedIn(page, request, '/patients');
    await expect(page.getByRole('heading', { name: 'Pacjenci' })).toBeVisible();

    await search(page, tag);
    await expectListed(page, tag, [first.surname, second.surname]);

    await search(page, first.surname);
    await expectListed(page, tag, [first.surname]);
    const row = patientRows(page, first.surname);
    await expect(row).toContainText(`${first.surname} Zofia`);
    await expect(row).toContainText(`PESEL: ${first.pesel}`);
    await expect(row).toContainText('walsartan 160 mg');
    await expect(row).toContainText('hydrochlorotiazyd 12,5 mg');
    await expect(row).toContainText('Nadciśnienie tętnicze');
    await expect(row).toContainText('+48 501 234 567');
    await expect(row).toContainText('ul. Łąkowa 3/12');
    await expectAccessible(page, 'pacjenci: wyszukiwanie');

    await search(page, second.pesel);
    await expectListed(page, tag, [second.surname]);

    // The card button opens the patient's card.
    await patientRows(page, second.surname)
      .getByRole('link', { name: `Karta pacjenta: ${second.surname} Jan` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/patients/card/${second.id}$`));
    await expect(
      page.getByRole('heading', { level: 1, name: `${second.surname} Jan` }),
    ).toBeVisible();
  });

  test('filters by group and subgroup, medicine, doctor and finished participation narrow the list', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctorA = await api.createDoctor(unit.id);
    const doctorB = await api.createDoctor(unit.id, { firstname: 'Tomasz' });
    const tag = randomBytes(3).toString('hex');
    const valsartan = await registerPatient(api, doctorA, {
      personal: { surname: `Walczak${tag}` },
    });
    const statin = await registerPatient(api, doctorA, {
      personal: { surname: `Stasiak${tag}` },
      inclusion: { group_id: 2, subgroup_id: 4, dose: 10 },
      medicines: [{ medicine_id: 7, dose: 5 }],
      additional_medicines: [],
    });
    const finishedBody = patientBody(doctorB, {
      personal: { surname: `Kończak${tag}` },
      inclusion: { group_id: 3, subgroup_id: 7, dose: 100 },
      medicines: [],
    });
    const finished = (
      await api.call<{ patient: { id: number } }>('POST', '/patients', finishedBody)
    ).patient;
    await finish(api, finished.id, finishedBody);
    const all = [valsartan.surname, statin.surname, `Kończak${tag}`];

    await openSignedIn(page, request, '/patients');
    await search(page, tag);
    await expectListed(page, tag, all);

    const toggle = page.getByRole('button', { name: 'Filtry' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expectAccessible(page, 'pacjenci: filtry');
    const panel = page.getByRole('group', { name: 'Filtry' });
    const clear = page.getByRole('button', { name: 'Wyczyść filtry' });

    // One subgroup.
    await pick(page, panel.getByLabel('Grupy i podgrupy'), '1B: walsartan + hydrochlorotiazyd');
    await expectListed(page, tag, [valsartan.surname]);
    await expect(page.getByLabel('Aktywne filtry: 1')).toBeVisible();
    await expectAccessible(page, 'pacjenci: aktywny filtr');
    await clear.click();
    await expectListed(page, tag, all);

    // A whole group.
    await pick(page, panel.getByLabel('Grupy i podgrupy'), 'Cała grupa 2');
    await expectListed(page, tag, [statin.surname]);
    await clear.click();

    // A medicine.
    await pick(page, panel.getByLabel('Leki'), 'amlodypina');
    await expectListed(page, tag, [statin.surname]);
    // Two medicines: patients taking either.
    await pick(page, panel.getByLabel('Leki'), 'walsartan');
    await expectListed(page, tag, [valsartan.surname, statin.surname]);
    await clear.click();

    // A doctor.
    await pick(page, panel.getByLabel('Lekarze'), `${doctorB.surname} Tomasz`);
    await expectListed(page, tag, [`Kończak${tag}`]);
    await clear.click();
    await pick(page, panel.getByLabel('Lekarze'), `${doctorA.surname} ${doctorA.firstname}`);
    await expectListed(page, tag, [valsartan.surname, statin.surname]);
    await clear.click();

    // Finished participation.
    await panel.getByRole('checkbox', { name: 'Zakończył udział w programie' }).check();
    await expectListed(page, tag, [`Kończak${tag}`]);
    // Filters add up: finished and of doctor A is nobody.
    await pick(page, panel.getByLabel('Lekarze'), `${doctorA.surname} ${doctorA.firstname}`);
    await expect(page.getByLabel('Aktywne filtry: 2')).toBeVisible();
    await expect(page.getByText('Brak danych')).toBeVisible();
    await clear.click();
    await expect(clear).toHaveCount(0);
    await expect(
      panel.getByRole('checkbox', { name: 'Zakończył udział w programie' }),
    ).not.toBeChecked();
    await expectListed(page, tag, all);
  });

  test('page size and paging', async ({ page, request, api }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const tag = randomBytes(3).toString('hex');
    for (let i = 0; i < 11; i += 1) {
      await registerPatient(api, doctor, {
        personal: { surname: `Strona${tag}-${String(i + 1).padStart(2, '0')}` },
      });
    }
    await openSignedIn(page, request, '/patients');
    await search(page, tag);
    await expect(patientRows(page, tag)).toHaveCount(11);
    await expect(page.getByText('1–11 z 11')).toBeVisible();

    const size = page.getByRole('combobox', { name: 'Liczba wierszy na stronie' });
    await expect(size).toHaveValue('20');
    await size.selectOption('10');
    await expect(patientRows(page, tag)).toHaveCount(10);
    await expect(page.getByText('1–10 z 11')).toBeVisible();
    // Ordered by number, newest first (ADR 039): the last ten on page 1, the first on page 2.
    await expect(patientRows(page, tag).first()).toContainText(`Strona${tag}-11`);

    await page.getByRole('button', { name: 'Następna strona' }).click();
    await expect(patientRows(page, tag)).toHaveCount(1);
    await expect(patientRows(page, tag)).toContainText(`Strona${tag}-01`);
    await expect(page.getByText('11–11 z 11')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Strona 2' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await page.getByRole('button', { name: 'Strona 1' }).click();
    await expect(patientRows(page, tag)).toHaveCount(10);
    await size.selectOption('50');
    await expect(patientRows(page, tag)).toHaveCount(11);
  });

  test('delete from the card after a confirmation (Nie keeps, Tak deletes) and restore from the list', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    await openSignedIn(page, request, `/patients/card/${patient.id}`);
    const heading = page.getByRole('heading', { level: 1, name: `${patient.surname} Zofia` });
    await expect(heading).toBeVisible();
    const question = page.getByRole('dialog', {
      name: 'Czy na pewno chcesz usunąć dane tego pacjenta?',
    });

    await page.getByRole('button', { name: 'Usuń', exact: true }).click();
    await question.getByRole('button', { name: 'Nie' }).click();
    await expect(question).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/patients/card/${patient.id}$`));
    await expect(page.getByText('Pacjent usunięty')).toHaveCount(0);
    const kept = await api.call<{ deleted_at: string | null }>('GET', `/patients/${patient.id}`);
    expect(kept.deleted_at).toBeNull();

    await page.getByRole('button', { name: 'Usuń', exact: true }).click();
    await question.getByRole('button', { name: 'Tak' }).click();
    await expect(page.getByText('Dane pacjenta zostały usunięte')).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);

    // Listed greyed, with Restore; the card stays readable but offers no changes.
    await search(page, patient.pesel);
    const row = patientRows(page, patient.pesel);
    await expect(row).toHaveAttribute('data-deleted', 'true');
    await expect(row.getByText('Usunięty')).toBeVisible();
    await row.getByRole('link', { name: `Karta pacjenta: ${patient.surname} Zofia` }).click();
    await expect(page.getByText('Pacjent usunięty')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Usuń', exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edytuj' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Wróć do listy pacjentów' }).click();

    await search(page, patient.pesel);
    await row.getByRole('button', { name: 'Przywróć' }).click();
    const restore = page.getByRole('dialog', {
      name: 'Czy na pewno chcesz przywrócić wybrany element?',
    });
    await restore.getByRole('button', { name: 'Tak' }).click();
    await expect(restore).toBeHidden();
    await expect(row).not.toHaveAttribute('data-deleted');
    await expect(row.getByRole('button', { name: 'Przywróć' })).toHaveCount(0);
    await row.getByRole('link', { name: `Karta pacjenta: ${patient.surname} Zofia` }).click();
    await expect(page.getByRole('button', { name: 'Usuń', exact: true })).toBeVisible();
  });

  test("a doctor sees the own unit's patients only; another unit's card is not found", async ({
    page,
    request,
    api,
  }) => {
    const unitA = await api.createUnit();
    const unitB = await api.createUnit();
    const own = await api.readyDoctor(unitA.id);
    const other = await api.readyDoctor(unitB.id);
    const patient = await registerPatient(api, own.doctor);

    await openSignedIn(page, request, '/patients', 'doctor', own.credentials);
    await search(page, patient.surname);
    await expect(patientRows(page, patient.surname)).toHaveCount(1);

    await openSignedIn(page, request, '/patients', 'doctor', other.credentials);
    await expect(page.getByRole('heading', { name: 'Pacjenci' })).toBeVisible();
    await search(page, patient.surname);
    await expect(page.getByText('Brak danych')).toBeVisible();
    await expect(page.getByText('0–0 z 0')).toBeVisible();
    await search(page, patient.pesel);
    await expect(page.getByText('Brak danych')).toBeVisible();

    await page.goto(`/patients/card/${patient.id}`);
    await expect(page.getByText('Nie znaleziono pacjenta.')).toBeVisible();
    await expect(page.getByRole('heading', { name: patient.surname })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Resetuj hasło' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Wróć do listy pacjentów' }).click();
    await expect(page).toHaveURL(/\/patients$/);

    await page.goto(`/patients/${patient.id}/edit`);
    await expect(page.getByText('Nie znaleziono wskazanego elementu.')).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);
  });
});

/**
 * The table fits its area from 1280 px (ADR 039): nothing scrolls sideways and "Karta pacjenta"
 * is in view; below 1280 px the cards. The newest patient comes first and the name opens the card.
 */
test.describe('Lista pacjentów mieści się na ekranie', () => {
  for (const viewport of [
    { width: 1920, height: 1080 },
    { width: 1440, height: 900 },
    { width: 1280, height: 800 },
  ]) {
    test(`the table fits at ${viewport.width} px and the newest patient comes first`, async ({
      page,
      request,
      api,
    }) => {
      await page.setViewportSize(viewport);
      const unit = await api.createUnit();
      const doctor = await api.createDoctor(unit.id);
      const tag = randomBytes(3).toString('hex');
      // Long values everywhere a cell could widen the table.
      await registerPatient(api, doctor, { personal: { surname: `Starsza${tag}` } });
      const newest = await registerPatient(api, doctor, {
        personal: {
          surname: `Konstantynopolitańczykowianeczka-Brzęczyszczykiewicz${tag}`,
          firstname: 'Maria-Magdalena',
          email: `bardzo.dlugi.adres.poczty.elektronicznej.${tag}@przychodnia-kardiologiczna.test`,
          address_street: 'ul. Generała Władysława Andersa i Bohaterów Monte Cassino',
          address_city: 'Kędzierzyn-Koźle',
        },
      });

      // The test's own unit only: another test registering a patient meanwhile would be newer.
      await openSignedIn(page, request, `/patients?unit_id=${unit.id}`);
      const rows = table(page).getByRole('row');
      // Nothing searched: the default order is the newest first.
      await expect(rows.nth(1)).toContainText(newest.surname);
      await expect(table(page).getByRole('columnheader', { name: 'ID' })).toHaveAttribute(
        'aria-sort',
        'descending',
      );
      const row = patientRows(page, newest.surname);
      const card = row.getByRole('link', { name: `Karta pacjenta: ${newest.surname}` });
      await expect(card).toBeInViewport({ ratio: 1 });
      const box = await card.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      // The table is no wider than its area: no sideways scroll inside it or on the page.
      const overflow = await table(page).evaluate((node) => {
        const area = node.parentElement!;
        return node.scrollWidth - area.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoSidewaysScroll(page);
      await expect(row).toContainText('walsartan 160 mg');
      await expect(row).toContainText('Kędzierzyn-Koźle');
      await expectAccessible(page, `pacjenci (${viewport.width} px)`);

      // The medicines' whole list shows in a tooltip on focus.
      await row.getByText(/walsartan 160 mg/).focus();
      await expect(page.getByRole('tooltip')).toContainText('hydrochlorotiazyd 12,5 mg');

      // The patient's name is a link to the card.
      await row
        .getByRole('link', { name: `${newest.surname} Maria-Magdalena`, exact: true })
        .click();
      await expect(page).toHaveURL(new RegExp(`/patients/card/${newest.id}$`));
    });
  }

  test('below 1280 px the cards, newest first, the name a link to the card', async ({
    page,
    request,
    api,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const newest = await registerPatient(api, doctor);
    await openSignedIn(page, request, `/patients?unit_id=${unit.id}`);
    const cards = page.getByRole('list', { name: 'Pacjenci' });
    await expect(cards.getByRole('listitem').first()).toContainText(newest.surname);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'pacjenci (telefon)');
    await cards
      .getByRole('listitem')
      .first()
      .getByRole('link', { name: `${newest.surname} Zofia`, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/patients/card/${newest.id}$`));
  });
});
