import {
  addDays,
  indexRules,
  isSlotBookable,
  SETTING_DEFAULTS,
  warsawToday,
  withCorrections,
} from '@portal/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, patients, unitCalendarRules, users, visits } from '../db/schema.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { addDemoPatients } from './patients.js';
import { addDemoCalendars, addDemoVisits, demoCalendarRules } from './visits.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { createUnit } from '../modules/units/index.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';

// A Wednesday morning in Warsaw: the demo's dates are counted from it.
const NOW = new Date('2026-11-18T08:05:00Z');
const TODAY = warsawToday(NOW);

describe('demo work hours and visits', () => {
  let database: TestDatabase;
  let adminUserId: number;
  let ruleCount: number;
  let counts: Awaited<ReturnType<typeof addDemoVisits>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.handle.db;
    // As npm run demo: units, doctors, an administrator, patients, then calendars and visits.
    const unitIds: number[] = [];
    for (const unit of demoUnits) unitIds.push((await createUnit(db, unit)).id);
    for (const [index, doctor] of demoDoctors.entries())
      await createDoctor(db, null, { ...doctor, unit_id: unitIds[index % unitIds.length]! });
    await createAdmin(db, null, { login: demoAdmins[0]! });
    const [admin] = await db.select().from(users).where(eq(users.login, demoAdmins[0]!));
    adminUserId = admin!.id;
    await addDemoPatients(db);
    ruleCount = await addDemoCalendars(db, adminUserId, NOW);
    counts = await addDemoVisits(db, adminUserId, NOW);
  });
  afterAll(() => database?.close());

  it('gives every unit weekday rules and two blocked days next month', async () => {
    const rules = await database.handle.db.select().from(unitCalendarRules);
    expect(ruleCount).toBe(rules.length);
    expect(rules.length).toBe(demoUnits.length * 9);
    for (const rule of rules.filter((r) => !r.is_global)) {
      expect(rule).toMatchObject({
        type: 'disabled',
        started_at: '00:00:00',
        ended_at: '23:59:00',
      });
      expect(rule.date.slice(0, 7)).toBe('2026-12');
    }
    // Once only: a second run adds nothing.
    expect(await addDemoCalendars(database.handle.db, adminUserId, NOW)).toBe(0);
  });

  it('places the blocked days on weekdays, different between units', () => {
    const blocked = (index: number) =>
      demoCalendarRules(index + 1, index, TODAY)
        .filter((rule) => !rule.is_global)
        .map((rule) => rule.date);
    expect(blocked(0)).not.toEqual(blocked(1));
    for (const day of [...blocked(0), ...blocked(1), ...blocked(2)])
      expect(new Date(`${day}T12:00:00Z`).getUTCDay() % 6).not.toBe(0);
  });

  it('records past visits with ECG values and books upcoming ones on open slots', async () => {
    const db = database.handle.db;
    const rows = await db.select().from(visits).where(isNull(visits.cancelled_at));
    const patientCount = (await db.select().from(patients)).length;
    expect(counts.done).toBeGreaterThanOrEqual(patientCount);
    expect(counts.upcoming).toBeGreaterThan(0);
    expect(counts.overdue).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBe(counts.done + counts.upcoming);

    const done = rows.filter((visit) => visit.is_done);
    expect(done.length).toBe(counts.done);
    for (const visit of done) {
      expect(visit.date < TODAY).toBe(true);
      expect(visit.comment).toBeTruthy();
      const { qt, rr, pq, qrs } = visit;
      expect(withCorrections({ qt, rr, pq, qrs })).toMatchObject({
        qtcb: visit.qtcb,
        qtcfra: visit.qtcfra,
      });
    }
    // Some recorded ECGs are out of norm (QTcF above 450 ms).
    expect(done.some((visit) => (visit.qtcfra ?? 0) > 450)).toBe(true);

    const rules = await db.select().from(unitCalendarRules);
    const upcoming = rows.filter((visit) => !visit.is_done);
    for (const visit of upcoming) {
      const own = indexRules(rules.filter((rule) => rule.unit_id === visit.unit_id));
      const slot = {
        date: visit.date,
        started_at: visit.started_at,
        ended_at: visit.ended_at,
      };
      expect(isSlotBookable(slot, SETTING_DEFAULTS.visits, own, NOW), JSON.stringify(slot)).toBe(
        true,
      );
      expect(visit.date > TODAY && visit.date <= addDays(TODAY, 40)).toBe(true);
    }
  });

  it('leaves some patients without a visit after their window closed', async () => {
    const db = database.handle.db;
    const rows = await db.select().from(visits);
    const byPatient = new Map<number, string[]>();
    for (const visit of rows)
      byPatient.set(visit.patient_id, [...(byPatient.get(visit.patient_id) ?? []), visit.date]);
    const overdue = [...byPatient.values()].filter((dates) =>
      dates.every((date) => date < addDays(TODAY, -7)),
    );
    expect(overdue.length).toBe(counts.overdue);
  });

  it('writes every visit into the audit trail under the demo administrator', async () => {
    const entries = await database.handle.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.entity_name, 'visits'), eq(auditEntries.operation, 'insert')));
    const audited = new Set(entries.map((entry) => entry.entity_id));
    expect(audited.size).toBe(counts.done + counts.upcoming);
    expect(entries.every((entry) => entry.user_id === adminUserId)).toBe(true);
  });
});
