import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(merged).light;

/** WCAG 2.1 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour a `var(--mantine-color-<name>-<shade>)` of the resolver stands for. */
function shadeOf(variable: string | undefined): string {
  const match = /^var\(--mantine-color-(\w+)-(\d)\)$/.exec(variable ?? '');
  if (!match) throw new Error(`not a palette shade: ${variable}`);
  return merged.colors[match[1]!]![Number(match[2])]!;
}

const WHITE = '#ffffff';
const GREY_0 = merged.colors.gray[0];
// The colours the screens use for filled buttons and badges, and for text (green only fills:
// Mantine's darkest green reaches 4.4:1 as text on white).
const USED = ['blue', 'red', 'green', 'gray'] as const;
const TEXT_USED = ['blue', 'red', 'gray'] as const;

describe('theme colours meet WCAG 2.1 AA for normal text (4.5:1)', () => {
  it('filled surfaces: the text colour Mantine picks (auto contrast) on the primary shade', () => {
    const shade = typeof merged.primaryShade === 'object' ? merged.primaryShade.light : 6;
    for (const color of USED) {
      const ground = merged.colors[color][shade];
      const text = luminance(ground) > merged.luminanceThreshold ? '#000000' : WHITE;
      expect(contrast(ground, text), color).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('dimmed, error and coloured text on white and on grey 0', () => {
    const texts = [
      light['--mantine-color-dimmed'],
      light['--mantine-color-error'],
      ...TEXT_USED.map((color) => light[`--mantine-color-${color}-text`]),
    ];
    for (const text of texts) {
      expect(contrast(shadeOf(text), WHITE), text).toBeGreaterThanOrEqual(4.5);
      expect(contrast(shadeOf(text), GREY_0), text).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('light buttons and active links, hovered or not', () => {
    for (const color of ['blue', 'red', 'gray'] as const) {
      const text = merged.colors[color][9];
      for (const ground of ['light', 'light-hover']) {
        const value = shadeOf(light[`--mantine-color-${color}-${ground}`]);
        expect(contrast(text, value), `${color} ${ground}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
