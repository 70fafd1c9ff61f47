import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import {
  expect,
  openSignedIn,
  patientBody,
  PortalApi,
  registerPatient,
  test,
} from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { giveReason } from '../reason.js';

function auditRows(page: Page) {
  return page.getByRole('table', { name: 'Historia zmian' }).getByRole('row');
}

/** A searchable multi-select of the filters: type (part of the name), pick, close. */
async function pick(page: Page, select: Locator, option: string, typed = option) {
  await select.click();
  await select.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
  await select.press('Escape');
}

async function chooseRange(page: Page, option: string) {
  const select = page.getByRole('combobox', { name: 'Zakres dat' });
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(select).toHaveValue(option);
}

test.describe('Historia zmian', () => {
  test('a surname changed in the edit wizard is listed with who, where, the column and both values; patient and date filters', async ({
    page,
    request,
    api,
  }) => {
    const { admin, credentials } = await api.readyAdmin();
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const surname = `Zmieniona-${randomBytes(3).toString('hex')}`;

    await openSignedIn(page, request, `/patients/${patient.id}/edit`, 'admin', credentials);
    const surnameField = page.getByRole('textbox', { name: 'Nazwisko', exact: true });
    await expect(surnameField).toHaveValue(patient.surname);
    await surnameField.fill(surname);
    await page.getByRole('button', { name: 'Zapisz' }).click();
    // A qualified patient's data is entered clinical data: the change asks for its reason.
    await giveReason(page);
    await expect(page.getByText('Zmiany zostały zapisane')).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);

    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: 'Historia zmian' })
      .click();
    await expect(page).toHaveURL(/\/audit_trial$/);
    await expect(page.getByRole('heading', { name: 'Historia zmian' })).toBeVisible();
    for (const header of [
      'Data zmiany',
      'Kto zmienił',
      'Pacjent',
      'Miejsce zmiany',
      'Dane',
      'Poprzednia wartość',
      'Nowa wartość',
    ]) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }

    const filters = page.getByRole('region', { name: 'Filtry' });
    const patientOption = `${surname} Zofia (${patient.pesel})`;
    // The patient picker searches the server as one types: part of the surname is enough.
    await pick(page, filters.getByLabel('Pacjenci'), patientOption, surname.slice(0, -2));

    // Only this patient's entries: the registration and the change.
    const change = auditRows(page).filter({ hasText: 'zmiana' }).filter({ hasText: 'Nazwisko' });
    await expect(change).toHaveCount(1);
    const cells = change.getByRole('cell');
    await expect(cells.nth(0)).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    await expect(cells.nth(1)).toHaveText(admin.login);
    await expect(cells.nth(2)).toHaveText(`${surname} Zofia`);
    await expect(cells.nth(3)).toContainText('Dane pacjenta');
    await expect(cells.nth(3)).toContainText('zmiana');
    await expect(cells.nth(4)).toHaveText('Nazwisko');
    await expect(cells.nth(5)).toHaveText(patient.surname);
    await expect(cells.nth(6)).toHaveText(surname);
    await expectAccessible(page, 'historia zmian');
    // Every entry listed belongs to the patient.
    const rows = auditRows(page).filter({ has: page.getByRole('cell') });
    await expect(
      rows.filter({ hasNot: page.getByRole('link', { name: `Karta pacjenta: ${surname} Zofia` }) }),
    ).toHaveCount(0);
    // The registration wrote the first surname (among many entries: all on one page).
    await page.getByRole('combobox', { name: 'Liczba wierszy na stronie' }).selectOption('100');
    await expect(
      auditRows(page)
        .filter({ hasText: 'dodanie' })
        .filter({ hasText: 'Nazwisko' })
        .getByRole('cell')
        .nth(6),
    ).toHaveText(patient.surname);

    // Today keeps the entry, yesterday has none, from the beginning brings it back.
    await chooseRange(page, 'Dzisiaj');
    await expect(change).toHaveCount(1);
    await chooseRange(page, 'Wczoraj');
    await expect(page.getByText('Brak danych')).toBeVisible();
    await expect(change).toHaveCount(0);
    await chooseRange(page, 'Ostatnie 7 dni');
    await expect(change).toHaveCount(1);

    // Clearing the filters goes back to everyone's entries from the beginning.
    await page.getByRole('button', { name: 'Wyczyść filtry' }).click();
    await expect(page.getByRole('combobox', { name: 'Zakres dat' })).toHaveValue('Od początku');
    await expect(filters.getByText(patientOption)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Wyczyść filtry' })).toHaveCount(0);
    await expect(rows.first()).toBeVisible();

    // The patient's name leads to the card (found by the PESEL this time).
    await pick(page, filters.getByLabel('Pacjenci'), patientOption, patient.pesel);
    await change.getByRole('link', { name: `Karta pacjenta: ${surname} Zofia` }).click();
    await expect(page).toHaveURL(new RegExp(`/patients/card/${patient.id}$`));
  });

  test('the patient filter is operated by keyboard alone: type, arrow, Enter, Backspace', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const option = `${patient.surname} Zofia (${patient.pesel})`;

    await openSignedIn(page, request, '/audit_trial');
    const filters = page.getByRole('region', { name: 'Filtry' });
    const picker = filters.getByRole('combobox', { name: 'Pacjenci' });
    // Tab from the doctors filter reaches the patients filter; nothing is listed before typing.
    await filters.getByRole('combobox', { name: 'Lekarze' }).focus();
    await page.keyboard.press('Tab');
    await expect(picker).toBeFocused();
    await expect(page.getByText('Wpisz nazwisko, imię lub PESEL')).toBeVisible();
    await expectAccessible(page, 'historia zmian: wybór pacjenta przed wpisaniem');

    // Diacritics are optional: "wojcik" finds Wójcik. Typing asks the server once, after the
    // debounce, never the whole table.
    const searches: string[] = [];
    page.on('request', (sent) => {
      const url = new URL(sent.url());
      if (url.pathname.startsWith('/api/patients/')) searches.push(url.pathname + url.search);
    });
    const typed = `wojcik-${patient.surname.split('-')[1]}`;
    await page.keyboard.type(typed);
    await expect(page.getByRole('option', { name: option, exact: true })).toBeVisible();
    expect(searches).toEqual([`/api/patients/options?search=${encodeURIComponent(typed)}`]);
    await expectAccessible(page, 'historia zmian: wybór pacjenta z listą');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(filters.getByText(option)).toBeVisible();
    const patientLinks = page
      .getByRole('table', { name: 'Historia zmian' })
      .getByRole('link', { name: `Karta pacjenta: ${patient.surname} Zofia` });
    await expect(patientLinks.first()).toBeVisible();
    await expect(
      auditRows(page)
        .filter({ has: page.getByRole('cell') })
        .filter({
          hasNot: page.getByRole('link', { name: `Karta pacjenta: ${patient.surname} Zofia` }),
        }),
    ).toHaveCount(0);

    // Backspace in the empty search removes the chosen patient.
    await picker.focus();
    await page.keyboard.press('Backspace');
    await expect(filters.getByText(option)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Wyczyść filtry' })).toHaveCount(0);
  });

  test("a doctor's change is listed under the doctor's name and found with the doctors filter", async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    const body = patientBody(doctor);
    const created = (await api.call<{ patient: { id: number } }>('POST', '/patients', body))
      .patient;
    // The doctor changes the phone number.
    const { api: asDoctor } = await PortalApi.signIn(request, 'doctor', credentials);
    const personal: Record<string, unknown> = { ...body.personal, phone_number: '699888777' };
    delete personal.acceptance;
    await asDoctor.call('PUT', `/patients/${created.id}`, {
      ...body,
      personal,
      version: 1,
      reason: { code: 'entry_error' },
    });

    await openSignedIn(page, request, '/audit_trial');
    const filters = page.getByRole('region', { name: 'Filtry' });
    await pick(page, filters.getByLabel('Lekarze'), `${doctor.surname} ${doctor.firstname}`);
    const change = auditRows(page).filter({ hasText: 'Telefon' });
    await expect(change).toHaveCount(1);
    const cells = change.getByRole('cell');
    // People by name, not by login (ADR 042).
    await expect(cells.nth(1)).toHaveText(`${doctor.surname} ${doctor.firstname}`);
    await expect(cells.nth(2)).toHaveText(`${String(body.personal.surname)} Zofia`);
    await expect(cells.nth(5)).toHaveText('501234567');
    await expect(cells.nth(6)).toHaveText('699888777');
  });

  test('a doctor has no audit trail in the menu and is refused on its address', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/patients', 'doctor', credentials);

    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(menu.getByRole('link', { name: 'Pacjenci' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Historia zmian' })).toHaveCount(0);
    await expectAccessible(page, 'pacjenci (lekarz)');

    await page.goto('/audit_trial');
    await expect(
      page.getByText('Historia zmian jest dostępna tylko dla administratorów.'),
    ).toBeVisible();
    await expectAccessible(page, 'historia zmian: odmowa lekarzowi');
    await expect(page.getByRole('table', { name: 'Historia zmian' })).toHaveCount(0);
  });
});
