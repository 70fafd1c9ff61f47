import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import type { PortalApi, RegisteredPatient } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const CONFIRM_CANCEL = 'Czy na pewno chcesz anulować tę wizytę?';
const REQUIRED = 'To pole musi być wypełnione';

/** Today in Warsaw, YYYY-MM-DD (the test runner's own zone may differ). */
function warsawToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());
}

function addDays(day: string, days: number): string {
  const moved = new Date(`${day}T12:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

/** The first Monday–Friday after `day`. */
function nextWeekday(day: string): string {
  let next = addDays(day, 1);
  while ([0, 6].includes(new Date(`${next}T12:00:00Z`).getUTCDay())) next = addDays(next, 1);
  return next;
}

const ddmmyyyy = (day: string) => day.split('-').reverse().join('.');
const weekday = (day: string) =>
  new Intl.DateTimeFormat('pl', { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );
/** The calendar's name of a day: "24 listopada 2026". */
const dayLabel = (day: string) =>
  new Intl.DateTimeFormat('pl', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));

function visitsTabs(page: Page) {
  return page.getByRole('tablist', { name: 'Rodzaj wizyt' });
}

function futureCards(page: Page) {
  return page.getByRole('tabpanel', { name: /Nadchodzące/ }).getByRole('listitem');
}

const MONTHS = Array.from({ length: 12 }, (_, month) =>
  new Intl.DateTimeFormat('pl', { month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2026, month, 15)),
  ),
);

/** Chooses a day in the booking calendar, moving to its month first (header "listopad 2026"). */
async function chooseDay(dialog: Locator, day: string) {
  const header = dialog.getByRole('button', { name: /^\p{L}+ \d{4}$/u });
  const [shownMonth = '', shownYear = '0'] = ((await header.textContent()) ?? '')
    .trim()
    .toLowerCase()
    .split(' ');
  expect(MONTHS, 'the calendar header names a month').toContain(shownMonth);
  const [year = 0, month = 0] = day.split('-').map(Number);
  const steps = year * 12 + month - 1 - (Number(shownYear) * 12 + MONTHS.indexOf(shownMonth));
  for (let i = 0; i < Math.abs(steps); i += 1) {
    await dialog
      .getByRole('button', { name: steps > 0 ? 'Następny miesiąc' : 'Poprzedni miesiąc' })
      .click();
  }
  await dialog.getByRole('button', { name: dayLabel(day), exact: true }).click();
  await expect(dialog.getByText(`Godziny wizyt ${ddmmyyyy(day)}`)).toBeVisible();
}

async function chooseSlot(dialog: Locator, time: string) {
  const slot = dialog.getByRole('button', { name: time, exact: true });
  await slot.click();
  await expect(slot).toHaveAttribute('aria-pressed', 'true');
}

async function bookThroughApi(
  api: PortalApi,
  patient: RegisteredPatient,
  date: string,
  time: string,
) {
  await api.call('POST', '/visits', { patient_id: patient.id, date, started_at: time });
}

test.describe('Wizyty pacjenta', () => {
  test('books, reschedules, asks the reason outside the window, cancels, and shows taken slots', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor } = await api.readyDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const other = await registerPatient(api, doctor, { personal: { firstname: 'Halina' } });
    const day = nextWeekday(warsawToday());
    await bookThroughApi(api, other, day, '10:00');

    await openSignedIn(page, request, `/patients/card/${patient.id}?tab=visits`);
    await expect(
      page
        .getByRole('tablist', { name: 'Sekcje karty pacjenta' })
        .getByRole('tab', { name: 'Wizyty' }),
    ).toHaveAttribute('aria-selected', 'true');
    await expect(visitsTabs(page).getByRole('tab', { name: 'Nadchodzące (0)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByText('Brak nadchodzących wizyt.')).toBeVisible();
    await expectAccessible(page, 'karta: wizyty (pusto)');

    // The first visit, on the next weekday at 08:00.
    await page.getByRole('button', { name: 'Umów wizytę' }).click();
    const dialog = page.getByRole('dialog', { name: 'Umawianie wizyty' });
    await expect(dialog).toBeVisible();
    await expect(
      dialog.getByText(`Pacjent: ${patient.surname} ${patient.firstname}`),
    ).toBeVisible();
    await expect(dialog.getByText('Wybierz dzień w kalendarzu.')).toBeVisible();
    await chooseDay(dialog, day);
    const taken = dialog.getByRole('button', {
      name: `10:00 – Halina ${other.surname} (zajęte)`,
    });
    await expect(taken).toBeDisabled();
    await chooseSlot(dialog, '08:00');
    await expectAccessible(page, 'umawianie wizyty');
    await dialog.getByRole('button', { name: 'Umów', exact: true }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Wizyta została umówiona' }),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/book=1/);

    await expect(futureCards(page)).toHaveCount(1);
    const first = futureCards(page).first();
    await expect(first.getByRole('heading', { name: 'Pierwsza wizyta' })).toBeVisible();
    await expect(first).toContainText(`${weekday(day)}, ${ddmmyyyy(day)}`);
    await expect(first).toContainText('Godzina: 08:00–08:30');
    await expect(first).toContainText(`Lekarz: ${doctor.firstname} ${doctor.surname}`);
    await expectAccessible(page, 'karta: wizyty');

    // Moved to 09:00 the same day: the old slot shows this patient as taken.
    await first
      .getByRole('button', { name: `Zmień termin: Pierwsza wizyta, ${ddmmyyyy(day)}` })
      .click();
    const moving = page.getByRole('dialog', { name: 'Zmiana terminu wizyty' });
    await expect(moving.getByText(`Godziny wizyt ${ddmmyyyy(day)}`)).toBeVisible();
    await expect(
      moving.getByRole('button', {
        name: `08:00 – ${patient.firstname} ${patient.surname} (zajęte)`,
      }),
    ).toBeDisabled();
    await chooseSlot(moving, '09:00');
    await moving.getByRole('button', { name: 'Umów', exact: true }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Termin wizyty został zmieniony' }),
    ).toBeVisible();
    await expect(moving).toBeHidden();
    await expect(futureCards(page).first()).toContainText('Godzina: 09:00–09:30');

    // A second visit the day after: far before its window (day 28 ± 3), so a reason is needed.
    const early = nextWeekday(day);
    await page.getByRole('button', { name: 'Umów wizytę' }).click();
    await expect(dialog).toBeVisible();
    const windowFrom = ddmmyyyy(addDays(day, 25));
    await expect(dialog).toContainText(
      `Druga wizyta: termin docelowy ${ddmmyyyy(addDays(day, 28))}, okno od ${windowFrom}`,
    );
    // The calendar opens on the window's month, its days marked (and named so).
    await expect(dialog.getByRole('button', { name: /, w oknie wizyty$/ }).first()).toBeVisible();
    await chooseDay(dialog, early);
    await chooseSlot(dialog, '11:00');
    const reason = dialog.getByRole('textbox', { name: 'Powód umówienia poza oknem' });
    await expect(reason).toBeVisible();
    await dialog.getByRole('button', { name: 'Umów', exact: true }).click();
    await expect(reason).toHaveAccessibleDescription(REQUIRED);
    await reason.fill('Pacjent wyjeżdża za granicę');
    await dialog.getByRole('button', { name: 'Umów', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(futureCards(page)).toHaveCount(2);
    const second = futureCards(page).nth(1);
    await expect(second.getByRole('heading', { name: 'Druga wizyta' })).toBeVisible();
    await expect(second).toContainText('Poza oknem wizyty');
    await expect(second).toContainText('Powód: Pacjent wyjeżdża za granicę');

    // The sort toggle puts the later visit first.
    await page.getByRole('button', { name: /^Data: od najwcześniejszej/ }).click();
    await expect(futureCards(page).first().getByRole('heading')).toHaveText('Druga wizyta');
    await page.getByRole('button', { name: /^Data: od najpóźniejszej/ }).click();

    // Cancelled after the question: it leaves the list.
    await second
      .getByRole('button', { name: `Anuluj wizytę: Druga wizyta, ${ddmmyyyy(early)}` })
      .click();
    const question = page.getByRole('dialog', { name: CONFIRM_CANCEL });
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Tak' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Wizyta została anulowana' }),
    ).toBeVisible();
    await expect(futureCards(page)).toHaveCount(1);
    await visitsTabs(page).getByRole('tab', { name: 'Minione (0)' }).click();
    await expect(page.getByText('Brak minionych wizyt.')).toBeVisible();
  });

  test('a taken slot booked meanwhile answers "Niedostępna godzina"', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor } = await api.readyDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const other = await registerPatient(api, doctor);
    const day = nextWeekday(warsawToday());

    await openSignedIn(page, request, `/patients/card/${patient.id}?tab=visits&book=1`);
    const dialog = page.getByRole('dialog', { name: 'Umawianie wizyty' });
    await expect(dialog).toBeVisible();
    await chooseDay(dialog, day);
    await chooseSlot(dialog, '12:00');
    // Someone else takes it before Umów.
    await bookThroughApi(api, other, day, '12:00');
    await dialog.getByRole('button', { name: 'Umów', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Niedostępna godzina' })).toBeVisible();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^12:00 – .* \(zajęte\)$/ })).toBeDisabled();
  });

  test('on a phone: the link from the overdue list opens the dialog, a visit is booked', async ({
    page,
    request,
    api,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const unit = await api.createUnit();
    const { doctor } = await api.readyDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const day = nextWeekday(warsawToday());

    await openSignedIn(page, request, `/patients/card/${patient.id}?tab=visits&book=1`);
    const dialog = page.getByRole('dialog', { name: 'Umawianie wizyty' });
    await expect(dialog).toBeVisible();
    await chooseDay(dialog, day);
    await chooseSlot(dialog, '14:30');
    await expectAccessible(page, 'umawianie wizyty (telefon)');
    const noHorizontalScroll = await page.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(noHorizontalScroll).toBe(true);
    await dialog.getByRole('button', { name: 'Umów', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sekcja karty: Wizyty' })).toBeVisible();
    await expect(futureCards(page)).toHaveCount(1);
    await expect(futureCards(page).first()).toContainText('Godzina: 14:30–15:00');
    await expectAccessible(page, 'karta: wizyty (telefon)');
  });
});
