import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS, validationMessages } from '@portal/shared';
import pl from './pl.json';
import { resources } from './resources';

/**
 * No screen renders a raw key (ADR 019): the login route carries only the catalogue's shell part
 * (pl.json), and the signed-in screens' part (pl.app.json) arrives before any lazily loaded screen
 * renders. So every key written in the code the entry reaches without a lazy import must be in the
 * shell part, and every key anywhere must be in the whole catalogue. These read the sources.
 */
const src = decodeURIComponent(new URL('..', import.meta.url).pathname);
const ENTRY = join(src, 'main.tsx');

type Catalogue = Record<string, unknown>;
const whole: Catalogue = resources.pl.translation;
const shell: Catalogue = { ...pl, validation: validationMessages.pl };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.(?:test|d)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const parsed = new Map<string, ts.SourceFile>();
function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

function walk(node: ts.Node, visit: (node: ts.Node) => void) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** A relative import's source file; packages, styles and catalogues are not code of ours. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const found = [`${base}.ts`, `${base}.tsx`, base, join(base, 'index.ts')].find(
    (path) => existsSync(path) && statSync(path).isFile(),
  );
  return found && /\.tsx?$/.test(found) ? found : null;
}

/** The files the entry loads with the login route: static imports only, types left out. */
function shellFiles(): Set<string> {
  const reached = new Set<string>();
  const queue = [ENTRY];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (reached.has(path)) continue;
    reached.add(path);
    for (const statement of parse(path).statements) {
      const typeOnly = ts.isImportDeclaration(statement)
        ? statement.importClause?.isTypeOnly === true
        : ts.isExportDeclaration(statement) && statement.isTypeOnly;
      if (
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        !typeOnly &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
      ) {
        const target = resolveImport(path, statement.moduleSpecifier.text);
        if (target) queue.push(target);
      }
    }
  }
  return reached;
}

const permissions = new Set<string>(PERMISSIONS);
const groups = new Set(Object.keys(whole));

/** Whether `node` is the first argument of a call to `t` (`t(…)`, `i18n.t(…)`). */
function translated(node: ts.Node): boolean {
  const call = ts.isTemplateHead(node) ? node.parent.parent : node.parent;
  if (!call || !ts.isCallExpression(call)) return false;
  const callee = call.expression;
  const named = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText();
  return named === 't' && call.arguments[0] === (ts.isTemplateHead(node) ? node.parent : node);
}

/**
 * Every string of the code that names a key (`'common.save'`) or the start of one
 * (`` `probe.status.${status}` ``): a catalogue group, a dot, a path; or any such string given to
 * `t`, so that a group missing from every part is found too. Permissions (`'patients.read'`) look
 * alike and are left out.
 */
function keysIn(path: string): string[] {
  const keys: string[] = [];
  walk(parse(path), (node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node)) {
      const group = /^(\w+)\.[\w.]*$/.exec(node.text)?.[1];
      if (group && (groups.has(group) || translated(node)) && !permissions.has(node.text)) {
        keys.push(node.text);
      }
    }
  });
  return keys;
}

const PLURALS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** A whole key names a text (or its plural forms); a key's start names a group of texts. */
function resolves(catalogue: Catalogue, key: string): boolean {
  const path = key.split('.');
  const last = path.pop()!;
  let node: unknown = catalogue;
  for (const step of path) {
    node = node && typeof node === 'object' ? (node as Catalogue)[step] : undefined;
  }
  if (!node || typeof node !== 'object') return false;
  const parent = node as Catalogue;
  if (last === '') return true; // `group.sub.${…}`: the group exists
  return (
    typeof parent[last] === 'string' ||
    PLURALS.some((form) => typeof parent[`${last}_${form}`] === 'string')
  );
}

const shellPaths = shellFiles();
const name = (path: string) => relative(src, path);

describe('catalogue parts: each key is there by the time its screen renders', () => {
  it('the login route reaches the shell code it should, and no screen', () => {
    const reached = [...shellPaths].map(name);
    expect(reached).toContain('features/auth/login-page.tsx');
    expect(reached).toContain('lib/api-errors.ts');
    expect(reached).not.toContain('app/app-layout.tsx');
    expect(reached.filter((path) => path.endsWith('-page.tsx'))).toEqual([
      'features/auth/login-page.tsx',
    ]);
  });

  it('every key the login route’s code names is in the shell part (pl.json)', () => {
    const missing = [...shellPaths].flatMap((path) =>
      keysIn(path)
        .filter((key) => !resolves(shell, key))
        .map((key) => `${name(path)}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('every key named anywhere is in the whole catalogue', () => {
    const all = sources(src);
    expect(all.length).toBeGreaterThan(100);
    const missing = all.flatMap((path) =>
      keysIn(path)
        .filter((key) => !resolves(whole, key))
        .map((key) => `${name(path)}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('the shell loads other code only through routes that await the app part first', () => {
    const lazyOutsideRoutes: string[] = [];
    for (const path of shellPaths) {
      walk(parse(path), (node) => {
        if (!ts.isCallExpression(node) || node.expression.kind !== ts.SyntaxKind.ImportKeyword) {
          return;
        }
        // i18n.ts fetches the catalogue parts themselves.
        if (name(path) === 'i18n/i18n.ts') return;
        // In routes.tsx, only as the loader given to `lazyPage`.
        const call = node.parent.parent;
        const inLazyPage =
          name(path) === 'routes.tsx' &&
          ts.isArrowFunction(node.parent) &&
          ts.isCallExpression(call) &&
          call.expression.getText() === 'lazyPage' &&
          call.arguments[0] === node.parent;
        if (!inLazyPage) lazyOutsideRoutes.push(`${name(path)}: ${node.getText()}`);
      });
    }
    expect(lazyOutsideRoutes).toEqual([]);

    // …and `lazyPage` resolves a screen only with the app's words.
    const routes = parse(join(src, 'routes.tsx'));
    let lazyPage = '';
    walk(routes, (node) => {
      if (ts.isVariableDeclaration(node) && node.name.getText() === 'lazyPage') {
        lazyPage = node.initializer?.getText() ?? '';
      }
    });
    expect(lazyPage).toMatch(/await Promise\.all\(\[load\(\), loadAppWords\(\)\]\)/);
  });

  it('finds a key missing from the shell part (the check can fail)', () => {
    expect(resolves(shell, 'auth.loginTitle')).toBe(true);
    expect(resolves(shell, 'nav.units')).toBe(false);
    expect(resolves(whole, 'nav.units')).toBe(true);
    expect(resolves(whole, 'monitoring.age')).toBe(true); // plural forms only
    expect(resolves(whole, 'probe.status.')).toBe(true);
    expect(resolves(whole, 'probe.nothing.')).toBe(false);
    expect(resolves(shell, 'validation.required')).toBe(true);
  });
});
