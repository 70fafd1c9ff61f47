import type { AuditVerifyAnswer } from '@portal/shared';
import type { SqlExecutor } from '../../db/client.js';

/** Entries checked per query: one index range of the primary key each. */
export const VERIFY_BATCH = 50_000;

/** The hash before the first entry (migration 0027). */
const GENESIS = '00'.repeat(32);

/**
 * The canonical entry of migration 0027's `audit_entry_hash(prev, e)` written out inline. The
 * function carries `SET search_path`, which keeps PostgreSQL from inlining it: called once per
 * entry it cost about two thirds of a verification (ADR 049's measurements). The same text here
 * is planned as one expression. Every hash the trigger wrote is compared with it, so a
 * difference between the two would show as a broken chain at once (records.test.ts); and a
 * function replaced by the owner no longer vouches for itself.
 */
const CANONICAL = `sha256(coalesce(lag(e.hash) over (order by e.id), decode($2::text, 'hex')) ||
  convert_to(concat_ws('|',
    e.id::text,
    to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    quote_nullable(e.user_id),
    quote_nullable(e.patient_id),
    quote_nullable(e.entity_name),
    quote_nullable(e.entity_id),
    quote_nullable(e.operation),
    quote_nullable(e.column_name),
    quote_nullable(encode(e.old_digest, 'hex')),
    quote_nullable(encode(e.new_digest, 'hex')),
    quote_nullable(e.source),
    quote_nullable(e.reason_code),
    quote_nullable(e.reason_text)), 'UTF8'))`;

/**
 * One batch after `after`, in id order (the chain's order: ids are drawn under the chain's lock,
 * migration 0027). Each entry's hash is recomputed from the stored hash before it (so every entry
 * is checked independently and an edit, an insertion or a deletion breaks the entry after it),
 * and each value still present must match its digest (a redacted value, set to null, keeps its
 * digest and the chain; ADR 049).
 */
const BATCH_SQL = `
  select min(id) filter (where not ok) as broken, count(*)::int as checked, max(id) as last_id,
         (array_agg(hash order by id desc))[1] as last_hash
  from (
    select e.id, e.hash,
      coalesce(
        e.hash = ${CANONICAL}
        and (e.old_value is null or e.old_digest = sha256(convert_to(e.old_value, 'UTF8')))
        and (e.new_value is null or e.new_digest = sha256(convert_to(e.new_value, 'UTF8'))),
        false) as ok
    from audit_entries e
    where e.id > $1
    order by e.id
    limit $3
  ) b`;

/** A hash in hex: both drivers answer bytea as bytes, and PGlite takes no text for a bytea. */
function asHex(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return String(value).replace(/^\\x/, '');
}

export interface VerifyProgress {
  (checked: number): void;
}

/**
 * Recomputes the whole chain and names the first entry that does not hold (ADR 049): a changed
 * entry, the entry after a removed or inserted one, or, when the newest entries were removed, the
 * chain head's last id. Streams the table in batches, so memory stays flat however long it is.
 */
export async function verifyAuditChain(
  db: SqlExecutor,
  onProgress?: VerifyProgress,
): Promise<AuditVerifyAnswer> {
  let after = 0;
  let prev = GENESIS;
  let checked = 0;
  for (;;) {
    const { rows } = await db.executeSql(BATCH_SQL, [after, prev, VERIFY_BATCH]);
    const row = rows[0];
    const count = Number(row?.checked ?? 0);
    if (!row || count === 0) break;
    if (row.broken !== null && row.broken !== undefined) {
      const broken = Number(row.broken);
      // Entries before the broken one in this batch held.
      const { rows: before } = await db.executeSql(
        'select count(*)::int as n from audit_entries where id > $1 and id < $2',
        [after, broken],
      );
      return {
        ok: false,
        checked: checked + Number(before[0]?.n ?? 0) + 1,
        first_broken_id: broken,
      };
    }
    checked += count;
    after = Number(row.last_id);
    prev = asHex(row.last_hash);
    onProgress?.(checked);
    if (count < VERIFY_BATCH) break;
  }
  // The head names the newest entry written: fewer entries means the newest ones were removed.
  const { rows: head } = await db.executeSql(
    'select last_id, last_hash from audit_chain_head where id = 1',
  );
  const last = head[0];
  if (last && last.last_id !== null && last.last_id !== undefined) {
    const lastId = Number(last.last_id);
    if (lastId !== after || asHex(last.last_hash) !== prev) {
      return { ok: false, checked, first_broken_id: lastId };
    }
  }
  return { ok: true, checked, first_broken_id: null };
}
