import { createTheme, DEFAULT_THEME } from '@mantine/core';
import type { CSSVariablesResolver, MenuProps } from '@mantine/core';

/**
 * Breakpoints (docs/product-rules.md "Screens and layout": 600/960/1280/1560 px), in em as Mantine
 * expects. The colours meet WCAG 2.1 AA (4.5:1 for text) here, once, so that no screen has to fix
 * them on its own:
 * Mantine's default shade 6 gives white on blue 3.6:1 and its dimmed grey 3.3:1.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  // Filled buttons, links and active states: blue 8 is 5.0:1 under white text.
  primaryShade: { light: 8, dark: 8 },
  // Filled surfaces take black or white text, whichever reaches 4.5:1 on that colour (0.19 keeps
  // white on red 8 at 4.5:1 and turns green, teal and orange 8 to black text).
  autoContrast: true,
  luminanceThreshold: 0.19,
  defaultRadius: 'sm',
  breakpoints: {
    xs: '37.5em',
    sm: '60em',
    md: '80em',
    lg: '97.5em',
    xl: '120em',
  },
  components: {
    // Mantine's hidden focus placeholder is a role="presentation" child of role="menu", which
    // ARIA does not allow (axe: aria-required-children); without it the first item takes focus.
    // A plain object rather than Menu.extend(), which would bring the menu's code (popover,
    // floating UI) into the login route's chunks.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } satisfies Partial<MenuProps> },
  },
});

/** Text colours of the light scheme, dark enough for small text on white and on grey 0. */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const coloredText: Record<string, string> = {};
  for (const color of Object.keys(DEFAULT_THEME.colors)) {
    // `c="red"` and the like: shade 9 (red 9 is 5.2:1 on grey 0, shade 8 only 4.3:1).
    coloredText[`--mantine-color-${color}-text`] = `var(--mantine-color-${color}-9)`;
    // Light buttons and active nav links keep shade 9 text on a paler ground: blue 9 is 4.9:1 on
    // shade 1 when hovered (Mantine's shade 2 gave 4.0:1) and 5.5:1 on shade 0.
    coloredText[`--mantine-color-${color}-light`] = `var(--mantine-color-${color}-0)`;
    coloredText[`--mantine-color-${color}-light-hover`] = `var(--mantine-color-${color}-1)`;
  }
  return {
    variables: {},
    light: {
      ...coloredText,
      // Secondary text: grey 7 is 7.8:1 on grey 0 (grey 6 was 3.3:1 on white).
      '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
      // Field errors: red 6 was 3.3:1.
      '--mantine-color-error': 'var(--mantine-color-red-9)',
    },
    dark: {},
  };
};
