import { expect, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/**
 * The axe helper itself (ADR 065): it runs axe in the page when there is no frame and asks for
 * violations only. Both must still fail a screen that breaks a rule, in the page and in a frame.
 */
test.describe('Sprawdzenie dostępności', () => {
  test('a nameless button fails it, in the page and inside a frame', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByLabel('Login')).toBeVisible();
    await expectAccessible(page, 'logowanie');

    await page.evaluate(() => {
      const button = document.createElement('button');
      button.id = 'bez-nazwy';
      document.body.append(button);
    });
    const inPage = await expectAccessible(page, 'przycisk bez nazwy').then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(inPage).toContain('button-name');
    expect(inPage).toContain('#bez-nazwy');

    await page.evaluate(() => {
      document.getElementById('bez-nazwy')?.remove();
      const frame = document.createElement('iframe');
      frame.title = 'Ramka';
      frame.srcdoc = '<!doctype html><html lang="pl"><title>x</title><button></button></html>';
      document.body.append(frame);
    });
    await expect.poll(() => page.frames().length).toBe(2);
    await expect(page.frames()[1]!.locator('button')).toBeAttached();
    const inFrame = await expectAccessible(page, 'ramka z przyciskiem bez nazwy').then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(inFrame).toContain('button-name');
    expect(inFrame).toContain('iframe');
  });
});
