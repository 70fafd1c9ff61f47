import type { Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const SAVED = 'Zmiany zostały zapisane';
/** A loopback port of this test's own SMTP server (ports 3260-3269 belong to notifications). */
const SMTP_PORT = 3265;
const ADDRESS = 'koordynator@badanie.test';

/** A real SMTP server on the loopback that keeps the recipients of what it received. */
function mailServer() {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  return {
    received,
    start: () => new Promise<void>((resolve) => server.listen(SMTP_PORT, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function openBell(page: Page) {
  const bell = page.getByRole('button', { name: /^Powiadomienia/ }).first();
  await expect(bell).toBeVisible();
  // The keyboard reaches it: focus, Enter.
  await bell.focus();
  await page.keyboard.press('Enter');
  const dropdown = page.getByRole('dialog', { name: 'Powiadomienia' });
  await expect(dropdown).toBeVisible();
  return dropdown;
}

async function savePreferences(page: Page, screen: string) {
  await expect(page.getByRole('heading', { name: 'Ustawienia powiadomień' })).toBeVisible();
  const safety = page.getByRole('checkbox', { name: 'Alert bezpieczeństwa pacjenta' });
  await expect(safety).toBeChecked();
  await expect(
    page.getByRole('checkbox', { name: 'Wynik laboratoryjny bez próbki' }),
  ).toBeChecked();
  const address = page.getByRole('textbox', { name: 'Adres e-mail do powiadomień' });
  await address.fill('nie-adres');
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, `ustawienia powiadomień: błąd (${screen})`);
  await address.fill(ADDRESS);
  await safety.uncheck();
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Adres e-mail do powiadomień' })).toHaveValue(
    ADDRESS,
  );
  await expect(
    page.getByRole('checkbox', { name: 'Alert bezpieczeństwa pacjenta' }),
  ).not.toBeChecked();
  await page.getByRole('checkbox', { name: 'Alert bezpieczeństwa pacjenta' }).check();
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await expectAccessible(page, `ustawienia powiadomień (${screen})`);
}

test.describe('Powiadomienia', () => {
  test('the bell, the own e-mail choices and the mail server with its test message', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, '/doctors');
    const list = await openBell(page);
    await expectAccessible(page, 'dzwonek powiadomień');
    await list.page().getByRole('link', { name: 'Ustawienia powiadomień' }).click();
    await expect(page).toHaveURL(/\/settings\/notifications$/);
    await savePreferences(page, 'komputer');

    // Settings › Serwer poczty.
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await nav.getByRole('button', { name: 'Ustawienia' }).click();
    await nav.getByRole('link', { name: 'Serwer poczty', exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/smtp$/);
    await expect(page.getByRole('heading', { name: 'Serwer poczty (SMTP)' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Serwer' }).fill('127.0.0.1');
    await page.getByRole('textbox', { name: 'Port' }).fill(String(SMTP_PORT));
    await page.getByRole('textbox', { name: 'Adres nadawcy' }).fill('portal@badanie.test');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText(SAVED).last()).toBeVisible();

    // Nothing listens yet: the test message says the server cannot be reached.
    await page.getByRole('button', { name: 'Wyślij wiadomość testową' }).click();
    await expect(
      page.getByText('Nie udało się połączyć z serwerem poczty', { exact: false }),
    ).toBeVisible();
    await expectAccessible(page, 'serwer poczty: błąd testu');

    const smtp = mailServer();
    await smtp.start();
    try {
      await page.getByRole('button', { name: 'Wyślij wiadomość testową' }).click();
      await expect(page.getByText(`Wiadomość testowa wysłana na ${ADDRESS}.`)).toBeVisible();
      expect(smtp.received).toEqual([ADDRESS]);
      await expectAccessible(page, 'serwer poczty');
    } finally {
      await smtp.stop();
    }
  });

  test('a doctor has the bell and the own choices, but no mail server', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/patients', 'doctor', credentials);
    const list = await openBell(page);
    await expect(list.getByText('Brak powiadomień.')).toBeVisible();
    await page.keyboard.press('Escape');
    const nav = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(nav.getByRole('link', { name: 'Serwer poczty' })).toHaveCount(0);
    await page.goto('/settings/notifications');
    await expect(
      page.getByRole('checkbox', { name: 'Wynik laboratoryjny bez próbki' }),
    ).toHaveCount(0);
    await expect(
      page.getByRole('checkbox', { name: 'Alert bezpieczeństwa pacjenta' }),
    ).toBeChecked();
    await expectAccessible(page, 'ustawienia powiadomień lekarza');
  });
});

test.describe('Powiadomienia na telefonie', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the bell in the header and the choices fit a phone', async ({ page, request }) => {
    await openSignedIn(page, request, '/doctors');
    await openBell(page);
    await expectAccessible(page, 'dzwonek na telefonie');
    await page.keyboard.press('Escape');
    await page.goto('/settings/notifications');
    await savePreferences(page, 'telefon');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
  });
});
