import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, test, unique } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const END_BEFORE_START = 'To pole musi mieć wartość po lub równą czasie rozpoczęcia';
const SAVED = 'Zmiany zostały zapisane';

/** Today in Warsaw, and the Monday of the first full week of the next month (YYYY-MM-DD). */
function nextMonthMonday(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());
  const [year, month] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(month === 12 ? year + 1 : year, month % 12, 1));
  // 1 = Monday; the first Monday on or after the 1st.
  const offset = (8 - (first.getUTCDay() || 7)) % 7;
  first.setUTCDate(1 + offset);
  return first.toISOString().slice(0, 10);
}

function plusDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** DD.MM.YYYY, as the day buttons' names and the panel's title start. */
const shown = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

/** A day of the month grid, named "D[ zablokowany] (DD.MM.YYYY, Liczba reguł: N)". */
const dayButton = (page: Page, day: string) =>
  page.getByRole('button', { name: new RegExp(`\\(${shown(day).replaceAll('.', '\\.')},`) });

/** The name a day button has with `count` rules, blocked or not. */
const dayName = (day: string, count: number, blocked = false) =>
  `${Number(day.slice(8, 10))}${blocked ? ' zablokowany' : ''} (${shown(day)}, Liczba reguł: ${count})`;

/** A 24-hour time field (ADR 039): hours and minutes, each named after the field's label. */
const timeField = (scope: Locator, label: 'Od' | 'Do') => ({
  hours: scope.getByRole('spinbutton', { name: `${label}: godzina` }),
  minutes: scope.getByRole('spinbutton', { name: `${label}: minuty` }),
});

/** Types "HH:MM" into a time field: the hours, then the minutes. */
async function fillTime(scope: Locator, label: 'Od' | 'Do', time: string) {
  const [hours = '', minutes = ''] = time.split(':');
  const field = timeField(scope, label);
  await field.hours.fill(hours);
  await field.minutes.fill(minutes);
}

const panelTitle = (page: Page, weekday: string, day: string) =>
  page.getByRole('heading', { name: `${weekday}, ${shown(day)}` });

async function chooseDay(page: Page, day: string, weekday: string) {
  await dayButton(page, day).click();
  await expect(panelTitle(page, weekday, day)).toBeVisible();
}

