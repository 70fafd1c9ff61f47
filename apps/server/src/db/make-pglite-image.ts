import { performance } from 'node:perf_hooks';
import { JobQueue } from '../jobs/queue.js';
import { migrationsFolder, openDatabase, runMigrations } from './client.js';
import { builtImage, currentManifest, writeImage } from './pglite-image.js';

/**
 * The server build's last step (`npm run build`): a migrated in-memory PGlite, with the same
 * extensions as every embedded database (openDatabase), with the job queue's schema installed,
 * dumped to dist/pglite-image.tar with its manifest, for the first start on an empty DATA_DIR
 * (ADR 020).
 */
async function main() {
  const started = performance.now();
  // Read before migrating: the manifest must describe exactly the files that were applied.
  const manifest = await currentManifest(migrationsFolder);
  const handle = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    await runMigrations(handle);
    // Started and stopped once as the app does, so that pg-boss's schema and its own queues
    // exist: otherwise the first start creates them. A newer pg-boss upgrades its schema at
    // start as on any existing database, so its version need not be in the manifest.
    const jobs = new JobQueue(
      { db: handle },
      { error: (details, message) => console.error(message, details) },
    );
    await jobs.start();
    await jobs.stop();
    await writeImage(await handle.dumpDataDir!(), manifest, builtImage);
  } finally {
    await handle.close();
  }
  const last = manifest.migrations.at(-1)?.tag ?? 'none';
  console.log(
    `PGlite image (migrated to ${last}) written in ${Math.round(performance.now() - started)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
