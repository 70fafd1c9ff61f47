import type { BatchMode, ImportMode, ImportSuccess } from '@portal/shared';
import { warsawToday } from '@portal/shared';
import { eq } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { inTransaction, markAuditSource } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { importBatches } from '../../db/schema.js';
import { isUniqueViolation } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { medicineIdsByCode, loadMedicineCodes } from '../lab/index.js';
import { flushImports } from './batches.js';
import { OPTIONAL_COLUMNS, columnNames } from './columns.js';
import { importFailed } from './errors.js';
import { preparePatients, writePatients } from './patient-import.js';
import { checkResultsAgainstSamples, prepareResults, writeResults } from './results-import.js';
import { parsePool } from './read/read-in-worker.js';
import { ImportReadError } from './read/types.js';
import type { ImportRow, ImportTable, UploadedFile } from './read/types.js';

/** Where the import reports its progress: counts and ids only, never a row's content. */
export interface ImportLog {
  info: (details: object, message: string) => void;
}
const silentLog: ImportLog = { info: () => undefined };

/** Every table must name the mode's required columns in its first row. */
function headerErrors(mode: BatchMode, tables: ImportTable[]): string[] {
  const required =
    mode === 'patient_data'
      ? ['firstname', 'surname', 'pesel', 'phone_number', 'unit_id', 'doctor_id', 'subgroup_id']
      : ['probe_code', 'analyte', 'value'];
  const known = new Set([...columnNames(mode), ...OPTIONAL_COLUMNS[mode].map(([name]) => name)]);
  const errors: string[] = [];
  for (const table of tables) {
    // HL7, ODM and results XML files always arrive in the results layout.
    if (table.kind !== 'table') {
      if (mode === 'patient_data') errors.push(`${table.file}: Nieprawidłowy rodzaj pliku`);
      continue;
    }
    for (const column of required) {
      if (!table.columns.includes(column))
        errors.push(`${table.file}, wiersz 1, kolumna ${column}: To pole musi być wypełnione`);
    }
    for (const column of table.columns) {
      if (column && !known.has(column))
        errors.push(`${table.file}, wiersz 1, kolumna ${column}: Niektóre pola są nieprawidłowe`);
    }
  }
  return errors;
}

/**
 * One upload, all or nothing: the files are read and every row checked before anything is
 * written; then one transaction with the administrator as actor writes the batch with bulk
 * inserts. Any error answers 422 `{status:"error", errors}` and leaves no row behind.
 */
export async function runImport(
  db: Database,
  actor: Actor,
  mode: ImportMode,
  files: UploadedFile[],
  log: ImportLog = silentLog,
): Promise<ImportSuccess> {
  if (mode === 'flush') {
    return { status: 'success', batch_id: null, imported: await flushImports(db, actor) };
  }
  // Taken before the read: the files' bytes move to the reading worker.
  const fileList = files.map((f) => ({ name: f.name, size: f.data.length }));
  log.info(
    { files: files.length, bytes: fileList.reduce((sum, f) => sum + f.size, 0) },
    'import: reading files',
  );
  const readStarted = performance.now();
  let tables: ImportTable[];
  try {
    // HL7 v2 XML names a drug by its CAS number or INN, as the connector's messages do.
    const drugCodes =
      mode === 'results' ? medicineIdsByCode(await loadMedicineCodes(db)) : undefined;
    // Read in a worker thread, so that parsing a large file holds no other request (ADR 036).
    tables = await parsePool().read(files, { drugCodes }, (details, message) =>
      log.info(details, message),
    );
  } catch (error) {
    if (error instanceof ImportReadError) throw importFailed(error.errors);
    throw error;
  }
  const rows: ImportRow[] = tables.flatMap((t) => t.rows);
  // Phase times (ADR 036): which phase holds the server's thread shows in the log.
  log.info(
    {
      files: files.length,
      rows: rows.length,
      read_ms: Math.round(performance.now() - readStarted),
    },
    'import: files read',
  );
  const header = headerErrors(mode, tables);
  if (header.length) throw importFailed(header);

  if (mode === 'patient_data') {
    const { prepared, errors } = await preparePatients(db, rows);
    if (errors.length) throw importFailed(errors);
    try {
      return await inTransaction(db, actor.userId, async (tx) => {
        await markAuditSource(tx, 'patient_import');
        const [batch] = await tx
          .insert(importBatches)
          .values({ mode, files: fileList, counts: {}, created_by: actor.userId })
          .returning({ id: importBatches.id });
        log.info({ batch_id: batch!.id, mode, rows: prepared.length }, 'import: writing a batch');
        const writeStarted = performance.now();
        const imported = { patients: await writePatients(tx, batch!.id, prepared) };
        await tx.update(importBatches).set({ counts: imported }).where(eqId(batch!.id));
        written(log, batch!.id, writeStarted);
        return { status: 'success' as const, batch_id: batch!.id, imported };
      });
    } catch (error) {
      // Another import or a registration took a PESEL or e-mail since the check: nothing stays.
      if (
        isUniqueViolation(error, 'patients_pesel_key') ||
        isUniqueViolation(error, 'patients_email_lower_key')
      ) {
        throw importFailed(['Pacjent o podanym adresie e-mail lub peselu już istnieje.']);
      }
      throw error;
    }
  }

  const { prepared, errors } = prepareResults(rows, warsawToday());
  const checked = await checkResultsAgainstSamples(db, prepared);
  if (errors.length || checked.errors.length) throw importFailed([...errors, ...checked.errors]);
  return inTransaction(db, actor.userId, async (tx) => {
    await markAuditSource(tx, 'import');
    const [batch] = await tx
      .insert(importBatches)
      .values({ mode, files: fileList, counts: {}, created_by: actor.userId })
      .returning({ id: importBatches.id });
    log.info({ batch_id: batch!.id, mode, rows: prepared.length }, 'import: writing a batch');
    const writeStarted = performance.now();
    const imported = await writeResults(tx, batch!.id, prepared, checked.probesByCode);
    await tx.update(importBatches).set({ counts: imported }).where(eqId(batch!.id));
    written(log, batch!.id, writeStarted);
    return { status: 'success' as const, batch_id: batch!.id, imported };
  });
}

/** The write's time, logged before the commit (which the request's own time includes). */
function written(log: ImportLog, batchId: number, since: number): void {
  log.info(
    { batch_id: batchId, write_ms: Math.round(performance.now() - since) },
    'import: batch written',
  );
}

function eqId(id: number) {
  return eq(importBatches.id, id);
}
