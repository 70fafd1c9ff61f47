import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { safetyRules } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { TestApp } from '../../test/harness.js';
import { loadReferenceRanges } from './queries.js';

/**
 * The migration seeds reference_ranges and safety_rules from data/reference-ranges.json. The
 * shipped file is not in this repository's CI, so a verbatim copy sits beside this test: the
 * seeded rows must say exactly what it says.
 */

interface Bounds {
  min?: number;
  max?: number;
  upper_limit?: number;
}
interface Entry extends Bounds {
  unit: string;
  male?: Bounds;
  female?: Bounds;
}
interface Shipped {
  biochemistry: (Entry & { analyte: string })[];
  drug_concentrations: (Entry & { drug: string })[];
  ecg: (Entry & { parameter: string })[];
  safety_rules: { id: string; meaning: string }[];
}

const shipped = JSON.parse(
  readFileSync(new URL('./reference-ranges.fixture.json', import.meta.url), 'utf8'),
) as Shipped;

function rowsOf(kind: 'biochemistry' | 'drug' | 'ecg', analyte: string, entry: Entry) {
  const row = (sex: 'M' | 'K' | null, bounds: Bounds) => ({
    kind,
    analyte,
    unit: entry.unit,
    sex,
    min: bounds.min ?? null,
    max: bounds.max ?? null,
    below: bounds.upper_limit ?? null,
  });
  if (entry.male || entry.female) {
    return [row('M', entry.male ?? {}), row('K', entry.female ?? {})];
  }
  return [row(null, entry)];
}

const key = (row: { kind: string; analyte: string; sex: string | null }) =>
  `${row.kind}/${row.analyte}/${row.sex ?? '-'}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('seeded reference ranges', () => {
  it('equal the shipped data/reference-ranges.json', async () => {
    const expected = [
      ...shipped.biochemistry.flatMap((e) => rowsOf('biochemistry', e.analyte, e)),
      ...shipped.drug_concentrations.flatMap((e) => rowsOf('drug', e.drug, e)),
      ...shipped.ecg.flatMap((e) => rowsOf('ecg', e.parameter, e)),
    ].sort((a, b) => key(a).localeCompare(key(b)));
    const seeded = (await loadReferenceRanges(t.db)).sort((a, b) => key(a).localeCompare(key(b)));
    expect(seeded).toEqual(expected);
  });

  it('hold the shipped safety rules, enabled, with the numbers of their definitions', async () => {
    const rows = await t.db.select().from(safetyRules).orderBy(asc(safetyRules.id));
    expect(rows.map((row) => [row.id, row.meaning, row.is_enabled])).toEqual(
      [...shipped.safety_rules]
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((rule) => [rule.id, rule.meaning, true]),
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, row.params]))).toEqual({
      hys_law: { alt_uln_factor: 3, ast_uln_factor: 3, bilirubine_uln_factor: 2 },
      qtcf_500: { limit_ms: 500 },
      qtcf_delta_60: { delta_ms: 60 },
    });
  });
});
