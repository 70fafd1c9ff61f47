import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/** The shipped configuration (shared settings defaults): other specs create samples with it. */
const DEFAULT_CONFIG = [
  'sex',
  'project_number',
  'unit_id',
  'next_probe_number',
  'group_id',
  'material_type_and_place',
];
/** The screen's example patient: M, participant 17, unit 3, 4th sample, group 2, Z + P. */
const DEFAULT_EXAMPLE = 'M17342ZP';
const SAVED = 'Zmiany zostały zapisane';
const EMPTY = 'Nie można zapisać pustej konfiguracji. Dodaj co najmniej jeden element.';

test.beforeEach(async ({ api }) => {
  await api.call('POST', '/settings/probe_config', { value: DEFAULT_CONFIG });
});
test.afterEach(async ({ api }) => {
  await api.call('POST', '/settings/probe_config', { value: DEFAULT_CONFIG });
});

const example = (page: Page) => page.getByTestId('probe-config-example');
const items = (page: Page) => page.getByTestId('probe-config-item');
const handle = (page: Page, label: string) =>
  page.getByRole('button', { name: new RegExp(`^Przeciągnij: ${label}, pozycja \\d+ z \\d+$`) });

async function openConfig(page: Page, request: Parameters<typeof openSignedIn>[1]) {
  await openSignedIn(page, request, '/settings/probe_config');
  await expect(page.getByRole('heading', { name: 'Konfiguracja numeru próbki' })).toBeVisible();
  await expect(example(page)).toHaveText(DEFAULT_EXAMPLE);
  await expect(items(page)).toHaveCount(DEFAULT_CONFIG.length);
}

/** Resolves after the browser has painted two more frames. */
async function nextFrames(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

/**
 * Waits until an element rests: its box is the same before and after two painted frames (the
 * sortable list animates parts into place after every move and drop).
 */
async function settled(page: Page, locator: Locator) {
  await expect
    .poll(async () => {
      const before = JSON.stringify(await locator.boundingBox());
      await nextFrames(page);
      return before === JSON.stringify(await locator.boundingBox());
    })
    .toBe(true);
}

/**
 * A pointer drag as a hand makes it: dnd-kit's pointer sensor starts after a few pixels, and the
 * list re-measures and animates as the part passes, so the pointer moves in steps, each painted
 * before the next, to the target's centre, and drops once the dragged part rests there.
 */
async function drag(page: Page, from: Locator, to: Locator) {
  // The parts still glide into place after the previous drop: measure once they rest.
  await settled(page, from);
  await settled(page, to);
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('drag: element not on screen');
  const x0 = start.x + start.width / 2;
  const y0 = start.y + start.height / 2;
  const x1 = end.x + end.width / 2;
  const y1 = end.y + end.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  const steps = 20;
  for (let step = 1; step <= steps; step += 1) {
    await page.mouse.move(x0 + ((x1 - x0) * step) / steps, y0 + ((y1 - y0) * step) / steps);
    await nextFrames(page);
  }
  await settled(page, from);
  await page.mouse.up();
}

test.describe('Konfiguracja numeru próbki', () => {
  // Both tests write the one probe_config setting (and restore it): never side by side.
  test.describe.configure({ mode: 'serial' });

  test('an administrator builds the number by keyboard, saves it and finds it after a reload', async ({
    page,
    request,
  }) => {
    await openConfig(page, request);
    await expectAccessible(page, 'konfiguracja numeru próbki');

    // Enter on a palette entry appends it.
    await page.getByRole('button', { name: 'Dodaj: Cyfra 0' }).focus();
    await page.keyboard.press('Enter');
    await expect(example(page)).toHaveText(`${DEFAULT_EXAMPLE}0`);
    await expect(items(page)).toHaveCount(7);

    // Picked up with Space, moved left six places with the arrow key, dropped with Space.
    await handle(page, 'Cyfra 0').focus();
    await page.keyboard.press('Space');
    for (let step = 0; step < 6; step += 1) {
      await page.keyboard.press('ArrowLeft');
      await settled(page, handle(page, 'Cyfra 0'));
    }
    await page.keyboard.press('Space');
    await expect(example(page)).toHaveText(`0${DEFAULT_EXAMPLE}`);
    await expect(items(page).first()).toHaveAttribute('data-part', '0');

    // The group number goes (its remove button, from the keyboard).
    await page.getByRole('button', { name: /^Usuń: Numer grupy/ }).focus();
    await page.keyboard.press('Enter');
    await expect(example(page)).toHaveText('0M1734ZP');

    await page.getByRole('button', { name: 'Zapisz' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(SAVED)).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Konfiguracja numeru próbki' })).toBeVisible();
    await expect(example(page)).toHaveText('0M1734ZP');
    await expect(items(page)).toHaveCount(6);
  });

  test('parts are dragged in from the palette and reordered by pointer; an empty number cannot be saved', async ({
    page,
    request,
    api,
  }) => {
    await openConfig(page, request);

    // The digit 9 dropped on the first part lands before it.
    await drag(page, page.getByRole('button', { name: 'Dodaj: Cyfra 9' }), items(page).first());
    await expect(example(page)).toHaveText(`9${DEFAULT_EXAMPLE}`);

    // "Płeć" (now second) dragged onto the first place.
    await drag(page, handle(page, 'Płeć'), items(page).first());
    await expect(example(page)).toHaveText('M917342ZP');
    await expect(items(page).first()).toHaveAttribute('data-part', 'sex');

    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    const stored = await api.call<{ data: { value: string[] } }>('GET', '/settings/probe_config');
    expect(stored.data.value).toEqual(['sex', '9', ...DEFAULT_CONFIG.slice(1)]);

    // Everything removed: Save is disabled and the screen says why.
    while ((await items(page).count()) > 0) {
      await page
        .getByRole('button', { name: /^Usuń: / })
        .first()
        .click();
    }
    await expect(example(page)).toHaveText('—');
    await expect(page.getByRole('alert').filter({ hasText: EMPTY })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Zapisz' })).toBeDisabled();
    await expectAccessible(page, 'konfiguracja numeru próbki: pusta');
  });
});
