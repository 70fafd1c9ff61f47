import { ISO_WEEKDAYS, calendarWeekday, isWholeDayBlock } from '@portal/shared';
import type {
  CalendarCountQuery,
  CalendarDayCount,
  CalendarFiltersQuery,
  CalendarRule,
  CalendarRuleBody,
  CalendarRuleUpdateBody,
  CalendarRulesCount,
} from '@portal/shared';
import { and, asc, eq, gte, lte, or, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { unitCalendarRules } from '../../db/schema.js';
import { conflict, invalid, isUniqueViolation } from '../../lib/errors.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { reachRule } from '../../policies/calendar.js';
import type { RuleRow } from '../../policies/calendar.js';
import { reachUnit } from '../../policies/units.js';
import { guardBookedVisits } from './booked-visits.js';

function present(row: RuleRow): CalendarRule {
  return {
    id: row.id,
    unit_id: row.unit_id,
    date: row.date,
    started_at: row.started_at,
    ended_at: row.ended_at,
    type: row.type,
    is_global: row.is_global,
    version: row.version,
  };
}

/** Global rules first (they apply before the date's own), then by hours. */
const ruleOrder = [
  sql`${unitCalendarRules.is_global} desc`,
  asc(unitCalendarRules.started_at),
  asc(unitCalendarRules.ended_at),
  asc(unitCalendarRules.id),
];

/** An exact duplicate (same hours and operation on the date or weekday) is a 409. */
function duplicateAware<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    if (
      isUniqueViolation(error, 'unit_calendar_rules_date_key') ||
      isUniqueViolation(error, 'unit_calendar_rules_weekday_key')
    )
      throw conflict('exist_rule');
    throw error;
  });
}

/**
 * The rules of a date with the global rules of its weekday (docs/api-conventions.md "Unit calendar
 * rule").
 */
export async function rulesOfDay(
  db: Database,
  actor: Actor,
  { unit_id, date }: CalendarFiltersQuery,
): Promise<{ data: CalendarRule[] }> {
  await reachUnit(db, actor, unit_id);
  const rows = await db
    .select()
    .from(unitCalendarRules)
    .where(
      and(
        eq(unitCalendarRules.unit_id, unit_id),
        or(
          eq(unitCalendarRules.date, date),
          and(
            eq(unitCalendarRules.is_global, true),
            sql`extract(isodow from ${unitCalendarRules.date}) = ${calendarWeekday(date)}`,
          ),
        ),
      ),
    )
    .orderBy(...ruleOrder);
  return { data: rows.map(present) };
}

/**
 * Every day of the month that a rule applies to (the date's own or its weekday's global ones),
 * with the month's global rules by ISO weekday. A day is blocked when a whole-day block applies:
 * the date's own, or a global one that no rule of the date unblocks (a date's rules win,
 * docs/product-rules.md "Work hours and slots").
 */
export async function rulesCount(
  db: Database,
  actor: Actor,
  { unit_id, year, month }: CalendarCountQuery,
): Promise<CalendarRulesCount> {
  await reachUnit(db, actor, unit_id);
  const first = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = `${first.slice(0, 8)}${String(days).padStart(2, '0')}`;
  const rows = await db
    .select()
    .from(unitCalendarRules)
    .where(
      and(
        eq(unitCalendarRules.unit_id, unit_id),
        or(
          eq(unitCalendarRules.is_global, true),
          and(gte(unitCalendarRules.date, first), lte(unitCalendarRules.date, last)),
        ),
      ),
    )
    .orderBy(...ruleOrder);

  const global: Record<string, RuleRow[]> = Object.fromEntries(ISO_WEEKDAYS.map((d) => [d, []]));
  const byDate = new Map<string, RuleRow[]>();
  for (const row of rows) {
    if (row.is_global) global[String(calendarWeekday(row.date))]!.push(row);
    else byDate.set(row.date, [...(byDate.get(row.date) ?? []), row]);
  }

  const data: CalendarDayCount[] = [];
  for (let day = 1; day <= days; day++) {
    const date = `${first.slice(0, 8)}${String(day).padStart(2, '0')}`;
    const own = byDate.get(date) ?? [];
    const applying = [...global[String(calendarWeekday(date))]!, ...own];
    if (applying.length === 0) continue;
    const ownBlock = own.some(isWholeDayBlock);
    const globalBlock =
      own.every((r) => r.type !== 'enabled') &&
      global[String(calendarWeekday(date))]!.some(isWholeDayBlock);
    data.push({
      date,
      count: applying.length,
      started_at: applying.reduce((m, r) => (r.started_at < m ? r.started_at : m), '99'),
      ended_at: applying.reduce((m, r) => (r.ended_at > m ? r.ended_at : m), '00'),
      is_blocked: ownBlock || globalBlock,
    });
  }
  const global_rules = Object.fromEntries(
    ISO_WEEKDAYS.map((d) => [d, global[d]!.map(present)]),
  ) as CalendarRulesCount['global_rules'];
  return { data, global_rules };
}

/**
 * Adds a rule. One that closes hours of booked visits answers 409 `visits_booked` with them
 * unless `confirm_booked_visits` (ADR 041).
 */
export async function createRule(
  db: Database,
  actor: Actor,
  { confirm_booked_visits, ...body }: CalendarRuleBody,
  now: Date = new Date(),
): Promise<CalendarRule> {
  await reachUnit(db, actor, body.unit_id);
  return duplicateAware(() =>
    inTransaction(db, actor.userId, async (tx) => {
      await guardBookedVisits(tx, body.unit_id, null, body, !!confirm_booked_visits, now);
      const [row] = await tx.insert(unitCalendarRules).values(body).returning();
      return present(row!);
    }),
  );
}

/**
 * Changes the hours, operation, date or reach of a rule in its own unit. With `version` it is
 * claimed like every edit (ADR 018): a stale one answers 409 `conflict`. A change that closes
 * hours of booked visits answers 409 `visits_booked` unless confirmed (ADR 041).
 */
export async function updateRule(
  db: Database,
  actor: Actor,
  id: number,
  { unit_id, version, confirm_booked_visits, ...fields }: CalendarRuleUpdateBody,
  now: Date = new Date(),
): Promise<CalendarRule> {
  const existing = await reachRule(db, actor, id);
  if (unit_id !== undefined && unit_id !== existing.unit_id)
    throw invalid({ unit_id: ['invalid'] });
  return duplicateAware(() =>
    inTransaction(db, actor.userId, async (tx) => {
      await guardBookedVisits(
        tx,
        existing.unit_id,
        existing,
        { ...existing, ...fields },
        !!confirm_booked_visits,
        now,
      );
      await claimVersion(tx, unitCalendarRules, id, version, {
        set: { ...fields, updated_at: new Date() },
      });
      const [row] = await tx.select().from(unitCalendarRules).where(eq(unitCalendarRules.id, id));
      return present(row!);
    }),
  );
}

/**
 * Deletes a rule. Deleting an unblock closes its hours again: with booked visits in them it
 * answers 409 `visits_booked` unless confirmed (ADR 041).
 */
export async function deleteRule(
  db: Database,
  actor: Actor,
  id: number,
  confirmed = false,
  now: Date = new Date(),
): Promise<void> {
  const existing = await reachRule(db, actor, id);
  await inTransaction(db, actor.userId, async (tx) => {
    await guardBookedVisits(tx, existing.unit_id, existing, null, confirmed, now);
    await tx.delete(unitCalendarRules).where(eq(unitCalendarRules.id, id));
  });
}
