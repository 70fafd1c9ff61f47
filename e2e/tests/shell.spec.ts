import type { Page, Response } from '@playwright/test';
import { ADMIN_LOGIN, ADMIN_PASSWORD } from '../env.js';
import { expect, openSignedIn, registerPatient, signInThroughUi, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/**
 * The budget of the login route's JavaScript on the wire, compressed, headers included. The
 * signed-in screens' words load apart (pl.app.json) since they outgrew it (ADR 019).
 */
const LOGIN_JS_BUDGET_BYTES = 200_000;
/** Its styles: Mantine's base and the login's components; the whole stylesheet is 30 KB alone. */
const LOGIN_CSS_BUDGET_BYTES = 20_000;
/** What the login route must not carry (ADR 019), by chunk name and by a string of its code. */
const NOT_ON_LOGIN = {
  names: /vendor-(?:editor|dates|dropzone)|credentials-modal|-page-|app-layout|\.app-/,
  code: {
    'rich-text editor': ['ProseMirror', '@mantine/tiptap/'],
    'date pickers': ['@mantine/dates/'],
    dropzone: ['@mantine/dropzone/'],
    'PDF viewer': ['dane-logowania.pdf'],
  },
};

/** Every script (or stylesheet) the page receives from now on, by path. */
function collectScripts(page: Page, type: 'script' | 'stylesheet' = 'script') {
  const scripts = new Map<string, Response>();
  page.on('response', (response) => {
    if (response.request().resourceType() === type) {
      scripts.set(new URL(response.url()).pathname, response);
    }
  });
  return scripts;
}

/** Bytes on the wire: the compressed body and the headers. */
async function transferred(response: Response) {
  const sizes = await response.request().sizes();
  return sizes.responseBodySize + sizes.responseHeadersSize;
}

test.describe('Układ na telefonie (poniżej 1280 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the bottom bar holds the menu and Więcej (change password and logout), and navigates', async ({
    page,
    request,
    api,
  }) => {
    // Logging out ends every session of the user: an administrator of this test's own.
    const { credentials } = await api.readyAdmin();
    const unit = await api.createUnit();
    await openSignedIn(page, request, '/doctors', 'admin', credentials);

    const bar = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(bar).toHaveCount(1); // no sidebar besides it
    await expect(bar.getByRole('link', { name: 'Lekarze' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expectAccessible(page, 'lekarze (telefon)');
    await expect(bar.getByRole('link', { name: 'Jednostki', exact: true })).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Więcej' })).toBeVisible();
    // The phone's bar: doctors, patients, units; administrators only in the desktop menu.
    await expect(bar.getByRole('link', { name: 'Administratorzy' })).toHaveCount(0);
    const box = await bar.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeGreaterThan(844 - 8);
    expect(box!.y).toBeGreaterThan(844 / 2);

    // Units: cards instead of a table, with the order chosen in a select.
    await bar.getByRole('link', { name: 'Jednostki', exact: true }).click();
    await expect(page).toHaveURL(/\/units$/);
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();
    await expect(bar.getByRole('link', { name: 'Jednostki', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(unit.name);
    const cards = page.getByRole('list', { name: 'Jednostki' });
    await expect(cards.getByRole('listitem').filter({ hasText: unit.name })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: 'Sortowanie' })).toBeVisible();
    await expectAccessible(page, 'jednostki (telefon)');

    // Change password and logout are in the drawer that "Więcej" opens (ADR 039).
    await bar.getByRole('button', { name: 'Więcej' }).click();
    await page
      .getByRole('dialog', { name: 'Menu' })
      .getByRole('link', { name: 'Zmień hasło' })
      .click();
    await expect(page).toHaveURL(/\/changepassword$/);
    await expect(page.getByRole('heading', { name: 'Zmiana hasła' })).toBeVisible();
    await expectAccessible(page, 'zmiana hasła (telefon)');

    await bar.getByRole('link', { name: 'Lekarze' }).click();
    await expect(page).toHaveURL(/\/doctors$/);
    await expect(page.getByRole('heading', { name: 'Lekarze' })).toBeVisible();

    await bar.getByRole('button', { name: 'Więcej' }).click();
    await page
      .getByRole('dialog', { name: 'Menu' })
      .getByRole('button', { name: 'Wyloguj się' })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Logowanie' })).toBeVisible();
    await expectAccessible(page, 'logowanie (telefon)');
  });

  test('the language switch is in the top strip', async ({ page, request }) => {
    await openSignedIn(page, request, '/units');
    await page.getByRole('radiogroup', { name: 'Język' }).getByText('EN', { exact: true }).click();
    const bar = page.getByRole('navigation', { name: 'Main menu' });
    await expect(bar.getByRole('link', { name: 'Units' })).toBeVisible();
    await expect(bar.getByRole('link', { name: 'Doctors' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Units' })).toBeVisible();
  });
});

test.describe('Układ na komputerze', () => {
  test('the sidebar shows the menu and navigates', async ({ page, request }) => {
    await openSignedIn(page, request, '/doctors');
    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    await expect(menu).toHaveCount(1); // no bottom bar besides it
    // Later screens add entries (patients, audit trail); these are the foundation's.
    for (const name of ['Lekarze', 'Administratorzy', 'Jednostki']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole('link', { name: 'Lekarze' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByText('Zalogowano jako koordynator')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Zmień hasło' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Wyloguj się' })).toBeVisible();
    const box = await menu.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeLessThan(40);

    await menu.getByRole('link', { name: 'Administratorzy' }).click();
    await expect(page).toHaveURL(/\/admins$/);
    await expect(page.getByRole('heading', { name: 'Administratorzy' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Administratorzy' })).toBeVisible();

    await menu.getByRole('link', { name: 'Jednostki', exact: true }).click();
    await expect(page).toHaveURL(/\/units$/);
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();

    await page.getByRole('link', { name: 'Zmień hasło' }).click();
    await expect(page).toHaveURL(/\/changepassword$/);
    await expect(page.getByRole('heading', { name: 'Zmiana hasła' })).toBeVisible();
  });

  test('English can be chosen, is remembered after a reload, and Polish comes back', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, '/units');
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');

    await page.getByRole('radiogroup', { name: 'Język' }).getByText('EN', { exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Units' })).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    for (const name of ['Doctors', 'Administrators', 'Units']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    // Forms speak English too, down to the validation messages.
    await page.getByRole('button', { name: 'Add unit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('This field is required')).toHaveCount(5);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Units' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'EN' })).toBeChecked();

    await page
      .getByRole('radiogroup', { name: 'Language' })
      .getByText('PL', { exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();
    const polishMenu = page.getByRole('navigation', { name: 'Menu główne' });
    for (const name of ['Lekarze', 'Administratorzy', 'Jednostki']) {
      await expect(polishMenu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  });

  test('the login screen can be switched to English as well', async ({ page }) => {
    const scripts = collectScripts(page);
    await page.goto('/login');
    await page.getByRole('radiogroup', { name: 'Język' }).getByText('EN', { exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    // Only the login route's English words: the signed-in screens' come after signing in (ADR 019).
    expect([...scripts.keys()].filter((path) => path.includes('.app-'))).toEqual([]);
  });
});

test.describe('Dostęp i sesja', () => {
  test('signed out, protected and unknown paths lead to the login screen', async ({ page }) => {
    for (const path of ['/units', '/doctors/create', '/nie-ma-takiej-strony', '/']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { name: 'Logowanie' })).toBeVisible();
    }
  });

  test('signed in, an unknown path leads to the landing page', async ({ page, request }) => {
    await openSignedIn(page, request, '/nie-ma-takiej-strony');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a deep link reloaded while signed in stays where it was', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    await openSignedIn(page, request, '/units');
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(unit.name);
    await expect(page.getByRole('row').filter({ hasText: unit.name })).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(/\/units$/);
    await expect(page.getByRole('heading', { name: 'Jednostki' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Jednostki' })).toBeVisible();
  });

  test('logout returns to the login screen and Back shows no data', async ({ page, api }) => {
    const { credentials } = await api.readyAdmin();
    const unit = await api.createUnit();

    await signInThroughUi(page, 'admin', credentials);
    await expect(page).toHaveURL(/\/dashboard$/);
    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    await menu.getByRole('link', { name: 'Jednostki', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Jednostki' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(unit.name);
    await expect(page.getByRole('row').filter({ hasText: unit.name })).toBeVisible();

    await page.getByRole('button', { name: 'Wyloguj się' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Logowanie' })).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Logowanie' })).toBeVisible();
    await expect(page.getByText(unit.name)).toHaveCount(0);
    await expect(page.getByRole('table')).toHaveCount(0);

    // Nothing remembered the session: a typed address leads to the login screen too.
    await page.goto('/units');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(unit.name)).toHaveCount(0);
  });

  test('when the session is ended elsewhere, the next request leads to the login screen', async ({
    page,
    request,
    api,
  }) => {
    const { admin, credentials } = await api.readyAdmin();
    await openSignedIn(page, request, '/doctors', 'admin', credentials);
    await expect(page.getByRole('heading', { name: 'Lekarze' })).toBeVisible();

    // Another administrator removes this account, which ends its sessions.
    await api.call('DELETE', `/admins/${admin.id}`);

    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: 'Jednostki', exact: true })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Logowanie' })).toBeVisible();
    await page.goto('/units');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('Powłoka aplikacji: kompresja, pamięć podręczna, podział kodu', () => {
  test('the login route loads only its own code, brotli-compressed, within the byte budget', async ({
    page,
  }) => {
    const scripts = collectScripts(page);
    const styles = collectScripts(page, 'stylesheet');
    const html = await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Logowanie' })).toBeVisible();
    await page.waitForLoadState('networkidle');

    // The document is asked for again on every load; it names the current hashed files.
    expect(html?.headers()['cache-control']).toBe('no-cache');
    expect(html?.headers()['content-encoding']).toBe('br');

    expect(scripts.size).toBeGreaterThan(0);
    let jsBytes = 0;
    for (const [path, response] of scripts) {
      expect(path).toMatch(/^\/assets\/[\w-]+-[\w-]{8}\.js$/);
      expect(path, 'a chunk the login route does not need').not.toMatch(NOT_ON_LOGIN.names);
      const headers = response.headers();
      expect(headers['content-encoding'], path).toBe('br');
      expect(headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      expect(headers.vary, path).toMatch(/accept-encoding/i);
      const code = await response.text();
      for (const [what, markers] of Object.entries(NOT_ON_LOGIN.code)) {
        for (const marker of markers) expect(code, `${what} in ${path}`).not.toContain(marker);
      }
      jsBytes += await transferred(response);
    }
    let cssBytes = 0;
    for (const [path, response] of styles) {
      expect(response.headers()['content-encoding'], path).toBe('br');
      cssBytes += await transferred(response);
    }
    console.log(`login route: JavaScript ${jsBytes} B in ${scripts.size} files, CSS ${cssBytes} B`);
    expect(jsBytes).toBeLessThanOrEqual(LOGIN_JS_BUDGET_BYTES);
    expect(cssBytes).toBeLessThanOrEqual(LOGIN_CSS_BUDGET_BYTES);
  });

  test('after signing in, the screens load their own chunks: the patient card its editor', async ({
    page,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);

    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Logowanie' })).toBeVisible();
    const scripts = collectScripts(page);
    await signInThroughUi(page, 'admin', { login: ADMIN_LOGIN, password: ADMIN_PASSWORD });
    await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();
    const afterSignIn = [...scripts.keys()];
    expect(afterSignIn.some((path) => path.includes('/app-layout-'))).toBe(true);
    expect(afterSignIn.some((path) => path.includes('/dashboard-page-'))).toBe(true);
    // The signed-in screens' words came with them (ADR 019).
    expect(afterSignIn.some((path) => path.includes('/pl.app-'))).toBe(true);
    expect(afterSignIn.some((path) => path.includes('/vendor-editor-'))).toBe(false);

    // Within the app (no reload): the list, then the card, each fetching its code on first use.
    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    // A slow network: while the patients screen's code is on its way a progress bar says so.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/patients-page-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await menu.getByRole('link', { name: 'Pacjenci' }).click();
    await expect(page.getByRole('progressbar', { name: 'Ładowanie…' })).toBeVisible();
    release();
    await expect(page.getByRole('progressbar', { name: 'Ładowanie…' })).toHaveCount(0);
    // The doctors list (with its own search box) stays until the patients screen's code arrives.
    await expect(page.getByRole('heading', { level: 1, name: 'Pacjenci' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(patient.pesel);
    await page.getByRole('link', { name: `Karta pacjenta: ${patient.surname} Zofia` }).click();
    await expect(page).toHaveURL(new RegExp(`/patients/card/${patient.id}$`));
    await expect(
      page.getByRole('heading', { level: 1, name: `${patient.surname} Zofia` }),
    ).toBeVisible();
    await page
      .getByRole('tablist', { name: 'Sekcje karty pacjenta' })
      .getByRole('tab', { name: 'Komentarze lekarza' })
      .click();

    const editor = [...scripts].find(([path]) => path.includes('/vendor-editor-'));
    expect(editor, 'the editor chunk arrives with the card').toBeDefined();
    expect(await editor![1].text()).toContain('ProseMirror');
    expect(editor![1].headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect([...scripts.keys()].some((path) => path.includes('/patient-card-page-'))).toBe(true);
  });
});
