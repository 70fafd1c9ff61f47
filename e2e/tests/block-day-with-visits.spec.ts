import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/** Blocking a day that has booked visits warns and lists them first; they stay visible (ADR 041). */

const warsawToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A Monday–Friday at least two days ahead, so a morning slot is never in the past. */
function comingWeekday(): string {
  let day = addDays(warsawToday(), 2);
  while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) day = addDays(day, 1);
  return day;
}

const shown = (day: string) => day.split('-').reverse().join('.');
const weekday = (day: string) =>
  new Intl.DateTimeFormat('pl', { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );
/** The booking calendar's name of a day: "24 listopada 2026". */
const dayLabel = (day: string) =>
  new Intl.DateTimeFormat('pl', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));

/** Moves a month grid from today's month to the day's, then chooses the day. */
async function toMonthOf(scope: Page | Locator, day: string) {
  const today = warsawToday();
  const steps =
    Number(day.slice(0, 4)) * 12 +
    Number(day.slice(5, 7)) -
    (Number(today.slice(0, 4)) * 12 + Number(today.slice(5, 7)));
  for (let i = 0; i < steps; i += 1)
    await scope.getByRole('button', { name: 'Następny miesiąc' }).click();
}

for (const { width, height, label } of [
  { width: 1440, height: 900, label: 'komputer' },
  { width: 390, height: 844, label: 'telefon' },
]) {
  test.describe(`Blokowanie dnia z umówionymi wizytami (${label})`, () => {
    test.use({ viewport: { width, height } });

    test('the warning lists the booked visits, and they stay visible after the block', async ({
      page,
      request,
      api,
    }) => {
      const unit = await api.createUnit();
      const { doctor } = await api.readyDoctor(unit.id);
      const patient = await registerPatient(api, doctor, { personal: { firstname: 'Halina' } });
      const day = comingWeekday();
      await api.call('POST', '/visits', { patient_id: patient.id, date: day, started_at: '10:00' });

      await openSignedIn(page, request, `/units/calendar/${unit.id}`);
      await toMonthOf(page, day);
      await page
        .getByRole('button', { name: new RegExp(`\\(${shown(day).replaceAll('.', '\\.')},`) })
        .click();
      await expect(
        page.getByRole('heading', { name: `${weekday(day)}, ${shown(day)}` }),
      ).toBeVisible();
      const dayVisits = page.getByRole('list', { name: 'Umówione wizyty tego dnia' });
      await expect(dayVisits.getByRole('listitem')).toHaveText([
        `10:00–10:30 ${patient.surname} Halina`,
      ]);
      await expectAccessible(page, 'kalendarz: dzień z umówioną wizytą');

      // Blocking the day: the server names the visit, the screen asks first.
      await page.getByRole('switch', { name: 'Zablokuj cały dzień' }).click();
      const question = page.getByRole('dialog', {
        name: 'Na te godziny są umówione wizyty (1). Czy na pewno zablokować?',
      });
      await expect(question).toBeVisible();
      await expect(
        question.getByRole('list', { name: 'Umówione wizyty w blokowanych godzinach' }),
      ).toHaveText(`${shown(day)}, 10:00–10:30: ${patient.surname} Halina`);
      await expectAccessible(page, 'kalendarz: pytanie o umówione wizyty');

      // "Anuluj" leaves the day open.
      await question.getByRole('button', { name: 'Anuluj' }).click();
      await expect(question).toBeHidden();
      await expect(page.getByRole('switch', { name: 'Zablokuj cały dzień' })).not.toBeChecked();
      const open = await api.call<{ data: unknown[] }>(
        'GET',
        `/units/calendar/get_by_filters?unit_id=${unit.id}&date=${day}`,
      );
      expect(open.data).toEqual([]);

      // Confirmed, the day is blocked and the visit is still listed.
      await page.getByRole('switch', { name: 'Zablokuj cały dzień' }).click();
      await page.getByRole('button', { name: 'Zablokuj mimo to' }).click();
      await expect(page.getByRole('switch', { name: 'Zablokuj cały dzień' })).toBeChecked();
      await expect(page.getByText('Zablokowane', { exact: true })).toBeVisible();
      await expect(dayVisits.getByRole('listitem')).toHaveText([
        `10:00–10:30 ${patient.surname} Halina`,
      ]);
      await expectAccessible(page, 'kalendarz: zablokowany dzień z wizytą');

      // The booking dialog shows the visit as booked in the blocked hours, not hidden.
      const other = await registerPatient(api, doctor);
      await page.goto(`/patients/card/${other.id}?tab=visits&book=1`);
      const dialog = page.getByRole('dialog', { name: 'Umawianie wizyty' });
      await expect(dialog).toBeVisible();
      await toMonthOf(dialog, day);
      await dialog.getByRole('button', { name: dayLabel(day), exact: true }).click();
      await expect(
        dialog.getByRole('button', {
          name: `10:00 – Halina ${patient.surname} (umówiona w zablokowanych godzinach)`,
        }),
      ).toBeDisabled();
      await expectAccessible(page, 'umawianie wizyty: dzień zablokowany z wizytą');
    });
  });
}
