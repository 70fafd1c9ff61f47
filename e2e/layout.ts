import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

/**
 * The page fits its viewport: nothing scrolls sideways. Polled, because the shell animates its
 * navbar away when the viewport turns into a phone's, and the page is wider until it has.
 */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    )
    .toBeLessThanOrEqual(0);
}
