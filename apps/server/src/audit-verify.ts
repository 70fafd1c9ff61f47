import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { verifyAuditChain } from './modules/audit/index.js';

/**
 * `npm run audit:verify` (ADR 049): recomputes the audit trail's hash chain of the database the
 * server is configured for (DATA_DIR or DATABASE_URL) and prints `{ok, checked,
 * first_broken_id}`; exits 1 when the chain is broken. PGlite's directory is opened by one
 * process at a time: stop the server first (PostgreSQL needs no stop).
 */
async function main(): Promise<number> {
  const config = loadConfig(process.env, null);
  const database = await openDatabase(
    config.database.kind === 'pglite'
      ? { kind: 'pglite', dataDir: config.database.dataDir }
      : { kind: 'postgres', url: config.database.url, max: 1 },
  );
  try {
    const started = Date.now();
    const result = await verifyAuditChain(database, (checked) =>
      process.stderr.write(`checked ${checked}\r`),
    );
    process.stderr.write(`\n${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    console.log(JSON.stringify(result));
    return result.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
