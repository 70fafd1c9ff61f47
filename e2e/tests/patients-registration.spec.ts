import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { BASE_URL } from '../env.js';
import {
  expect,
  newPesel,
  openSignedIn,
  peselBirthDate,
  PortalApi,
  registerPatient,
  test,
} from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const REQUIRED = 'To pole musi być wypełnione';
const CONSENT = 'Pacjent musi wyrazić zgodę na przetwarzanie danych osobowych';
const PESEL_TAKEN = 'Pacjent o podanym numerze PESEL istnieje już w bazie.';
const SELECT_INCLUSION = 'Wybierz co najmniej jedno kryterium włączenia';
const REGISTERED = 'Pacjent został zarejestrowany';
const PRINT_QUESTION = 'Czy chcesz wydrukować dane logowania pacjenta?';
const SINGLE_LINE = 'To pole nie może zawierać znaków nowej linii ani znaków sterujących';

function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

function step(page: Page, number: number, label: string) {
  return page.getByRole('button', { name: `Krok ${number} z 4: ${label}` });
}

async function expectStep(page: Page, heading: string) {
  await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
}

/** A Mantine select: type to narrow, then pick the option. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await select.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(select).toHaveValue(option);
}

interface Person {
  firstname: string;
  surname: string;
  pesel: string;
}

/** Step 1 as a user fills it in; unit and doctor only when they are not preset. */
async function fillPersonal(page: Page, person: Person, place?: { unit: string; doctor: string }) {
  await field(page, 'Imię').fill(person.firstname);
  await field(page, 'Nazwisko').fill(person.surname);
  await field(page, 'PESEL').fill(person.pesel);
  await field(page, 'Ulica').fill('ul. Piotrkowska');
  await field(page, 'Numer budynku').fill('104');
  await field(page, 'Numer mieszkania').fill('7');
  await field(page, 'Kod pocztowy').fill('90-006');
  await field(page, 'Miejscowość').fill('Łódź');
  await field(page, 'Telefon').fill('601202303');
  await field(page, 'Wzrost (cm)').fill('181');
  await field(page, 'Waga (kg)').fill('84,5');
  // One active patient per project number (ADR 041): the offered number is replaced by one
  // of this person's own.
  await field(page, 'Numer projektu').fill(`FDC-E2E-${person.pesel}`);
  if (place) {
    await choose(page, page.getByRole('combobox', { name: 'Jednostka' }), place.unit);
    await choose(page, page.getByRole('combobox', { name: 'Lekarz' }), place.doctor);
  }
  await page.getByRole('checkbox', { name: /udzielił zgody na udział w programie/ }).check();
}

function subgroup(page: Page, name: string) {
  return page.getByRole('button', { name: new RegExp(`^${name}`) });
}

async function patientIdBySearch(api: PortalApi, surname: string) {
  const list = await api.call<{ data: { id: number; surname: string }[] }>(
    'GET',
    `/patients?search=${encodeURIComponent(surname)}`,
  );
  expect(list.data).toHaveLength(1);
  return list.data[0]!.id;
}

