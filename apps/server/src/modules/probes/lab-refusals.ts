import type { LabErrorParams, LabRefusal } from '@portal/shared';
import { labErrorParams, labRefusal } from '@portal/shared';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { labMessages, unmatchedResults } from '../../db/schema.js';

/** The most shown on a sample's page: the newest matter, the rest are in the laboratory's log. */
const SHOWN = 10;

const paramsOf = (stored: unknown): LabErrorParams => {
  const parsed = labErrorParams.safeParse(stored ?? {});
  return parsed.success ? parsed.data : {};
};

/**
 * Why results of a sample did not reach it (ADR 032), newest first: the laboratory's messages
 * naming it that the connector refused since its results were last stored (a later stored
 * result supersedes them), and its results still waiting among the unmatched ones because the
 * laboratory's patient disagrees. Read straight from the tables the connector writes.
 */
export async function labRefusalsOf(
  db: Queryable,
  probe: { code: string; results_at: Date | null },
): Promise<LabRefusal[]> {
  const [refused, held] = await Promise.all([
    db
      .select({
        at: labMessages.received_at,
        code: labMessages.error_code,
        params: labMessages.error_params,
      })
      .from(labMessages)
      .where(
        and(
          eq(labMessages.status, 'rejected'),
          sql`${labMessages.probe_codes} @> array[${probe.code}]::text[]`,
          probe.results_at ? gt(labMessages.received_at, probe.results_at) : undefined,
        ),
      )
      .orderBy(desc(labMessages.received_at), desc(labMessages.id))
      .limit(SHOWN),
    db
      .select({
        at: unmatchedResults.created_at,
        code: unmatchedResults.reason,
        analyte: unmatchedResults.analyte,
      })
      .from(unmatchedResults)
      .where(
        and(
          eq(unmatchedResults.status, 'open'),
          eq(unmatchedResults.probe_code, probe.code),
          inArray(unmatchedResults.reason, ['sex_mismatch', 'birth_date_mismatch']),
        ),
      )
      .orderBy(desc(unmatchedResults.created_at), desc(unmatchedResults.id))
      .limit(SHOWN),
  ]);
  const refusals: LabRefusal[] = [];
  for (const row of refused) {
    const params = paramsOf(row.params);
    const parsed = labRefusal.safeParse({
      at: row.at.toISOString(),
      code: row.code ?? 'internal_error',
      analyte: params.analyte ?? null,
      params,
    });
    if (parsed.success) refusals.push(parsed.data);
  }
  for (const row of held) {
    refusals.push({
      at: row.at.toISOString(),
      code: row.code as 'sex_mismatch' | 'birth_date_mismatch',
      analyte: row.analyte,
      params: { probe_code: probe.code, analyte: row.analyte },
    });
  }
  return refusals.sort((a, b) => b.at.localeCompare(a.at)).slice(0, SHOWN);
}
