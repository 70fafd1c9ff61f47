import { auditColumnKind, hiddenAuditColumns, isAuditReferenceKind } from '@portal/shared';
import type { AuditReferenceKind } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditEntries } from '../../db/schema.js';

/**
 * The entries a reader never sees (keys, versions, bookkeeping; ADR 042), left out by the query
 * itself so that a page holds as many readable entries as it says.
 */
export const visibleEntries: SQL = sql`(${auditEntries.entity_name}, ${auditEntries.column_name}) not in (${sql.join(
  hiddenAuditColumns().map(([entity, column]) => sql`(${entity}, ${column})`),
  sql`, `,
)})`;

/** What an entry's changed record is called: the tables whose rows a reader knows by a name. */
const RECORD_KINDS = {
  probes: 'probe',
  probe_medicines: 'probe_medicine',
  patient_medicines: 'patient_medicine',
  patient_additional_medicines: 'additional_medicine',
  visits: 'visit',
  probe_set_kits: 'kit',
  unmatched_results: 'unmatched',
  files: 'file',
} as const;
type RecordKind = (typeof RECORD_KINDS)[keyof typeof RECORD_KINDS];
type NameKind = AuditReferenceKind | RecordKind;

/** One arm of the names query: the name of each id of one kind. */
const ARMS: Record<NameKind, (ids: SQL) => SQL> = {
  // A doctor's or patient's name; administrators have only their login.
  user: (ids) => sql`select u.id, coalesce(d.surname || ' ' || d.firstname,
      p.surname || ' ' || p.firstname, u.login) as name
    from users u left join doctors d on d.user_id = u.id left join patients p on p.user_id = u.id
    where u.id = any(${ids})`,
  doctor: (ids) => sql`select id, surname || ' ' || firstname from doctors where id = any(${ids})`,
  patient: (ids) =>
    sql`select id, surname || ' ' || firstname from patients where id = any(${ids})`,
  unit: (ids) => sql`select id, name from units where id = any(${ids})`,
  medicine: (ids) => sql`select id, name from medicines where id = any(${ids})`,
  group: (ids) =>
    sql`select id, nr || ': ' || name from inclusion_criteria_groups where id = any(${ids})`,
  subgroup: (ids) => sql`select id, name from inclusion_criteria_subgroups where id = any(${ids})`,
  exclusion: (ids) => sql`select id, name from exclusion_criteria where id = any(${ids})`,
  carrier: (ids) => sql`select id, name from carriers where id = any(${ids})`,
  probe: (ids) => sql`select id, code from probes where id = any(${ids})`,
  visit: (
    ids,
  ) => sql`select id, to_char(date, 'DD.MM.YYYY') || ' ' || to_char(started_at, 'HH24:MI')
    from visits where id = any(${ids})`,
  kit: (ids) => sql`select id, kit_number || coalesce(' (' || tracking_code || ')', '')
    from probe_set_kits where id = any(${ids})`,
  probe_medicine: (ids) => sql`select pm.id, p.code || ' · ' || m.name from probe_medicines pm
    join probes p on p.id = pm.probe_id join medicines m on m.id = pm.medicine_id
    where pm.id = any(${ids})`,
  patient_medicine: (ids) => sql`select pm.id, m.name from patient_medicines pm
    join medicines m on m.id = pm.medicine_id where pm.id = any(${ids})`,
  additional_medicine: (ids) =>
    sql`select id, name from patient_additional_medicines where id = any(${ids})`,
  unmatched: (ids) =>
    sql`select id, probe_code || ' · ' || analyte from unmatched_results where id = any(${ids})`,
  file: (ids) => sql`select id, original_name from files where id = any(${ids})`,
};

export interface AuditRow {
  user_id: number | null;
  entity_name: string;
  entity_id: string | null;
  column_name: string;
  old_value: string | null;
  new_value: string | null;
}

export interface EntryNames {
  user: string | null;
  record: string | null;
  old_name: string | null;
  new_name: string | null;
}

const INTEGER = /^\d{1,9}$/;

function recordKind(entity: string): RecordKind | undefined {
  return Object.hasOwn(RECORD_KINDS, entity)
    ? RECORD_KINDS[entity as keyof typeof RECORD_KINDS]
    : undefined;
}

/**
 * The names a page of entries refers to (its authors, the ids in its values, its records), in
 * one query for the whole page: one `union all` arm per kind that occurs, each a lookup by
 * primary key. A name not found (a deleted record) stays null.
 */
export async function namesOf(db: Database, rows: AuditRow[]): Promise<EntryNames[]> {
  const wanted = new Map<NameKind, Set<number>>();
  const want = (kind: NameKind | undefined, value: string | number | null) => {
    if (!kind || value === null) return;
    const text = String(value);
    if (!INTEGER.test(text)) return;
    const ids = wanted.get(kind) ?? new Set<number>();
    ids.add(Number(text));
    wanted.set(kind, ids);
  };
  const valueKind = (row: AuditRow) => {
    const kind = auditColumnKind(row.entity_name, row.column_name);
    return isAuditReferenceKind(kind) ? kind : undefined;
  };
  for (const row of rows) {
    want('user', row.user_id);
    want(recordKind(row.entity_name), row.entity_id);
    want(valueKind(row), row.old_value);
    want(valueKind(row), row.new_value);
  }
  const names = new Map<string, string>();
  if (wanted.size > 0) {
    const arms = [...wanted].map(
      ([kind, ids]) =>
        sql`select ${kind}::text as kind, q.* from (${ARMS[kind](
          sql`array[${sql.join(
            [...ids].map((id) => sql`${id}`),
            sql`, `,
          )}]::int[]`,
        )}) as q(id, name)`,
    );
    const result: unknown = await db.execute(sql.join(arms, sql` union all `));
    for (const found of (result as { rows: { kind: string; id: number; name: string }[] }).rows) {
      names.set(`${found.kind}:${found.id}`, found.name);
    }
  }
  const nameOf = (kind: NameKind | undefined, value: string | number | null) =>
    kind && value !== null ? (names.get(`${kind}:${value}`) ?? null) : null;
  return rows.map((row) => ({
    user: nameOf('user', row.user_id),
    record: nameOf(recordKind(row.entity_name), row.entity_id),
    old_name: nameOf(valueKind(row), row.old_value),
    new_name: nameOf(valueKind(row), row.new_value),
  }));
}
