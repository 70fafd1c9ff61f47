import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { unitCalendarRules } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';
import { reachesUnit } from './units.js';

export type RuleRow = typeof unitCalendarRules.$inferSelect;

/** A calendar rule, when it exists and its unit is within the actor's reach; 404 otherwise. */
export async function reachRule(db: Queryable, actor: Actor, id: number): Promise<RuleRow> {
  const [row] = await db.select().from(unitCalendarRules).where(eq(unitCalendarRules.id, id));
  if (!row || !reachesUnit(actor, row.unit_id)) throw notFound();
  return row;
}
