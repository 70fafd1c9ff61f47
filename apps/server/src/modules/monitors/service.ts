import type { CredentialPair, Monitor, MonitorListQuery } from '@portal/shared';
import type { monitorBody, monitorUpdateBody } from '@portal/shared';
import type { z } from 'zod';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable, Transaction } from '../../db/client.js';
import { monitors, monitorUnits, units, users } from '../../db/schema.js';
import {
  isLoginTaken,
  resetCredentials,
  restoreAccount,
  softDeleteAccount,
} from '../../lib/accounts.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import { offsetOf, orderBy, searchAny } from '../../lib/listing.js';
import { generatePassword, hashPassword } from '../../lib/passwords.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';

type MonitorInput = z.output<typeof monitorBody>;
type MonitorUpdateInput = z.output<typeof monitorUpdateBody>;
type MonitorRow = typeof monitors.$inferSelect;

const sortable = { id: monitors.id, surname: monitors.surname, email: monitors.email };

async function present(db: Queryable, rows: MonitorRow[]): Promise<Monitor[]> {
  if (rows.length === 0) return [];
  const assigned = await db
    .select({ monitorId: monitorUnits.monitor_id, id: units.id, name: units.name })
    .from(monitorUnits)
    .innerJoin(units, eq(units.id, monitorUnits.unit_id))
    .where(
      inArray(
        monitorUnits.monitor_id,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(units.name), asc(units.id));
  return rows.map((row) => {
    const own = assigned.filter((unit) => unit.monitorId === row.id);
    return {
      id: row.id,
      firstname: row.firstname,
      surname: row.surname,
      email: row.email,
      phone_number: row.phone_number,
      unit_ids: own.map((unit) => unit.id),
      units: own.map(({ id, name }) => ({ id, name })),
      deleted_at: row.deleted_at?.toISOString() ?? null,
      version: row.version,
    };
  });
}

async function findMonitor(db: Queryable, id: number): Promise<MonitorRow> {
  const [row] = await db.select().from(monitors).where(eq(monitors.id, id));
  if (!row) throw notFound();
  return row;
}

async function shown(db: Queryable, id: number): Promise<Monitor> {
  const [one] = await present(db, [await findMonitor(db, id)]);
  return one!;
}

/** GET /api/monitors: paged, deleted ones included, searched by name, e-mail and phone. */
export async function listMonitors(db: Database, query: MonitorListQuery) {
  const where = searchAny(query.search, [
    monitors.firstname,
    monitors.surname,
    monitors.email,
    monitors.phone_number,
  ]);
  const [ids, total] = await Promise.all([
    db
      .select({ id: monitors.id })
      .from(monitors)
      .where(where)
      .orderBy(...orderBy(sortable, query.order_by, query.order_direction, monitors.id))
      .limit(query.limit)
      .offset(offsetOf(query.page, query.limit))
      .then((rows) => rows.map((row) => row.id)),
    listTotal(db, {
      key: totalKey('monitors', { search: query.search || undefined }),
      rows: () => db.select({ id: monitors.id }).from(monitors).where(where),
    }),
  ]);
  const rows = ids.length ? await db.select().from(monitors).where(inArray(monitors.id, ids)) : [];
  return pagedAnswer(
    await present(
      db,
      inOrderOf(ids, rows, (row) => row.id),
    ),
    total,
  );
}

export async function getMonitor(db: Database, id: number): Promise<Monitor> {
  return shown(db, id);
}

/** Every named unit exists and is not deleted (422 on `unit_ids` otherwise). */
async function assertUnitsUsable(db: Queryable, unitIds: readonly number[]) {
  const unique = [...new Set(unitIds)];
  const found = await db
    .select({ id: units.id })
    .from(units)
    .where(and(inArray(units.id, unique), isNull(units.deleted_at)));
  if (found.length !== unique.length) throw invalid({ unit_ids: ['required'] });
  return unique;
}

/** Replaces the monitor's units; its reach is read on every request (plugins/session-check.ts). */
async function setUnits(tx: Transaction, monitorId: number, unitIds: readonly number[]) {
  await tx.delete(monitorUnits).where(eq(monitorUnits.monitor_id, monitorId));
  await tx
    .insert(monitorUnits)
    .values(unitIds.map((unit_id) => ({ monitor_id: monitorId, unit_id })));
}

function mapWriteError(error: unknown): never {
  if (isLoginTaken(error)) throw conflict('exist_monitor');
  throw error;
}

/**
 * Creates the monitor and the account (login = e-mail) with a random password nobody knows; an
 * administrator prints login details to hand over (the monitor must change the password).
 */
export async function createMonitor(
  db: Database,
  actor: Actor | null,
  { unit_ids, ...body }: MonitorInput,
): Promise<Monitor> {
  const passwordHash = await hashPassword(generatePassword());
  try {
    return await inTransaction(db, actor?.userId ?? null, async (tx) => {
      const unitIds = await assertUnitsUsable(tx, unit_ids);
      const [user] = await tx
        .insert(users)
        .values({ login: body.email, password_hash: passwordHash, role: 'monitor' })
        .returning({ id: users.id });
      const [row] = await tx
        .insert(monitors)
        .values({ ...body, user_id: user!.id })
        .returning({ id: monitors.id });
      await setUnits(tx, row!.id, unitIds);
      return shown(tx, row!.id);
    });
  } catch (error) {
    mapWriteError(error);
  }
}

export async function updateMonitor(
  db: Database,
  actor: Actor,
  id: number,
  { version, unit_ids, ...body }: MonitorUpdateInput,
): Promise<Monitor> {
  try {
    return await inTransaction(db, actor.userId, async (tx) => {
      await claimVersion(tx, monitors, id, version);
      const current = await findMonitor(tx, id);
      const unitIds = await assertUnitsUsable(tx, unit_ids);
      await tx
        .update(monitors)
        .set({ ...body, updated_at: new Date() })
        .where(eq(monitors.id, id));
      await setUnits(tx, id, unitIds);
      if (current.email !== body.email) {
        await tx
          .update(users)
          .set({ login: body.email, updated_at: new Date() })
          .where(eq(users.id, current.user_id));
      }
      return shown(tx, id);
    });
  } catch (error) {
    mapWriteError(error);
  }
}

/** Soft delete: the monitor signs in no more and every session ends; the history stays. */
export async function deleteMonitor(db: Database, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, actor.userId, async (tx) => {
    const current = await findMonitor(tx, id);
    if (current.deleted_at) return;
    await softDeleteAccount(tx, monitors, id, current.user_id);
  });
}

export async function restoreMonitor(db: Database, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, actor.userId, async (tx) => {
    const current = await findMonitor(tx, id);
    if (!current.deleted_at) return;
    await restoreAccount(tx, monitors, id, current.user_id);
  });
}

/** A new generated password to print; it must be replaced at the next sign-in. */
export async function printMonitorLoginDetails(
  db: Database,
  actor: Actor | null,
  id: number,
): Promise<CredentialPair> {
  const current = await findMonitor(db, id);
  if (current.deleted_at) throw notFound();
  const password = await resetCredentials(db, actor?.userId ?? null, current.user_id);
  return { login: current.email, password };
}
