import { AxeBuilder } from '@axe-core/playwright';
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

/**
 * Every WCAG 2.0 and 2.1 A and AA rule, the level the portal promises (issue 6), with axe's
 * experimental rules too: "Label in name" (WCAG 2.5.3, `label-content-name-mismatch`) is one.
 * The experimental tag also brings two best-practice rules, both of minor impact, which never
 * block.
 */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'experimental'];
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Asserts that axe finds no serious or critical WCAG 2.1 A/AA violation on what the page shows
 * now (open dialogs and menus included). `screen` names the state in the failure message, which
 * lists each rule with the elements that break it, so that a failure can be fixed from the
 * report alone.
 */
export async function expectAccessible(page: Page, screen: string) {
  let blocking = await blockingViolations(page);
  // A toast that starts to fade out while axe reads the page (its timer ran out meanwhile)
  // measures as faint text for that moment: a real violation is still there a moment later.
  if (blocking.length > 0) blocking = await blockingViolations(page);
  const report = blocking.map((v) => {
    const targets = v.nodes.slice(0, 5).map((node) => {
      const why = node.failureSummary?.split('\n')[1]?.trim() ?? '';
      return `    ${node.target.join(' ')}  ${why}`;
    });
    const more = v.nodes.length > 5 ? [`    … and ${v.nodes.length - 5} more`] : [];
    return [`  ${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}`, ...targets, ...more].join(
      '\n',
    );
  });
  expect(blocking.length, `axe on ${screen} (${page.url()}):\n${report.join('\n')}`).toBe(0);
}

async function blockingViolations(page: Page) {
  // Mantine fades dialogs, menus and toasts in and out; axe would measure contrast mid-fade.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  // The tag list goes in options() itself: options() replaces what withTags would have set.
  // Only violations are asked for in full: every rule still runs, but the passing and
  // inapplicable nodes are not collected and shipped back (ADR 065: a third of axe's time).
  const builder = new AxeBuilder({ page }).options({
    runOnly: { type: 'tag', values: AXE_TAGS },
    resultTypes: ['violations'],
  });
  // Without frames, axe runs in the page itself instead of gathering partial results and
  // finishing them in a second, blank tab (the builder's default), which cost half of each run
  // (ADR 065). A screen with a frame (the login details' PDF) keeps the default, which reaches
  // into frames.
  if (page.frames().length === 1) builder.setLegacyMode(true);
  const results = await builder.analyze();
  return results.violations.filter((v) => BLOCKING.has(v.impact ?? ''));
}
