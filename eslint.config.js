import js from '@eslint/js';
import { fileURLToPath } from 'node:url';
import boundaries from 'eslint-plugin-boundaries';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The server imports './x.js' for './x.ts' (NodeNext); this resolver follows that for boundaries. */
const serverResolver = fileURLToPath(new URL('./scripts/eslint-resolve-ts.cjs', import.meta.url));

/**
 * The server's app layer: what composes the modules (app.ts, main.ts, the demo, the bench, test
 * helpers). config.ts and app-deps.ts stand beside app.ts but belong to the core: every layer
 * reads them.
 */
const serverApp = {
  element: { types: 'server-app', fileInternalPath: ['!(config|app-deps).ts', '*/**'] },
};

/** A server module is used through its entry file, never through its inner files (ADR 047). */
const serverModuleEntryOnly = {
  disallow: {
    to: { element: { types: 'server-module', fileInternalPath: '!index.ts' } },
  },
  message:
    'Import another server module through its entry file (modules/{{to.element.captured.module}}/index.ts), not its inner files (ADR 047).',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'apps/server/drizzle/**',
      'test-results/**',
      'playwright-report/**',
      '.ci-out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'it', property: 'only', message: 'Do not commit focused tests.' },
        { object: 'describe', property: 'only', message: 'Do not commit focused tests.' },
        { object: 'test', property: 'only', message: 'Do not commit focused tests.' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Imports flow one way in the web app: shared -> entities -> features -> app (ADR 014).
    // Shared code (components, lib, api, i18n, @portal/shared) imports only shared code; an
    // entity (entities/<name>: one record type's hooks, formatters and the dialogs several
    // screens open) imports shared code and entities; a feature imports shared code, entities
    // and its own files, never another feature nor the app; the app composes everything.
    // Anything in apps/web/src that no element below describes counts as app, so a new folder is
    // closed to features until it is classified. Tested in apps/web/src/lint-boundaries.test.ts.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': [
        {
          type: 'web-shared',
          pattern: 'apps/web/src/(components|lib|api|i18n)',
          capture: ['layer'],
          partialMatch: false,
        },
        {
          type: 'web-entity',
          pattern: 'apps/web/src/entities/*',
          capture: ['entity'],
          partialMatch: false,
        },
        {
          type: 'web-feature',
          pattern: 'apps/web/src/features/*',
          capture: ['feature'],
          partialMatch: false,
        },
        { type: 'web-app', pattern: 'apps/web/src', partialMatch: false },
        { type: 'shared-package', pattern: 'packages/shared', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // A local file no element describes is refused too, rather than silently allowed.
          checkUnknownLocals: true,
          policies: [
            {
              from: { element: { types: { anyOf: ['web-shared'] } } },
              allow: { to: { element: { types: { anyOf: ['web-shared', 'shared-package'] } } } },
            },
            {
              from: { element: { types: { anyOf: ['web-entity'] } } },
              allow: {
                to: {
                  element: { types: { anyOf: ['web-shared', 'web-entity', 'shared-package'] } },
                },
              },
            },
            {
              from: { element: { types: { anyOf: ['web-feature'] } } },
              allow: {
                to: {
                  element: { types: { anyOf: ['web-shared', 'web-entity', 'shared-package'] } },
                },
              },
            },
            {
              from: { element: { types: { anyOf: ['web-app'] } } },
              allow: {
                to: {
                  element: {
                    types: {
                      anyOf: [
                        'web-app',
                        'web-feature',
                        'web-entity',
                        'web-shared',
                        'shared-package',
                      ],
                    },
                  },
                },
              },
            },
          ],
        },
      ],
      // The web app has no path aliases; one added later must first be taught to the resolver
      // above, or the boundaries rule could not see where it leads.
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^[@~]/', message: 'No path aliases in the web app.' }] },
      ],
    },
  },
  {
    // Server modules have a public surface (ADR 047). What a module under
    // apps/server/src/modules/<name>/ offers the rest of the server is exported from its
    // index.ts; everything else there is its own. The core below the modules (db, lib, plugins,
    // policies, jobs, config.ts, app-deps.ts) imports no module and nothing of the app; a module
    // imports other modules' entries and the core, never the app (app.ts, main.ts, the demo, the
    // bench, test helpers), which composes them. Modules import each other without cycles
    // (import-x/no-cycle, type-only imports aside). Tested in apps/server/src/lint-modules.test.ts.
    files: ['apps/server/src/**/*.ts'],
    plugins: { boundaries, 'import-x': importX },
    settings: {
      'import/resolver': { [serverResolver]: {} },
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Packages cannot import the server back: the cycle search stays in this repository.
      'import-x/ignore': ['node_modules'],
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': [
        {
          type: 'server-module',
          pattern: 'apps/server/src/modules/*',
          capture: ['module'],
          partialMatch: false,
        },
        {
          type: 'server-core',
          pattern: 'apps/server/src/(db|lib|plugins|policies|jobs)',
          partialMatch: false,
        },
        { type: 'server-app', pattern: 'apps/server/src', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            serverModuleEntryOnly,
            {
              from: { element: { types: 'server-core' } },
              disallow: { to: [{ element: { types: 'server-module' } }, serverApp] },
              message:
                'The server core (db, lib, plugins, policies, jobs) imports no module and no app file (ADR 047).',
            },
            {
              from: { element: { types: 'server-module' } },
              disallow: { to: serverApp },
              message:
                'A server module imports no app file (app.ts, main.ts, demo, bench, test helpers) (ADR 047).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests build the app and use the test helpers, wherever they stand; another module's inner
    // files stay closed to them too.
    files: ['apps/server/src/**/*.test.ts'],
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: [serverModuleEntryOnly] }],
    },
  },
  {
    // Nothing imports a test file, so the cycle search starts from the code alone.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Every write transaction names its actor for the audit triggers: inTransaction() in
    // db/client.ts is the one place that opens a transaction (ADR 006).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message:
            'Open transactions with inTransaction(db, actorUserId, work) from db/client.ts, which sets the audit actor.',
        },
        {
          selector: "CallExpression[callee.property.value='transaction']",
          message:
            'Open transactions with inTransaction(db, actorUserId, work) from db/client.ts, which sets the audit actor.',
        },
      ],
    },
  },
  {
    // Fastify plugins are async by contract even when they only declare routes.
    files: ['apps/server/src/modules/*/routes.ts', 'apps/server/src/modules/*/*-routes.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.config.ts', 'scripts/**', 'docs/**/*.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS on purpose: ESLint's resolver interface loads it with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