test.describe('Rejestracja nowego pacjenta', () => {
  test('step 1 names the missing fields, asks for consent, refuses a known PESEL and shows the birth date', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const existing = await registerPatient(api, doctor);
    const otherUnit = await api.createUnit();
    const otherDoctor = await api.createDoctor(otherUnit.id);
    await openSignedIn(page, request, '/patients');

    await page.getByRole('button', { name: 'Dodaj pacjenta' }).click();
    await expect(page).toHaveURL(/\/patients\/create$/);
    await expect(page.getByRole('heading', { name: 'Rejestracja nowego pacjenta' })).toBeVisible();
    await expectStep(page, 'Dane osobowe i medyczne');
    await expect(step(page, 1, 'Dane osobowe i medyczne')).toHaveAttribute('aria-current', 'step');
    await expectAccessible(page, 'rejestracja: krok 1');

    // Nothing filled in: the required fields say so and the wizard stays on step 1.
    await page.getByRole('button', { name: 'Dalej' }).click();
    for (const name of ['Imię', 'Nazwisko', 'PESEL', 'Telefon']) {
      await expect(field(page, name)).toHaveAccessibleDescription(REQUIRED);
    }
    // Optional fields stay quiet.
    for (const name of ['Numer mieszkania', 'E-mail']) {
      await expect(field(page, name)).not.toHaveAttribute('aria-invalid', 'true');
    }
    await expect(page.getByText(CONSENT)).toBeVisible();
    await expectAccessible(page, 'rejestracja: krok 1 z błędami');
    await expectStep(page, 'Dane osobowe i medyczne');

    // A PESEL already registered is refused as soon as it is typed.
    await field(page, 'PESEL').fill(existing.pesel);
    await expect(field(page, 'PESEL')).toHaveAccessibleDescription(PESEL_TAKEN);
    await expect(field(page, 'Data urodzenia')).toHaveValue(peselBirthDate(existing.pesel));
    await expect(field(page, 'Data urodzenia')).not.toBeEditable();

    // A new one is accepted, and its birth date shows as YYYY-MM-DD.
    const pesel = newPesel('M', { year: 1958, month: 11, day: 3 });
    await field(page, 'PESEL').fill(pesel);
    await expect(field(page, 'Data urodzenia')).toHaveValue('1958-11-03');
    await expect(page.getByText(PESEL_TAKEN)).toHaveCount(0);
    // A wrong check digit gives no birth date and is called invalid.
    await field(page, 'PESEL').fill(`${pesel.slice(0, 10)}${(Number(pesel[10]) + 1) % 10}`);
    await expect(field(page, 'Data urodzenia')).toHaveValue('');
    await expect(field(page, 'PESEL')).toHaveAccessibleDescription('Niepoprawny numer PESEL');
    await field(page, 'PESEL').fill(pesel);
    await expect(field(page, 'Data urodzenia')).toHaveValue('1958-11-03');

    // An e-mail, when given, must be one.
    await field(page, 'E-mail').fill('marek.zielinski@');
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expect(field(page, 'E-mail')).toHaveAccessibleDescription(
      'To pole musi być poprawnym adresem e-mail',
    );
    await field(page, 'E-mail').fill('');

    // The doctor is chosen among the unit's doctors; another unit clears the choice.
    const unitSelect = page.getByRole('combobox', { name: 'Jednostka' });
    const doctorSelect = page.getByRole('combobox', { name: 'Lekarz' });
    await choose(page, unitSelect, unit.name);
    await choose(page, doctorSelect, `${doctor.surname} ${doctor.firstname}`);
    await choose(page, unitSelect, otherUnit.name);
    await expect(doctorSelect).toHaveValue('');
    await doctorSelect.click();
    await expect(
      page.getByRole('option', { name: `${otherDoctor.surname} ${otherDoctor.firstname}` }),
    ).toBeVisible();
    await expect(
      page.getByRole('option', { name: `${doctor.surname} ${doctor.firstname}` }),
    ).toHaveCount(0);
    await doctorSelect.press('Escape');

    // The consent message goes once the box is ticked; the rest of step 1 lets the user go on.
    await fillPersonal(
      page,
      { firstname: 'Marek', surname: `Zieliński-${randomBytes(3).toString('hex')}`, pesel },
      { unit: unit.name, doctor: `${doctor.surname} ${doctor.firstname}` },
    );
    await expect(page.getByText(CONSENT)).toHaveCount(0);
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Kryteria włączenia');

    // Looking at another screen keeps the registration in progress.
    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: 'Pacjenci' })
      .click();
    await expect(page).toHaveURL(/\/patients$/);
    await page.getByRole('button', { name: 'Dodaj pacjenta' }).click();
    await expectStep(page, 'Kryteria włączenia');
    await step(page, 1, 'Dane osobowe i medyczne').click();
    await expect(field(page, 'PESEL')).toHaveValue(pesel);
    await expect(field(page, 'Imię')).toHaveValue('Marek');
    await expect(doctorSelect).toHaveValue(`${doctor.surname} ${doctor.firstname}`);
  });

  test('a project number pasted from a spreadsheet with a tab or a line break is refused under the field', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    await openSignedIn(page, request, '/patients/create');
    await fillPersonal(
      page,
      { firstname: 'Ewa', surname: `Lis-${randomBytes(3).toString('hex')}`, pesel: newPesel() },
      { unit: unit.name, doctor: `${doctor.surname} ${doctor.firstname}` },
    );
    const project = field(page, 'Numer projektu');
    // Two cells copied from a sheet arrive with a tab between them (the row's line end is
    // dropped by the input itself); the segment after it must never reach a sample code.
    await project.fill('');
    await project.focus();
    await page.keyboard.insertText('FDC-E2E\tOBX|1|NM|ALT||999');
    await expect(project).toHaveValue('FDC-E2E\tOBX|1|NM|ALT||999');
    await page.getByRole('button', { name: 'Dalej' }).click();
    // The field's hint follows the message (ADR 041).
    await expect(project).toHaveAccessibleDescription(new RegExp(`^${SINGLE_LINE}`));
    await expect(project).toHaveAttribute('aria-invalid', 'true');
    await expectStep(page, 'Dane osobowe i medyczne');
    await expectAccessible(page, 'rejestracja: numer projektu ze znakiem sterującym');

    // Whatever the browser keeps of a pasted line break is refused the same way, or dropped.
    await project.fill('');
    await project.focus();
    await page.keyboard.insertText('FDC-E2E\rOBX|1');
    const kept = await project.inputValue();
    if (/[\r\n]/.test(kept)) {
      await page.getByRole('button', { name: 'Dalej' }).click();
      // The field's hint follows the message (ADR 041).
      await expect(project).toHaveAccessibleDescription(new RegExp(`^${SINGLE_LINE}`));
    }

    await project.fill('FDC-E2E');
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Kryteria włączenia');
  });

  test('step 2: a subgroup selects its group and first dose, fixed doses and intervals show as the subgroup says', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    await openSignedIn(page, request, '/patients/create');
    await fillPersonal(
      page,
      { firstname: 'Ewa', surname: `Lis-${randomBytes(3).toString('hex')}`, pesel: newPesel() },
      { unit: unit.name, doctor: `${doctor.surname} ${doctor.firstname}` },
    );
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Kryteria włączenia');

    // Going on without a subgroup: a warning, and the wizard stays here.
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expect(page.getByText(SELECT_INCLUSION)).toBeVisible();
    await expectStep(page, 'Kryteria włączenia');

    const group1 = page.getByRole('button', { name: 'Grupa 1: Nadciśnienie tętnicze' });
    const group2 = page.getByRole('button', {
      name: 'Grupa 2: Nadciśnienie tętnicze z dyslipidemią',
    });
    await expect(group1).toHaveAttribute('aria-pressed', 'false');

    // 1B: the group is selected with it, and the first of its doses (80/160/320 mg).
    const sub1B = subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd');
    await sub1B.click();
    await expect(sub1B).toHaveAttribute('aria-pressed', 'true');
    await expect(group1).toHaveAttribute('aria-pressed', 'true');
    const doses1B = page.getByRole('radiogroup', { name: 'Dawka' });
    await expect(doses1B.getByRole('radio')).toHaveCount(3);
    await expect(doses1B.getByRole('radio', { name: '80 mg' })).toBeChecked();
    await expect(field(page, 'Odstęp między dawkami')).toHaveCount(0);
    await doses1B.getByRole('radio', { name: '320 mg' }).check();
    await expect(doses1B.getByRole('radio', { name: '320 mg' })).toBeChecked();

    // 1A is a fixed-dose tablet: one dose, nothing to choose.
    const sub1A = subgroup(page, '1A: peryndopryl \\+ amlodypina');
    await sub1A.click();
    await expect(sub1A).toHaveAttribute('aria-pressed', 'true');
    await expect(sub1B).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByText('1 tabletka: 5 mg')).toBeVisible();
    await expect(page.getByRole('main').getByRole('radio')).toHaveCount(0);

    // 2C allows a custom interval; choosing it moves the selection to group 2.
    const sub2C = subgroup(page, '2C: rosuwastatyna \\+ ezetymib');
    await sub2C.click();
    await expect(group2).toHaveAttribute('aria-pressed', 'true');
    await expect(group1).toHaveAttribute('aria-pressed', 'false');
    await expect(
      page
        .getByRole('radiogroup', { name: 'Dawka' })
        .getByRole('radio', { name: '5 mg', exact: true }),
    ).toBeChecked();
    await field(page, 'Odstęp między dawkami').fill('co 2 dni');

    // Clicking the chosen subgroup again clears it (and its dose), the group stays.
    await sub2C.click();
    await expect(sub2C).toHaveAttribute('aria-pressed', 'false');
    await expect(group2).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('radiogroup', { name: 'Dawka' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expect(page.getByText(SELECT_INCLUSION).first()).toBeVisible();
    await expectStep(page, 'Kryteria włączenia');

    // Selecting a group clears the subgroup; selecting it again clears everything.
    await sub2C.click();
    await expect(field(page, 'Odstęp między dawkami')).toHaveValue('');
    await group1.click();
    await expect(group1).toHaveAttribute('aria-pressed', 'true');
    await expect(sub2C).toHaveAttribute('aria-pressed', 'false');
    await group1.click();
    await expect(group1).toHaveAttribute('aria-pressed', 'false');

    // With a subgroup the wizard goes on to the medicines.
    await sub1B.click();
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Leki');
  });

  test('the whole registration: medicines, qualification, jumping between steps, then "Anuluj" registers without printing', async ({
    page,
    request,
    api,
  }) => {
    // The longest flow of the suite: every step, both ways.
    test.slow();
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const person = {
      firstname: 'Marek',
      surname: `Zieliński-${randomBytes(3).toString('hex')}`,
      pesel: newPesel('M', { year: 1961, month: 5, day: 20 }),
    };
    await openSignedIn(page, request, '/patients/create');

    await fillPersonal(page, person, {
      unit: unit.name,
      doctor: `${doctor.surname} ${doctor.firstname}`,
    });
    await expect(field(page, 'Data urodzenia')).toHaveValue('1961-05-20');
    await page.getByRole('button', { name: 'Dalej' }).click();

    await expectStep(page, 'Kryteria włączenia');
    await subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd').click();
    await page
      .getByRole('radiogroup', { name: 'Dawka' })
      .getByRole('radio', { name: '160 mg' })
      .check();
    await expectAccessible(page, 'rejestracja: krok 2 z podgrupą');
    await page.getByRole('button', { name: 'Dalej' }).click();

    // Step 3: two study medicines with doses (one listed, one typed) and another medicine.
    await expectStep(page, 'Leki');
    await expect(page.getByText('Brak innych leków.')).toBeVisible();
    await page.getByRole('checkbox', { name: /^walsartan/ }).check();
    const valsartanDose = page.getByRole('combobox', { name: 'Dawka: walsartan' });
    await expect(valsartanDose).toHaveValue('');
    await valsartanDose.click();
    await page.getByRole('option', { name: '160 mg', exact: true }).click();
    await expect(valsartanDose).toHaveValue('160 mg');
    await page.getByRole('checkbox', { name: /^hydrochlorotiazyd/ }).check();
    await page.getByRole('combobox', { name: 'Dawka: hydrochlorotiazyd' }).click();
    await page.getByRole('option', { name: 'Inna dawka', exact: true }).click();
    await page.getByRole('textbox', { name: 'Inna dawka (mg): hydrochlorotiazyd' }).fill('6,25');
    // A medicine ticked by mistake is unticked again.
    await page.getByRole('checkbox', { name: /^amlodypina/ }).check();
    await expect(page.getByRole('combobox', { name: 'Dawka: amlodypina' })).toBeVisible();
    await page.getByRole('checkbox', { name: /^amlodypina/ }).uncheck();
    await expect(page.getByRole('combobox', { name: 'Dawka: amlodypina' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Dodaj lek' }).click();
    await expect(field(page, 'Nazwa leku')).toBeFocused();
    await field(page, 'Nazwa leku').fill('Metformina');
    await field(page, 'Dawka (mg)').fill('500');
    await page.getByRole('button', { name: 'Dodaj lek' }).click();
    await field(page, 'Nazwa leku').nth(1).fill('Pantoprazol');
    await page.getByRole('button', { name: 'Usuń lek: Pantoprazol' }).click();
    await expect(field(page, 'Nazwa leku')).toHaveCount(1);
    await expectAccessible(page, 'rejestracja: krok 3 z lekami');
    await page.getByRole('button', { name: 'Dalej' }).click();

    // Step 4: under 18 cannot be qualified; above 18 with no exclusion can.
    await expectStep(page, 'Kwalifikacja');
    const qualified = page.getByRole('button', { name: 'Zakwalifikowany', exact: true });
    const notQualified = page.getByRole('button', { name: 'Niezakwalifikowany' });
    await expect(page.getByRole('radio', { name: 'Powyżej 18 lat' })).toBeChecked();
    await qualified.click();
    await expect(qualified).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('radio', { name: 'Poniżej 18 lat' }).check();
    await expect(qualified).toBeDisabled();
    await expect(notQualified).toHaveAttribute('aria-pressed', 'true');
    await expect(
      page.getByText('Pacjent poniżej 18 lat lub spełniający kryterium wyłączenia'),
    ).toBeVisible();
    await expectAccessible(page, 'rejestracja: krok 4');
    await page.getByRole('radio', { name: 'Powyżej 18 lat' }).check();
    // An exclusion criterion forces "not qualified" too; clicking it again clears it.
    const exclusion = page.getByRole('button', { name: 'Ciężka niewydolność wątroby' });
    await exclusion.click();
    await expect(exclusion).toHaveAttribute('aria-pressed', 'true');
    await expect(qualified).toBeDisabled();
    await exclusion.click();
    await expect(exclusion).toHaveAttribute('aria-pressed', 'false');
    await qualified.click();
    await expect(qualified).toHaveAttribute('aria-pressed', 'true');
    await expect(notQualified).toHaveAttribute('aria-pressed', 'false');

    // The stepper jumps back and forth; what was entered is still there.
    await step(page, 1, 'Dane osobowe i medyczne').click();
    await expectStep(page, 'Dane osobowe i medyczne');
    await expect(field(page, 'Nazwisko')).toHaveValue(person.surname);
    await expect(field(page, 'PESEL')).toHaveValue(person.pesel);
    await expect(field(page, 'Waga (kg)')).toHaveValue('84,5');
    await expect(page.getByRole('checkbox', { name: /udzielił zgody/ })).toBeChecked();
    await step(page, 3, 'Leki').click();
    await expectStep(page, 'Leki');
    await expect(page.getByRole('combobox', { name: 'Dawka: walsartan' })).toHaveValue('160 mg');
    await expect(
      page.getByRole('textbox', { name: 'Inna dawka (mg): hydrochlorotiazyd' }),
    ).toHaveValue('6,25 mg');
    await expect(field(page, 'Nazwa leku')).toHaveValue('Metformina');
    await step(page, 2, 'Kryteria włączenia').click();
    await expect(subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd')).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('radio', { name: '160 mg' })).toBeChecked();
    await step(page, 4, 'Kwalifikacja').click();
    await expect(qualified).toHaveAttribute('aria-pressed', 'true');

    // "Anuluj" in the print question registers without printing and goes to the list.
    await page.getByRole('button', { name: 'Zarejestruj pacjenta' }).click();
    const question = page.getByRole('dialog', { name: PRINT_QUESTION });
    await expect(question).toBeVisible();
    await expectAccessible(page, 'rejestracja: pytanie o wydruk');
    await question.getByRole('button', { name: 'Anuluj' }).click();
    await expect(page.getByText(REGISTERED)).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);
    await expect(page.getByRole('dialog', { name: 'Dane logowania' })).toHaveCount(0);

    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(person.surname);
    const row = page
      .getByRole('table', { name: 'Pacjenci' })
      .getByRole('row')
      .filter({ hasText: person.surname });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`${person.surname} ${person.firstname}`);
    await expect(row).toContainText(`PESEL: ${person.pesel}`);
    await expect(row).toContainText('walsartan 160 mg');
    await expect(row).toContainText('hydrochlorotiazyd 6,25 mg');
    await expect(row).toContainText('1B: walsartan + hydrochlorotiazyd');
    await expectAccessible(page, 'pacjenci: lista po rejestracji');

    // What was stored is what the wizard showed.
    const id = await patientIdBySearch(api, person.surname);
    const detail = await api.call<Record<string, unknown>>('GET', `/patients/${id}`);
    expect(detail).toMatchObject({
      firstname: person.firstname,
      surname: person.surname,
      pesel: person.pesel,
      sex: 'M',
      birth_date: '1961-05-20',
      address_street: 'ul. Piotrkowska',
      address_building: '104',
      address_apartment: '7',
      address_postcode: '90-006',
      address_city: 'Łódź',
      phone_number: '601202303',
      height: 181,
      weight: 84.5,
      project_number: `FDC-E2E-${person.pesel}`,
      doctor_id: doctor.id,
      unit_id: unit.id,
      is_above_18: true,
      exclusion_criteria_id: null,
      is_classified: true,
      inclusion: { group_id: 1, subgroup_id: 2, dose: 160, interval: null },
      additional_medicines: [{ name: 'Metformina', dose: 500 }],
    });
    expect(detail.medicines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ medicine_id: 13, dose: 160 }),
        expect.objectContaining({ medicine_id: 12, dose: 6.25 }),
      ]),
    );
    expect(detail.medicines).toHaveLength(2);

    // The next registration starts empty.
    await page.getByRole('button', { name: 'Dodaj pacjenta' }).click();
    await expect(field(page, 'Nazwisko')).toHaveValue('');
  });

  test('a doctor registers in the own unit, and "Drukuj" shows the login details sheet before the list', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    const person = {
      firstname: 'Halina',
      surname: `Dąbrowska-${randomBytes(3).toString('hex')}`,
      pesel: newPesel('K'),
    };
    await openSignedIn(page, request, '/patients/create', 'doctor', credentials);

    // The doctor's unit and the doctor are filled in; the unit cannot be changed.
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveValue(unit.name);
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).not.toBeEditable();
    await expect(page.getByRole('combobox', { name: 'Lekarz' })).toHaveValue(
      `${doctor.surname} ${doctor.firstname}`,
    );
    await fillPersonal(page, person);
    await page.getByRole('button', { name: 'Dalej' }).click();
    await subgroup(page, '3A: polipigułka').click();
    await expect(page.getByText('1 tabletka: 100 mg')).toBeVisible();
    await field(page, 'Odstęp między dawkami').fill('raz na dobę wieczorem');
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Leki');
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectStep(page, 'Kwalifikacja');
    await page.getByRole('button', { name: 'Zakwalifikowany', exact: true }).click();

    await page.getByRole('button', { name: 'Zarejestruj pacjenta' }).click();
    await page
      .getByRole('dialog', { name: PRINT_QUESTION })
      .getByRole('button', { name: 'Drukuj' })
      .click();

    const sheet = page.getByRole('dialog', { name: 'Dane logowania' });
    await expect(sheet).toBeVisible();
    await expect(page).toHaveURL(/\/patients$/);
    const value = (heading: string) =>
      sheet.getByRole('row', { name: new RegExp(`^${heading} `) }).getByRole('cell');
    await expect(value('Login')).toHaveText(/^pac\d{6}$/);
    await expect(value('Hasło')).toHaveText(/^\S{12}$/);
    await expect(value('Adres logowania')).toHaveText(BASE_URL);
    await expect(sheet.locator('iframe[title="PDF"]')).toBeVisible();
    await expectAccessible(page, 'dane logowania pacjenta');

    const id = await patientIdBySearch(api, person.surname);
    const detail = await api.call<{ login: string; inclusion: unknown }>('GET', `/patients/${id}`);
    await expect(value('Login')).toHaveText(detail.login);
    expect(detail.inclusion).toEqual({
      group_id: 3,
      subgroup_id: 7,
      dose: 100,
      interval: 'raz na dobę wieczorem',
    });

    await sheet.getByRole('button', { name: 'Zamknij' }).click();
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/\/patients$/);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(person.surname);
    await expect(
      page
        .getByRole('table', { name: 'Pacjenci' })
        .getByRole('row')
        .filter({ hasText: person.surname }),
    ).toContainText(`PESEL: ${person.pesel}`);
  });

  test('a PESEL registered by someone else meanwhile is refused on registration, and nothing typed is lost', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const person = {
      firstname: 'Jerzy',
      surname: `Kowal-${randomBytes(3).toString('hex')}`,
      pesel: newPesel('M'),
    };
    await openSignedIn(page, request, '/patients/create');
    await fillPersonal(page, person, {
      unit: unit.name,
      doctor: `${doctor.surname} ${doctor.firstname}`,
    });
    await page.getByRole('button', { name: 'Dalej' }).click();
    await subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd').click();

    // Another registration takes the PESEL first.
    await registerPatient(api, doctor, { personal: { pesel: person.pesel } });

    await step(page, 4, 'Kwalifikacja').click();
    await page.getByRole('button', { name: 'Zarejestruj pacjenta' }).click();
    await page
      .getByRole('dialog', { name: PRINT_QUESTION })
      .getByRole('button', { name: 'Anuluj' })
      .click();
    await expect(
      page.getByText('Pacjent o podanym adresie e-mail lub peselu już istnieje.'),
    ).toBeVisible();
    await expectAccessible(page, 'rejestracja: odmowa');
    await expect(page).toHaveURL(/\/patients\/create$/);
    await expect(page.getByText(REGISTERED)).toHaveCount(0);
    await step(page, 1, 'Dane osobowe i medyczne').click();
    await expect(field(page, 'Nazwisko')).toHaveValue(person.surname);
    await expect(field(page, 'PESEL')).toHaveValue(person.pesel);
  });
});

