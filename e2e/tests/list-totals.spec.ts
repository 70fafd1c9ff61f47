import type { Page, Route } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/**
 * How the list widgets say a total that was capped or estimated (issue 8). Such totals need
 * 10,000 matches or a million rows, so the units list's answers are replaced here: the widget is
 * what is checked, the server's counting has its own tests.
 */
interface FakeTotal {
  total: number;
  total_kind: 'exact' | 'at_least' | 'estimate';
}

function units(page: number, limit: number) {
  return Array.from({ length: limit }, (_, i) => {
    const id = (page - 1) * limit + i + 1;
    return {
      id,
      name: `Poradnia ${id}`,
      street: 'Kardiologiczna',
      building_nr: '1',
      postcode: '00-001',
      city: 'Łódź',
      deleted_at: null,
      version: 1,
    };
  });
}

/** Answers GET /api/units with full pages and the given total; `hold` delays chosen pages. */
async function fakeUnits(page: Page, total: FakeTotal, hold?: (page: number) => Promise<void>) {
  await page.route(/\/api\/units\?/, async (route: Route) => {
    const url = new URL(route.request().url());
    const number = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    await hold?.(number);
    await route.fulfill({ json: { data: units(number, limit), ...total } });
  });
}

const rangeOf = (page: Page) => page.getByText(/^\d[\d\s,.]*–[\d\s,.]+ (z|of) /);

test.describe('Sumy list', () => {
  test('a capped total reads "10 000+", offers pages up to the cap and asks to narrow the filter', async ({
    page,
    request,
  }) => {
    await fakeUnits(page, { total: 10_000, total_kind: 'at_least' });
    await openSignedIn(page, request, '/units');
    await expect(rangeOf(page)).toHaveText('1–20 z 10 000+');
    await expect(
      page.getByText(
        'Wyników jest ponad 10 000. Zawęź wyszukiwanie lub filtry, aby zobaczyć pozostałe.',
      ),
    ).toBeVisible();
    const pager = page.getByRole('navigation', { name: 'Stronicowanie' });
    await expect(pager.getByRole('button', { name: 'Strona 500', exact: true })).toBeVisible();
    await expect(pager.getByRole('button', { name: 'Strona 501', exact: true })).toHaveCount(0);
    await pager.getByRole('button', { name: 'Strona 500', exact: true }).click();
    await expect(rangeOf(page)).toHaveText('9981–10 000 z 10 000+');
    await expect(pager.getByRole('button', { name: 'Następna strona' })).toBeDisabled();
    await expectAccessible(page, 'jednostki: 10 000+');
  });

  test('an estimate reads "ok. 3 800 000"; the shown range stays while the next page loads', async ({
    page,
    request,
  }) => {
    let release: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (release = resolve));
    await fakeUnits(page, { total: 3_800_000, total_kind: 'estimate' }, async (number) => {
      if (number === 2) await second;
    });
    await openSignedIn(page, request, '/units');
    await expect(rangeOf(page)).toHaveText('1–20 z ok. 3 800 000');
    const pager = page.getByRole('navigation', { name: 'Stronicowanie' });
    await pager.getByRole('button', { name: 'Następna strona' }).click();
    // Page 2 is asked for: page 1's rows, range and total stay, never 0.
    await expect(pager.getByRole('button', { name: 'Strona 2', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(rangeOf(page)).toHaveText('1–20 z ok. 3 800 000');
    await expect(page.getByText('Poradnia 1', { exact: true })).toBeVisible();
    release();
    await expect(rangeOf(page)).toHaveText('21–40 z ok. 3 800 000');
    await expect(page.getByText('Poradnia 21', { exact: true })).toBeVisible();

    // English says "about".
    await page.evaluate(() => localStorage.setItem('portal.lang', 'en'));
    await page.reload();
    await expect(rangeOf(page)).toHaveText('1–20 of about 3,800,000');
  });

  test('on a phone the cards show the same total', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await fakeUnits(page, { total: 10_000, total_kind: 'at_least' });
    await openSignedIn(page, request, '/units');
    await expect(page.getByRole('list', { name: 'Jednostki' }).getByRole('listitem')).toHaveCount(
      20,
    );
    await expect(rangeOf(page)).toHaveText('1–20 z 10 000+');
    await expect(page.getByText(/Zawęź wyszukiwanie lub filtry/)).toBeVisible();
    await expectAccessible(page, 'jednostki na telefonie: 10 000+');
  });
});
