import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import pino from 'pino';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { builtImage } from './db/pglite-image.js';
import { migrateDatabase } from './db/roles.js';
import { firstAdminNotice } from './lib/first-admin-notice.js';
import { resolveSecretKey } from './lib/secrets.js';
import { NodeLifecycle } from './lib/lifecycle.js';

const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main() {
  const config = loadConfig(process.env, existsSync(webRoot) ? webRoot : null);
  // Fastify and every feature module load while the database opens: file reads, PGlite's
  // WebAssembly compilation and the image's writes run off the main thread (ADR 020).
  const modules = Promise.all([import('./app.js'), import('./modules/admins/index.js')]);
  modules.catch(() => undefined); // awaited below; a failed open must not also report this
  const database = await openDatabase(
    config.database.kind === 'pglite'
      ? { kind: 'pglite', dataDir: config.database.dataDir, image: builtImage }
      : { kind: 'postgres', url: config.database.url },
  );
  const databaseWarnings = await migrateDatabase(
    database,
    config.database.kind === 'postgres' ? config.database.migrationUrl : null,
  );

  // The key is needed to build the app, whose log then reports how it was found.
  const keyWarnings: [object, string][] = [];
  const secretKey = await resolveSecretKey(config, {
    warn: (details, message) => keyWarnings.push([details, message]),
  });
  const [{ buildApp }, { ensureInitialAdmin }] = await modules;
  const lifecycle = new NodeLifecycle();
  // The initial administrator's password hash (argon2 on the thread pool) overlaps building the
  // app; both settle before either failure stops the start, so no write is cut off half-way.
  const [built, ensured] = await Promise.allSettled([
    buildApp({ db: database.db, config, jobs: { db: database }, secretKey, lifecycle }),
    ensureInitialAdmin(database.db, config.initialAdmin),
  ]);
  if (built.status === 'rejected') throw built.reason;
  if (ensured.status === 'rejected') throw ensured.reason;
  const app = built.value;
  const initial = ensured.value;
  for (const [details, message] of keyWarnings) app.log.warn(details, message);
  for (const message of databaseWarnings) app.log.warn(message);
  if (database.image === 'unpacked')
    app.log.info('empty data directory: started from the migrated database image of the build');
  else if (database.image === 'stale' || database.image === 'missing')
    app.log.warn(
      { image: database.image },
      'empty data directory and no fitting database image (npm run build makes one): ' +
        'the embedded database was created from scratch',
    );
  if (initial.created && !initial.generatedPassword) {
    app.log.info({ login: initial.login }, 'first administrator created from the environment');
  }
  if (!config.webRoot)
    app.log.warn('web app not built (apps/web/dist missing): serving the API only');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Draining (ADR 056): not ready at once, every answer closes its connection; after the
    // delay (SIGTERM from a process manager; an operator's Ctrl-C does not wait) the node stops
    // listening, so the proxy's next connection goes to another node.
    lifecycle.startDraining();
    const delay = signal === 'SIGTERM' ? config.drainDelayMs : 0;
    app.log.info({ signal, drainDelayMs: delay }, 'shutting down');
    try {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      await app.close(); // stops accepting, lets running requests and jobs finish
      await database.close(); // CHECKPOINT and close for PGlite
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    // Since the process started (performance's time origin): the cold start of ADR 020.
    { url: config.publicUrl, database: database.kind, startMs: Math.round(performance.now()) },
    'study portal ready',
  );
  if (initial.created && initial.generatedPassword) {
    // Printed once to the console and not into the structured log, as the last lines of the
    // start, where it is seen (ADR 040): written to the logger's own output stream, after every
    // line logged before it (pino writes asynchronously; process.stdout would overtake them).
    writeAfterLog(
      app.log,
      firstAdminNotice(initial.login, initial.generatedPassword, config.publicUrl),
    );
  }
}

/** Writes text to the logger's destination (pino's stream; Fastify's type does not show it). */
function writeAfterLog(log: object, text: string) {
  const stream = (log as Record<symbol, unknown>)[pino.symbols.streamSym] as
    { write?: (chunk: string) => unknown } | undefined;
  if (typeof stream?.write === 'function') stream.write(text);
  else process.stdout.write(text);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
