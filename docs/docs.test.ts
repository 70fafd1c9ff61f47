import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The repository explains itself: a comment cites an ADR or a page of docs/, never a document a
// maintainer does not have, and what it cites exists.
const root = decodeURIComponent(new URL('..', import.meta.url).pathname);
const SKIP = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report', 'data']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|sql|css|json|yml|yaml)$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name) || entry.name.startsWith('.ci')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return TEXT.test(entry.name) ? [path] : [];
  });
}

const files = walk(root).map((path) => ({
  path: relative(root, path),
  // Comments wrap: a citation may continue on the next comment line.
  text: readFileSync(path, 'utf8').replace(/\n\s*(\*|\/\/|--)?\s*/g, ' '),
}));

const decisions = readdirSync(join(root, 'docs/decisions'));
const headings = (page: string) =>
  new Set(
    [...readFileSync(join(root, 'docs', page), 'utf8').matchAll(/^#+ (.+)$|\*\*([^*]+)\*\*/gm)].map(
      (match) => (match[1] ?? match[2] ?? '').trim(),
    ),
  );
const pages: Record<string, Set<string>> = {
  'product-rules.md': headings('product-rules.md'),
  'api-conventions.md': headings('api-conventions.md'),
  'stack-notes.md': headings('stack-notes.md'),
};

describe('the repository explains itself', () => {
  it('cites no design or spec section a maintainer does not have', () => {
    // Built from parts so that this file does not match itself.
    const outside = new RegExp(
      ['design', 'spec'].map((word) => `${word} §`).join('|') + '|design\\.md',
    );
    expect(files.filter((file) => outside.test(file.text)).map((file) => file.path)).toEqual([]);
  });

  it('speaks of the contract through docs/, not of a specification a maintainer does not have', () => {
    // "the spec's order", "(spec: …)": say which rule instead (docs/product-rules.md "Fixed orders
    // and words", README "Glossary"). Test files named *.spec.ts are not meant.
    const word = 'spec';
    const spec = new RegExp(
      `\\bthe ${word}\\b|\\b${word}['’]s\\b|\\(${word}\\b|\\b${word} (message|toast|order|body|options|rule|texts|extensions|defaults)\\b`,
      'i',
    );
    const offending = files
      .filter((file) => file.path !== join('docs', 'docs.test.ts') && spec.test(file.text))
      .map((file) => file.path);
    expect(offending).toEqual([]);
  });

  it('cites only ADRs that exist', () => {
    const missing = files.flatMap((file) =>
      [...file.text.matchAll(/\bADRs? (\d{3})\b/g)]
        .map((match) => match[1] ?? '')
        .filter((number) => !decisions.some((name) => name.startsWith(`${number}-`)))
        .map((number) => `${file.path}: ADR ${number}`),
    );
    expect(missing).toEqual([]);
  });

  it('cites only sections of docs/ pages that exist', () => {
    const citation = /docs\/(product-rules|api-conventions|stack-notes)\.md((?:[\s,;]+"[^"]+")*)/g;
    const missing = files.flatMap((file) =>
      [...file.text.matchAll(citation)].flatMap((match) => {
        const known = pages[`${match[1] ?? ''}.md`] ?? new Set<string>();
        return [...(match[2] ?? '').matchAll(/"([^"]+)"/g)]
          .map((section) => section[1] ?? '')
          .filter((section) => !known.has(section))
          .map((section) => `${file.path}: ${match[1]}.md "${section}"`);
      }),
    );
    expect(missing).toEqual([]);
  });
});
