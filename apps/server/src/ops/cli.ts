import path from 'node:path';
import { loadConfig } from '../config.js';
import { backupPglite, backupPostgres, restore } from './backup.js';
import type { Target } from './backup.js';
import { moveToPostgres } from './move-to-postgres.js';

/**
 * The operator's commands (README "Backups"; ADR 058):
 *   npm run backup -- FILE              the database of DATA_DIR, or of DATABASE_URL
 *   npm run restore -- FILE             into an EMPTY DATA_DIR, or an EMPTY DATABASE_URL database
 *   npm run move-to-postgres -- --to postgres://…   DATA_DIR's database into an empty PostgreSQL
 * On PostgreSQL they connect as DATABASE_MIGRATION_URL's role when set (the owner reads every
 * table and may create them), else as DATABASE_URL's.
 */
const USAGE =
  'usage: npm run backup -- FILE | npm run restore -- FILE | npm run move-to-postgres -- --to URL';

function target(): Target {
  const config = loadConfig(process.env, null);
  if (config.database.kind === 'pglite') {
    if (!config.database.dataDir) throw new Error('DATA_DIR is not set');
    return { kind: 'pglite', dataDir: path.resolve(config.database.dataDir) };
  }
  return { kind: 'postgres', url: config.database.migrationUrl ?? config.database.url };
}

function describe(where: Target): string {
  if (where.kind === 'pglite') return `the embedded database in ${where.dataDir}`;
  const url = new URL(where.url);
  return `PostgreSQL database ${url.pathname.slice(1)} on ${url.host}`;
}

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (command === 'backup' || command === 'restore') {
    const file = args[0];
    if (!file || args.length > 1) throw new Error(USAGE);
    const where = target();
    const started = performance.now();
    if (command === 'backup') {
      const result =
        where.kind === 'pglite'
          ? await backupPglite(where.dataDir, file)
          : await backupPostgres(where.url, file);
      const tables = Object.keys(result.manifest.tables).length;
      console.log(
        `Backed up ${describe(where)} to ${file} (${tables} tables, migration ` +
          `${result.manifest.migration.tag ?? '-'}, ${Math.round(performance.now() - started)} ms). ` +
          `SHA-256 ${result.sha256} in ${file}.sha256`,
      );
    } else {
      const result = await restore(file, where);
      const rows = Object.values(result.tables).reduce((sum, table) => sum + table.rows, 0);
      console.log(
        `Restored ${file} into ${describe(where)}: ${Object.keys(result.tables).length} tables, ` +
          `${rows} rows, every count and checksum as in the backup ` +
          `(${Math.round(performance.now() - started)} ms).`,
      );
    }
    return;
  }
  if (command === 'move-to-postgres') {
    const index = args.indexOf('--to');
    const url = index >= 0 ? args[index + 1] : undefined;
    if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new Error(USAGE);
    const config = loadConfig({ ...process.env, DATABASE_URL: undefined }, null);
    const dataDir = config.database.kind === 'pglite' ? config.database.dataDir : null;
    if (!dataDir) throw new Error('DATA_DIR is not set');
    const result = await moveToPostgres(path.resolve(dataDir), url);
    console.log(
      `Moved ${path.resolve(dataDir)} to ${describe({ kind: 'postgres', url })}: ` +
        `${Object.keys(result.tables).length} tables, ${result.rows} rows, every count and ` +
        `checksum as in the source (${result.ms} ms). Start the portal with ` +
        `DATABASE_MIGRATION_URL=<this URL> and DATABASE_URL=<the app role's URL> (docs/deploy.md).`,
    );
    return;
  }
  throw new Error(USAGE);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