test.describe('Porzucona rejestracja', () => {
  test('"Wyczyść formularz" asks first, then empties every step; the draft outlives a reload, not the tab', async ({
    page,
    request,
    browser,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const person = {
      firstname: 'Teresa',
      surname: `Lis-${randomBytes(3).toString('hex')}`,
      pesel: newPesel('K'),
    };
    const { session } = await PortalApi.signIn(request);
    await openSignedIn(page, request, '/patients/create');
    await fillPersonal(page, person, {
      unit: unit.name,
      doctor: `${doctor.surname} ${doctor.firstname}`,
    });
    await page.getByRole('button', { name: 'Dalej' }).click();
    await subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd').click();

    // A reload of the tab keeps what was typed; the draft is kept for the tab only.
    await page.reload();
    await expectStep(page, 'Kryteria włączenia');
    await expect(subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd')).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const stored = await page.evaluate(() => ({
      tab: Object.keys(sessionStorage).filter((key) => key.includes('Draft')),
      kept: Object.keys(localStorage).filter((key) => key.includes('Draft')),
    }));
    expect(stored).toEqual({ tab: ['portal.patientDraft'], kept: [] });

    // A new tab (another browser context, as after closing this one) starts with an empty form.
    const other = await browser.newContext({ baseURL: BASE_URL, locale: 'pl-PL' });
    try {
      const fresh = await other.newPage();
      await fresh.goto('/login');
      await fresh.evaluate((s) => {
        localStorage.setItem('portal.token', s.token);
        localStorage.setItem('portal.user', JSON.stringify(s.user));
      }, session);
      await fresh.goto('/patients/create');
      await expectStep(fresh, 'Dane osobowe i medyczne');
      await expect(field(fresh, 'Nazwisko')).toHaveValue('');
      await expect(field(fresh, 'PESEL')).toHaveValue('');
      await expect(fresh.getByRole('checkbox', { name: /udzielił zgody/ })).not.toBeChecked();
    } finally {
      await other.close();
    }

    // "Anuluj" keeps everything.
    const clear = page.getByRole('button', { name: 'Wyczyść formularz' });
    const question = page.getByRole('dialog', { name: 'Wyczyścić formularz?' });
    await clear.click();
    await expect(question).toContainText('Wpisane dane zostaną usunięte.');
    await expectAccessible(page, 'rejestracja: pytanie o wyczyszczenie');
    await question.getByRole('button', { name: 'Anuluj' }).click();
    await expect(question).toBeHidden();
    await expect(subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd')).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // "Wyczyść" empties every step, consent included, and the stored draft.
    await clear.click();
    await question.getByRole('button', { name: 'Wyczyść', exact: true }).click();
    await expect(question).toBeHidden();
    await expectStep(page, 'Dane osobowe i medyczne');
    for (const name of ['Imię', 'Nazwisko', 'PESEL', 'Telefon']) {
      await expect(field(page, name)).toHaveValue('');
    }
    // The emptied form is offered the next free project number again (ADR 041), not the typed one.
    // (Which number depends on who registered last, so only "not the typed one, not empty".)
    await expect(field(page, 'Numer projektu')).not.toHaveValue(`FDC-E2E-${person.pesel}`);
    await expect(field(page, 'Numer projektu')).not.toHaveValue('');
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveValue('');
    await expect(page.getByRole('checkbox', { name: /udzielił zgody/ })).not.toBeChecked();
    // Nothing typed is kept: at most the offered project number (ADR 041).
    expect(
      (await page.evaluate(() => sessionStorage.getItem('portal.patientDraft'))) ?? '',
    ).not.toMatch(/"pesel":"\d|"surname":"[^"]/);
    await step(page, 2, 'Kryteria włączenia').click();
    await expect(subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd')).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    // What is kept from now on is the empty form.
    await page.reload();
    await step(page, 1, 'Dane osobowe i medyczne').click();
    await expect(field(page, 'Nazwisko')).toHaveValue('');
    await expect(page.getByRole('checkbox', { name: /udzielił zgody/ })).not.toBeChecked();
  });

  test('a draft left in localStorage by an older version is removed on start', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, '/units');
    await page.evaluate(() =>
      localStorage.setItem('portal.patientDraft', '{"ownerId":1,"state":{"mode":"create"}}'),
    );
    await page.goto('/patients/create');
    await expectStep(page, 'Dane osobowe i medyczne');
    expect(await page.evaluate(() => localStorage.getItem('portal.patientDraft'))).toBeNull();
  });

  test('an e-mail of an active patient is refused on registration with the duplicate message', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const email = `pacjent.${randomBytes(3).toString('hex')}@poczta.test`;
    await registerPatient(api, doctor, { personal: { email } });
    const person = {
      firstname: 'Roman',
      surname: `Nowik-${randomBytes(3).toString('hex')}`,
      pesel: newPesel('M'),
    };
    await openSignedIn(page, request, '/patients/create');
    await fillPersonal(page, person, {
      unit: unit.name,
      doctor: `${doctor.surname} ${doctor.firstname}`,
    });
    await field(page, 'E-mail').fill(email);
    await page.getByRole('button', { name: 'Dalej' }).click();
    await subgroup(page, '1B: walsartan \\+ hydrochlorotiazyd').click();
    await step(page, 4, 'Kwalifikacja').click();
    await page.getByRole('button', { name: 'Zarejestruj pacjenta' }).click();
    await page
      .getByRole('dialog', { name: PRINT_QUESTION })
      .getByRole('button', { name: 'Anuluj' })
      .click();
    await expect(
      page.getByText('Pacjent o podanym adresie e-mail lub peselu już istnieje.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/patients\/create$/);
    await expect(page.getByText(REGISTERED)).toHaveCount(0);
  });
});

test.describe('Rejestracja na telefonie', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the patients list and every step of the wizard on a phone', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    await openSignedIn(page, request, '/patients');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(patient.surname);
    await expect(page.getByText(patient.surname).first()).toBeVisible();
    await expectAccessible(page, 'pacjenci (telefon)');

    await page.goto('/patients/create');
    await expect(page.getByRole('heading', { level: 2, name: /^Krok 1 z 4/ })).toBeVisible();
    await page.getByRole('button', { name: 'Dalej' }).click();
    await expectAccessible(page, 'rejestracja: krok 1 z błędami (telefon)');
    for (const [number, label] of [
      [2, 'Kryteria włączenia'],
      [3, 'Leki'],
      [4, 'Kwalifikacja'],
    ] as const) {
      await step(page, number, label).click();
      await expect(
        page.getByRole('heading', { level: 2, name: `Krok ${number} z 4: ${label}` }),
      ).toBeVisible();
      await expectAccessible(page, `rejestracja: krok ${number} (telefon)`);
    }
  });
});
