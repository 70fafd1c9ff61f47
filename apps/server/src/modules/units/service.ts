import type { Unit, UnitBody, UnitListQuery, UnitUpdateBody } from '@portal/shared';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { units } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import { offsetOf, orderBy, searchAny } from '../../lib/listing.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { unitCondition } from '../../policies/units.js';

type UnitRow = typeof units.$inferSelect;

function present(row: UnitRow): Unit {
  return {
    id: row.id,
    name: row.name,
    street: row.street,
    building_nr: row.building_nr,
    postcode: row.postcode,
    city: row.city,
    deleted_at: row.deleted_at?.toISOString() ?? null,
    version: row.version,
  };
}

const sortable = { id: units.id, name: units.name };

/** The text a unit search looks in, as one expression: the trigram index of migration 0010. */
const unitSearchText = sql`${units.name} || ' ' || ${units.street} || ' ' || ${units.city} || ' ' || ${units.postcode}`;

/** One table, no join to defer: the page is read by the (name, id) or primary key index. */
export async function listUnits(db: Database, query: UnitListQuery) {
  const where = searchAny(query.search, [unitSearchText]);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(units)
      .where(where)
      .orderBy(...orderBy(sortable, query.order_by, query.order_direction, units.id))
      .limit(query.limit)
      .offset(offsetOf(query.page, query.limit)),
    listTotal(db, {
      key: totalKey('units', { search: query.search || undefined }),
      rows: () => db.select({ id: units.id }).from(units).where(where),
      ...(where ? {} : { unfilteredTable: 'units' }),
    }),
  ]);
  return pagedAnswer(rows.map(present), total);
}

/**
 * Units that can be chosen in forms: not deleted, by name; with an actor, only those within its
 * reach (policies/units.ts), for the unit filters of lists.
 */
export async function allUnits(db: Database, reachOf?: Actor) {
  const rows = await db
    .select()
    .from(units)
    .where(and(isNull(units.deleted_at), reachOf ? unitCondition(reachOf, units.id) : undefined))
    .orderBy(asc(units.name));
  return { data: rows.map(present) };
}

export async function getUnit(db: Database, id: number): Promise<Unit> {
  const [row] = await db.select().from(units).where(eq(units.id, id));
  if (!row) throw notFound();
  return present(row);
}

export async function createUnit(db: Database, body: UnitBody): Promise<Unit> {
  const [row] = await db.insert(units).values(body).returning();
  return present(row!);
}

/** A stale `version` answers 409 conflict (someone saved the unit since it was read). */
export async function updateUnit(
  db: Database,
  actor: Actor,
  id: number,
  { version, ...fields }: UnitUpdateBody,
): Promise<Unit> {
  return inTransaction(db, actor.userId, async (tx) => {
    await claimVersion(tx, units, id, version);
    const [row] = await tx
      .update(units)
      .set({ ...fields, updated_at: new Date() })
      .where(eq(units.id, id))
      .returning();
    return present(row!);
  });
}

/** Soft delete: the unit keeps its doctors and history and can be restored. */
export async function deleteUnit(db: Database, id: number): Promise<void> {
  const [row] = await db
    .update(units)
    .set({ deleted_at: new Date() })
    .where(and(eq(units.id, id), isNull(units.deleted_at)))
    .returning({ id: units.id });
  if (!row) await getUnit(db, id); // 404 when missing; deleting twice is harmless
}

export async function restoreUnit(db: Database, id: number): Promise<void> {
  const [row] = await db
    .update(units)
    .set({ deleted_at: null })
    .where(and(eq(units.id, id), isNotNull(units.deleted_at)))
    .returning({ id: units.id });
  if (!row) await getUnit(db, id);
}
