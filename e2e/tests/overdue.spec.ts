import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { e2eSeed } from '../seed.js';

const TITLE = 'Zaległe wizyty';

/** YYYY-MM-DD plus days (calendar arithmetic, no time zone involved). */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const formatDay = (day: string) => day.split('-').reverse().join('.');

test.describe('Zaległe wizyty', () => {
  test('a doctor of a unit without overdue patients sees the empty list', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/patients', 'doctor', credentials);
    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: TITLE })
      .click();
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await expect(page).toHaveURL(/\/visits\/overdue$/);
    await expect(page.getByText('Brak danych')).toBeVisible();
    // A doctor sees the own unit only: no unit filter.
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveCount(0);
    await expectAccessible(page, 'overdue visits, empty');
  });

  test('the seeded overdue patient is listed with the window and a link that books', async ({
    page,
    request,
  }) => {
    const seed = e2eSeed();
    await openSignedIn(page, request, '/visits/overdue', 'doctor', seed.doctor);
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    const table = page.getByRole('table', { name: TITLE });
    const row = table.getByRole('row').filter({ hasText: 'Zaległy Zenon' });
    await expect(row).toHaveCount(1);
    // Visit 2 is due 28 ± 3 days after the first visit.
    const first = seed.overdue.date;
    await expect(row).toContainText(formatDay(addDays(first, 28)));
    await expect(row).toContainText(
      `${formatDay(addDays(first, 25))} – ${formatDay(addDays(first, 31))}`,
    );
    await expect(row).toContainText(formatDay(first));
    await expectAccessible(page, 'overdue visits, one row');
    const book = row.getByRole('link', { name: 'Umów wizytę: Zaległy Zenon' });
    await expect(book).toHaveAttribute(
      'href',
      `/patients/card/${seed.overdue.patient_id}?tab=visits&book=1`,
    );
  });

  test('an administrator filters by unit, on a phone', async ({ page, request }) => {
    const seed = e2eSeed();
    await page.setViewportSize({ width: 375, height: 812 });
    await openSignedIn(page, request, '/visits/overdue');
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    const unit = page.getByRole('combobox', { name: 'Jednostka' });
    await unit.click();
    await unit.fill(seed.unit.name);
    await page.getByRole('option', { name: seed.unit.name }).click();
    const cards = page.getByRole('list', { name: TITLE });
    await expect(cards.getByRole('listitem')).toHaveCount(1);
    await expect(cards).toContainText('Zaległy Zenon');
    await expect(cards.getByRole('link', { name: 'Umów wizytę: Zaległy Zenon' })).toBeVisible();
    await expectAccessible(page, 'overdue visits, phone');
  });
});
