import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, isNotNull } from 'drizzle-orm';
import { patients } from '../db/schema.js';
import { addDemoImports, demoImportRows } from './imports.js';
import { columnNames } from '../modules/imports/index.js';
import { csvOf } from '../test/import-fixture.js';
import { createTestApp } from '../test/harness.js';
import type { TestApp } from '../test/harness.js';

/** The example a user can try on a fresh demo (unit 1, its doctor 1), kept in the repository. */
const EXAMPLE = new URL('../../../../docs/examples/import-pacjenci.csv', import.meta.url);
const exampleCsv = () =>
  `${csvOf(columnNames('patient_data'), demoImportRows({ unit_id: 1, doctor_id: 1 }, 9_880))}\n`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('demo imports', () => {
  it('imports 50 example patients as one batch', async () => {
    const admin = await t.readyAdmin();
    const unit = await t.unit();
    await t.doctor(unit.id);
    expect(await addDemoImports(t.db, admin.session.user.id)).toBe(50);
    const [row] = await t.db
      .select({ n: count() })
      .from(patients)
      .where(isNotNull(patients.import_batch_id));
    expect(row!.n).toBeGreaterThanOrEqual(50);
  });

  it('docs/examples/import-pacjenci.csv is the generated example (UPDATE_EXAMPLES=1 rewrites it)', async () => {
    if (process.env.UPDATE_EXAMPLES) await writeFile(EXAMPLE, exampleCsv());
    expect(await readFile(EXAMPLE, 'utf8')).toBe(exampleCsv());
  });
});
