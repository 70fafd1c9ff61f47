import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, openSignedIn, test, unique } from '../fixtures.js';
import type { PortalApi } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const SAVED = 'Zmiany zostały zapisane';
const CONFIRM_DELETE = 'Czy na pewno chcesz usunąć wybrany element?';

interface Announcement {
  id: number;
}

/**
 * Announcements are global: only this file writes them, and its tests run one after another, so
 * each test may start from none.
 */
async function deleteAll(api: PortalApi) {
  const list = await api.call<{ data: Announcement[] }>('GET', '/notifications/global');
  for (const { id } of list.data) await api.call('DELETE', `/notifications/global/${id}`);
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const card = (page: Page, text: string) => page.getByRole('listitem').filter({ hasText: text });

async function typeInto(dialog: Locator, text: string) {
  const editor = dialog.getByRole('textbox', { name: 'Treść komunikatu' });
  await editor.click();
  await editor.press('ControlOrMeta+a');
  await editor.pressSequentially(text);
}

/** Closes a toast, so that the same message can be told apart when it comes again. */
async function dismissToast(page: Page, text: string) {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await toast.getByRole('button').click();
  await expect(toast).toHaveCount(0);
}

async function sendAndEditAndDelete(
  page: Page,
  request: APIRequestContext,
  api: PortalApi,
  screen: string,
) {
  await api.call('POST', '/notifications/global', { content: '<p>Starszy komunikat</p>' });
  if (screen === 'telefon') {
    await openSignedIn(page, request, '/messages');
  } else {
    await openSignedIn(page, request, '/doctors');
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await nav.getByRole('link', { name: 'Komunikaty', exact: true }).click();
  }
  await expect(page).toHaveURL(/\/messages$/);
  await expect(heading(page)).toHaveText('Komunikaty (1)');
  await expect(card(page, 'Starszy komunikat')).toContainText('Administrator');
  await expect(card(page, 'Starszy komunikat')).toContainText('Przeczytane przez: 0');
  await expect(card(page, 'Starszy komunikat')).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
  await expectAccessible(page, `komunikaty (${screen})`);

  // Send: the new one comes first and the count goes up by one.
  await page.getByRole('button', { name: 'Dodaj komunikat' }).click();
  const send = page.getByRole('dialog', { name: 'Nowy komunikat' });
  // Nothing typed: the field says it is required.
  await send.getByRole('button', { name: 'Wyślij' }).click();
  await expect(send.getByText('To pole musi być wypełnione')).toBeVisible();
  await typeInto(send, 'Przychodnia nieczynna w piątek.');
  await expectAccessible(page, `komunikaty: nowy (${screen})`);
  await send.getByRole('button', { name: 'Wyślij' }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(send).toBeHidden();
  await expect(heading(page)).toHaveText('Komunikaty (2)');
  await expect(page.getByRole('listitem').first()).toContainText('Przychodnia nieczynna w piątek.');
  await dismissToast(page, SAVED);

  // Edit by keyboard: the card is a button.
  await card(page, 'Przychodnia nieczynna').getByRole('button').focus();
  await page.keyboard.press('Enter');
  const edit = page.getByRole('dialog', { name: 'Edycja komunikatu' });
  await expect(edit.getByRole('textbox', { name: 'Treść komunikatu' })).toContainText(
    'Przychodnia nieczynna w piątek.',
  );
  await typeInto(edit, 'Przychodnia nieczynna w sobotę.');
  await expectAccessible(page, `komunikaty: edycja (${screen})`);
  await edit.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('listitem').first()).toContainText('w sobotę.');
  await expect(card(page, 'w piątek')).toHaveCount(0);
  await expect(heading(page)).toHaveText('Komunikaty (2)');

  // Delete, after the question.
  await card(page, 'w sobotę').getByRole('button').click();
  await edit.getByRole('button', { name: 'Usuń', exact: true }).click();
  await page
    .getByRole('dialog', { name: CONFIRM_DELETE })
    .getByRole('button', { name: 'Tak' })
    .click();
  await expect(page.getByText('Komunikat został usunięty')).toBeVisible();
  await expect(heading(page)).toHaveText('Komunikaty (1)');
  await expect(card(page, 'w sobotę')).toHaveCount(0);

  await card(page, 'Starszy komunikat').getByRole('button').click();
  await edit.getByRole('button', { name: 'Usuń', exact: true }).click();
  await page
    .getByRole('dialog', { name: CONFIRM_DELETE })
    .getByRole('button', { name: 'Tak' })
    .click();
  await expect(page.getByText('Brak komunikatów.')).toBeVisible();
  await expect(heading(page)).toHaveText('Komunikaty (0)');
  await expectAccessible(page, `komunikaty: pusto (${screen})`);
  // Nothing wider than the screen.
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

test.describe('Komunikaty', () => {
  test.beforeEach(async ({ api }) => deleteAll(api));

  test('an administrator sends, edits and deletes announcements', async ({
    page,
    request,
    api,
  }) => {
    await sendAndEditAndDelete(page, request, api, 'komputer');
  });

  test('a doctor edits the own announcements only', async ({ page, request, api }) => {
    const unit = await api.createUnit(unique('Poradnia Komunikatów'));
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    await api.call('POST', '/notifications/global', { content: '<p>Od administratora</p>' });
    await openSignedIn(page, request, '/messages', 'doctor', credentials);
    await expect(heading(page)).toHaveText('Komunikaty (1)');

    // Another sender's announcement opens read-only.
    await card(page, 'Od administratora').getByRole('button').click();
    const view = page.getByRole('dialog', { name: 'Komunikat' });
    await expect(view).toContainText('Od administratora');
    await expect(view.getByRole('textbox')).toHaveCount(0);
    await expect(view.getByRole('button', { name: 'Usuń' })).toHaveCount(0);
    await expectAccessible(page, 'komunikaty: podgląd (lekarz)');
    await view.getByRole('button', { name: 'Zamknij' }).first().click();
    await expect(view).toBeHidden();

    // The own one opens for editing, named by the doctor.
    await page.getByRole('button', { name: 'Dodaj komunikat' }).click();
    const send = page.getByRole('dialog', { name: 'Nowy komunikat' });
    await typeInto(send, 'Od lekarza');
    await send.getByRole('button', { name: 'Wyślij' }).click();
    await expect(heading(page)).toHaveText('Komunikaty (2)');
    const own = card(page, 'Od lekarza');
    await expect(own).toContainText(`${doctor.firstname} ${doctor.surname}`);
    await own.getByRole('button').click();
    const edit = page.getByRole('dialog', { name: 'Edycja komunikatu' });
    await expect(edit.getByRole('button', { name: 'Usuń', exact: true })).toBeVisible();
  });
});

test.describe('Podgląd komunikatu', () => {
  test.beforeEach(async ({ api }) => deleteAll(api));

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`the preview keeps paragraphs, lists and emphasis; the read count as written (${viewport.width} px)`, async ({
      page,
      request,
      api,
    }) => {
      await page.setViewportSize(viewport);
      await api.call('POST', '/notifications/global', {
        content:
          '<p>Pierwszy akapit</p><p>Drugi akapit z <strong>ważnym</strong> i <em>pochylonym</em></p><ul><li>punkt A</li><li>punkt B</li></ul>',
      });
      await openSignedIn(page, request, '/messages');
      const preview = card(page, 'Pierwszy akapit').getByRole('button');
      // Each paragraph and list item on its own line, the emphasis kept.
      await expect(preview.locator('strong')).toHaveText('ważnym');
      await expect(preview.locator('em')).toHaveText('pochylonym');
      const lines = await preview.evaluate((node) => {
        const tops = new Set<number>();
        for (const text of ['Pierwszy akapit', 'Drugi akapit', 'punkt A', 'punkt B']) {
          const span = [...node.querySelectorAll('span')].find((s) =>
            s.textContent?.startsWith(text),
          );
          if (span) tops.add(Math.round(span.getBoundingClientRect().top));
        }
        return tops.size;
      });
      expect(lines).toBe(4);
      await expect(preview.locator('span', { hasText: /^punkt A$/ })).toHaveCSS(
        'display',
        'list-item',
      );
      // "Przeczytane przez: 0" as written, not in capitals.
      const read = card(page, 'Pierwszy akapit').getByText('Przeczytane przez: 0');
      expect(await read.innerText()).toBe('Przeczytane przez: 0');
      await expectAccessible(page, `komunikaty: podgląd (${viewport.width} px)`);

      // The dialog shows the whole text.
      await preview.click();
      const view = page.getByRole('dialog', { name: 'Edycja komunikatu' });
      await expect(view).toContainText('punkt B');
    });
  }
});

test.describe('Komunikaty na telefonie', () => {
  test.use({ viewport: { width: 375, height: 812 } });
  test.beforeEach(async ({ api }) => deleteAll(api));

  test('an administrator sends, edits and deletes announcements on a phone', async ({
    page,
    request,
    api,
  }) => {
    await sendAndEditAndDelete(page, request, api, 'telefon');
  });
});
