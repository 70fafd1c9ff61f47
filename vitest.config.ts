import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const shared = fileURLToPath(new URL('./packages/shared/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@portal/shared': shared } },
  test: {
    // Vitest's default leaves one core to its main process, which only waits here: on a two-core
    // machine that meant one worker for the whole run.
    maxWorkers: availableParallelism(),
    // Test files share their worker's loaded modules (Fastify, the app, PGlite's WebAssembly):
    // loading them again for every file cost about half of the run's CPU. Each server file still
    // has a database of its own; the files pass in any order (checked with shuffled runs).
    isolate: false,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'] },
      },
      {
        extends: true,
        // The repository's own documentation: what comments cite exists (docs/docs.test.ts).
        test: { name: 'docs', include: ['docs/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          // One migrated database per run; each API test file starts from a copy of it.
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: [
            'apps/server/src/test/fail-on-console-error.ts',
            'apps/server/src/test/minimal-hash-cost.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.ts'],
          // The same rule as the server's: a console.error during a test fails it.
          setupFiles: ['apps/server/src/test/fail-on-console-error.ts'],
        },
      },
    ],
  },
});