test.describe('Kalendarz jednostki', () => {
  test('an administrator sets a unit’s hours: a weekday rule, a blocked day, edit and delete', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit(unique('Poradnia Rytmu'));
    await openSignedIn(page, request, '/units');
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(unit.name);
    await page.getByRole('link', { name: `Kalendarz dostępności: ${unit.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/units/calendar/${unit.id}$`));
    await expect(page.getByRole('heading', { name: `Godziny pracy (${unit.name})` })).toBeVisible();
    await expectAccessible(page, 'kalendarz jednostki');

    const monday = nextMonthMonday();
    const nextMonday = plusDays(monday, 7);
    const tuesday = plusDays(monday, 1);
    await page.getByRole('button', { name: 'Następny miesiąc' }).click();
    await chooseDay(page, monday, 'poniedziałek');
    await expect(page.getByText('Brak reguł w tym dniu')).toBeVisible();

    // A rule whose end is before its start: the fixed words under "Do", nothing saved.
    await page.getByRole('button', { name: 'Dodaj regułę' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dodaj regułę' });
    await expect(dialog).toBeVisible();
    // Empty, each field reads 24-hour "--:--" whatever the browser's language: no AM/PM.
    for (const label of ['Od', 'Do'] as const) {
      await expect(timeField(dialog, label).hours).toHaveAttribute('placeholder', '--');
      await expect(timeField(dialog, label).minutes).toHaveAttribute('placeholder', '--');
      await expect(timeField(dialog, label).hours).toHaveAttribute('aria-valuemax', '23');
    }
    await expect(dialog.getByText(/\b(AM|PM)\b/)).toHaveCount(0);
    await fillTime(dialog, 'Od', '16:00');
    await fillTime(dialog, 'Do', '15:00');
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(dialog.getByText(END_BEFORE_START)).toBeVisible();
    await expectAccessible(page, 'kalendarz: reguła z końcem przed początkiem');

    // Open hours after 16:00 on every Monday.
    await fillTime(dialog, 'Do', '18:00');
    await expect(dialog.getByRole('radio', { name: 'Odblokuj godziny' })).toBeChecked();
    await dialog
      .getByRole('switch', { name: 'Zastosuj do wszystkich takich dni tygodnia' })
      .check();
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();
    const rules = page.getByRole('list', { name: 'Reguły wybranego dnia' });
    await expect(rules.getByRole('listitem')).toHaveCount(1);
    await expect(rules).toContainText('Odblokowane');
    await expect(rules).toContainText('16:00–18:00');
    await expect(rules).toContainText('każdy dzień: poniedziałek');

    // Every Monday counts the rule: the next one's tooltip and name say so.
    await expect(dayButton(page, nextMonday)).toHaveAccessibleName(dayName(nextMonday, 1));
    await page.getByTestId(`day-${nextMonday}`).hover();
    await expect(page.getByRole('tooltip', { name: 'Liczba reguł: 1' })).toBeVisible();
    await expect(dayButton(page, tuesday)).toHaveAccessibleName(dayName(tuesday, 0));
    await expectAccessible(page, 'kalendarz: reguła tygodniowa');

    // Block the whole Tuesday: the badge shows; unblock it: the badge goes.
    await chooseDay(page, tuesday, 'wtorek');
    const wholeDay = page.getByRole('switch', { name: 'Zablokuj cały dzień' });
    await wholeDay.check();
    await expect(dayButton(page, tuesday)).toHaveAccessibleName(dayName(tuesday, 1, true));
    await expect(page.getByTestId(`day-${tuesday}`).getByText('zablokowany')).toBeVisible();
    await expect(rules).toContainText('Zablokowane');
    await expect(rules).toContainText('00:00–23:59');
    await expect(wholeDay).toBeChecked();
    await expectAccessible(page, 'kalendarz: dzień zablokowany');
    await wholeDay.uncheck();
    await expect(dayButton(page, tuesday)).toHaveAccessibleName(dayName(tuesday, 0));
    await expect(page.getByTestId(`day-${tuesday}`).getByText('zablokowany')).toHaveCount(0);
    await expect(page.getByText('Brak reguł w tym dniu')).toBeVisible();

    // Edit the Monday rule from another Monday, by keyboard: the day is chosen with Enter.
    await dayButton(page, nextMonday).focus();
    await page.keyboard.press('Enter');
    await expect(panelTitle(page, 'poniedziałek', nextMonday)).toBeVisible();
    await page.getByRole('button', { name: 'Edytuj regułę: Odblokowane 16:00–18:00' }).click();
    const edit = page.getByRole('dialog', { name: 'Edycja reguły' });
    await expect(timeField(edit, 'Od').hours).toHaveValue('16');
    await expect(timeField(edit, 'Od').minutes).toHaveValue('00');
    await fillTime(edit, 'Do', '17:00');
    await timeField(edit, 'Do').minutes.press('Enter');
    await expect(edit).toBeHidden();
    await expect(rules).toContainText('16:00–17:00');

    // The same rule again is refused in words.
    await page.getByRole('button', { name: 'Dodaj regułę' }).click();
    await fillTime(dialog, 'Od', '16:00');
    await fillTime(dialog, 'Do', '17:00');
    await dialog
      .getByRole('switch', { name: 'Zastosuj do wszystkich takich dni tygodnia' })
      .check();
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Taka reguła już istnieje w tym kalendarzu.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Anuluj' }).click();

    // Delete after the question.
    await page.getByRole('button', { name: 'Usuń regułę: Odblokowane 16:00–17:00' }).click();
    const question = page.getByRole('dialog', { name: 'Czy na pewno chcesz usunąć tę regułę?' });
    await expect(question).toBeVisible();
    await expectAccessible(page, 'kalendarz: pytanie o usunięcie');
    await question.getByRole('button', { name: 'Tak' }).click();
    await expect(page.getByText('Brak reguł w tym dniu')).toBeVisible();
    await expect(dayButton(page, monday)).toHaveAccessibleName(dayName(monday, 0));
  });

  test('a doctor opens the own unit’s calendar from the menu', async ({ page, request, api }) => {
    const unit = await api.createUnit(unique('Poradnia Lekarza'));
    const other = await api.createUnit(unique('Poradnia Obca'));
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/patients', 'doctor', credentials);
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await nav.getByRole('link', { name: 'Kalendarz jednostki' }).click();
    await expect(page.getByRole('heading', { name: `Godziny pracy (${unit.name})` })).toBeVisible();
    await expectAccessible(page, 'kalendarz lekarza');

    // The units list offers the calendar of the own unit only.
    await expect(nav.getByRole('link', { name: 'Jednostki', exact: true })).not.toHaveAttribute(
      'aria-current',
    );
    await nav.getByRole('link', { name: 'Jednostki', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(other.name);
    await expect(page.getByRole('row').filter({ hasText: other.name })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Kalendarz dostępności/ })).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(unit.name);
    await expect(
      page.getByRole('link', { name: `Kalendarz dostępności: ${unit.name}` }),
    ).toBeVisible();

    // Another unit's calendar is not found.
    await page.goto(`/units/calendar/${other.id}`);
    // The month and the day panel both say so.
    await expect(page.getByText('Nie znaleziono wskazanego elementu.').first()).toBeVisible();
  });
});

test.describe('Kalendarz jednostki na telefonie', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('a doctor blocks a day and adds a rule on a phone', async ({ page, request, api }) => {
    const unit = await api.createUnit(unique('Poradnia Mobilna'));
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/patients', 'doctor', credentials);
    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: 'Kalendarz jednostki' })
      .click();
    await expect(page.getByRole('heading', { name: `Godziny pracy (${unit.name})` })).toBeVisible();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );

    const monday = nextMonthMonday();
    await page.getByRole('button', { name: 'Następny miesiąc' }).click();
    await chooseDay(page, plusDays(monday, 2), 'środa');
    // The panel sits below the calendar.
    const calendarBox = await dayButton(page, monday).boundingBox();
    const panelBox = await panelTitle(page, 'środa', plusDays(monday, 2)).boundingBox();
    expect(panelBox!.y).toBeGreaterThan(calendarBox!.y);
    await page.getByRole('switch', { name: 'Zablokuj cały dzień' }).check();
    await expect(
      page.getByTestId(`day-${plusDays(monday, 2)}`).getByText('zablokowany'),
    ).toBeVisible();
    await expectAccessible(page, 'kalendarz na telefonie: dzień zablokowany');

    await page.getByRole('button', { name: 'Dodaj regułę' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dodaj regułę' });
    await fillTime(dialog, 'Od', '12:00');
    await fillTime(dialog, 'Do', '11:00');
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(dialog.getByText(END_BEFORE_START)).toBeVisible();
    await expectAccessible(page, 'kalendarz na telefonie: błąd reguły');
    await fillTime(dialog, 'Do', '13:00');
    await dialog.getByText('Zablokuj godziny').click();
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('list', { name: 'Reguły wybranego dnia' })).toContainText(
      '12:00–13:00',
    );
  });
});
