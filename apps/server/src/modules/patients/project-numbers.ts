import { desc, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patients } from '../../db/schema.js';

/** The series offered when no patient has a numbered project number yet: P-001, P-002, … */
const FIRST_SERIES = { prefix: 'P-', width: 3 };

/** A number's series: what comes before its trailing digits, and how many digits there are. */
function seriesOf(projectNumber: string): { prefix: string; width: number } | null {
  const match = /^(.*?)(\d+)$/.exec(projectNumber);
  return match ? { prefix: match[1]!, width: match[2]!.length } : null;
}

/**
 * The project number the registration wizard offers (ADR 041): the series of the latest
 * numbered patient (its prefix and digit count, "FDC-007" → "FDC-" and 3), the highest number
 * of that series among ALL patients (deleted ones too, so a deleted patient's number is never
 * offered again) plus one, and further while the number is taken among active patients (a
 * number typed by hand). Nothing is reserved: two wizards may be offered the same number, and
 * the unique index lets only the first registration keep it (the second hears
 * `project_number_taken` on the field).
 */
export async function nextProjectNumber(db: Queryable): Promise<{ project_number: string }> {
  const [latest] = await db
    .select({ project_number: patients.project_number })
    .from(patients)
    .where(sql`${patients.project_number} ~ '[0-9]$'`)
    .orderBy(desc(patients.id))
    .limit(1);
  const series = latest?.project_number ? seriesOf(latest.project_number) : null;
  if (!series)
    return { project_number: await firstFree(db, FIRST_SERIES.prefix, FIRST_SERIES.width, 1) };
  const { prefix, width } = series;
  const [highest] = await db
    .select({
      n: sql<
        string | null
      >`max(substring(${patients.project_number} from ${prefix.length + 1}::integer)::numeric)`,
    })
    .from(patients)
    .where(
      sql`left(${patients.project_number}, ${prefix.length}::integer) = ${prefix}
        and substring(${patients.project_number} from ${prefix.length + 1}::integer) ~ '^[0-9]{1,15}$'`,
    );
  const next = highest?.n == null ? 1 : Number(highest.n) + 1;
  return { project_number: await firstFree(db, prefix, width, next) };
}

/** The first number of the series from `from` whose key no active patient holds. */
async function firstFree(db: Queryable, prefix: string, width: number, from: number) {
  for (let start = from; ; start += 50) {
    const candidates = Array.from(
      { length: 50 },
      (_, i) => `${prefix}${String(start + i).padStart(width, '0')}`,
    );
    const list = sql.join(
      candidates.map((c) => sql`${c}`),
      sql`, `,
    );
    const rows = await db.execute(sql`
      select c.value from unnest(array[${list}]::text[]) with ordinality as c(value, n)
      where not exists (
        select 1 from ${patients} p
        where p.deleted_at is null and portal_participant_key(p.project_number) <> ''
          and portal_participant_key(p.project_number) = portal_participant_key(c.value))
      order by c.n
      limit 1`);
    const free = (rows as { rows: { value: string }[] }).rows[0];
    if (free) return free.value;
  }
}
