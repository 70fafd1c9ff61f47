import { asc, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import {
  doctors,
  inclusionCriteriaGroups,
  inclusionCriteriaSubgroups,
  medicines,
  patientInclusions,
  patientMedicines,
  patients,
} from '../../db/schema.js';
import { inOrderOf } from '../../lib/list-totals.js';
import type { Actor } from '../../plugins/policy.js';
import { shownIdentity } from '../../policies/identity.js';
import { patientAbilities } from '../../policies/patients.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyDoctor, TestApp } from '../../test/harness.js';
import { rowsOf } from './list.js';
import { presentPatientListItem } from './presenter.js';
import { visitDatesOf } from './visit-dates.js';

/**
 * The list's page rows in one statement (ADR 057) answer exactly what the three statements they
 * replaced answered: rows, medicines (in name order, with their doses) and the last and next
 * visit, matched up here.
 */

let t: TestApp;
let doctor: ReadyDoctor;
let ids: number[] = [];
const SEEDED = 40;

/** The page's rows as they were read before: three statements, matched up by patient id. */
async function threeStatements(db: Database, actor: Actor, pageIds: number[], today: string) {
  if (pageIds.length === 0) return [];
  const [rows, meds, visitDates] = await Promise.all([
    db
      .select({
        patient: patients,
        doctor: { id: doctors.id, firstname: doctors.firstname, surname: doctors.surname },
        group: {
          id: inclusionCriteriaGroups.id,
          nr: inclusionCriteriaGroups.nr,
          name: inclusionCriteriaGroups.name,
        },
        subgroup: { id: inclusionCriteriaSubgroups.id, name: inclusionCriteriaSubgroups.name },
      })
      .from(patients)
      .innerJoin(doctors, eq(doctors.id, patients.doctor_id))
      .leftJoin(patientInclusions, eq(patientInclusions.patient_id, patients.id))
      .leftJoin(inclusionCriteriaGroups, eq(inclusionCriteriaGroups.id, patientInclusions.group_id))
      .leftJoin(
        inclusionCriteriaSubgroups,
        eq(inclusionCriteriaSubgroups.id, patientInclusions.subgroup_id),
      )
      .where(inArray(patients.id, pageIds)),
    db
      .select({
        patientId: patientMedicines.patient_id,
        id: medicines.id,
        name: medicines.name,
        dose: patientMedicines.dose,
      })
      .from(patientMedicines)
      .innerJoin(medicines, eq(medicines.id, patientMedicines.medicine_id))
      .where(inArray(patientMedicines.patient_id, pageIds))
      .orderBy(asc(medicines.name), asc(medicines.id)),
    visitDatesOf(db, pageIds, today),
  ]);
  return inOrderOf(pageIds, rows, (row) => row.patient.id).map(
    ({ patient, doctor: d, group, subgroup }) =>
      presentPatientListItem(shownIdentity(actor, patient), {
        doctor: d,
        group,
        subgroup,
        medicines: meds
          .filter((m) => m.patientId === patient.id)
          .map(({ id, name, dose }) => ({ id, name, dose })),
        ...visitDates(patient.id),
        abilities: patientAbilities(actor, patient),
      }),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  const unit = await t.unit();
  doctor = await t.readyDoctor(unit.id);
  const d = doctor.doctor;
  await t.db.execute(sql`
    with accounts as (
      insert into users (login, password_hash, role)
      select 'wiersz' || lpad(g::text, 4, '0'), 'x', 'patient' from generate_series(1, ${SEEDED}) g
      returning id
    ), numbered as (select id, row_number() over (order by id) as g from accounts)
    insert into patients (user_id, firstname, surname, pesel, sex, birth_date, phone_number,
                          acceptance, doctor_id, unit_id, is_finished, deleted_at, email)
    select id, 'Zofia', 'Wierszowa', '7' || lpad(g::text, 10, '0'), 'K', date '1960-01-01',
           '600100200', true, ${d.id}, ${d.unit_id}, g % 4 = 0,
           case when g % 11 = 0 then now() end, case when g % 2 = 0 then 'z' || g || '@x.pl' end
    from numbered`);
  const rows = await t.db
    .select({ id: patients.id })
    .from(patients)
    .where(sql`${patients.pesel} like '7%'`);
  ids = rows.map((row) => row.id);
  // Every seventh without an inclusion; medicines 0-3 each, doses with fractions or none.
  await t.db.execute(sql`
    insert into ${patientInclusions} (patient_id, group_id, subgroup_id)
    select p.id, s.group_id, s.id from ${patients} p
    cross join lateral (select id, group_id from inclusion_criteria_subgroups
                        order by id offset (p.id * 5 % 8) limit 1) s
    where p.pesel like '7%' and p.id % 7 <> 0`);
  await t.db.execute(sql`
    insert into ${patientMedicines} (patient_id, medicine_id, dose)
    select p.id, 1 + (p.id * 7 + k * 5) % 17,
           case when k = 2 then null else ((p.id + k) % 9) * 1.25 end
    from ${patients} p, generate_series(1, p.id % 4) k where p.pesel like '7%'`);
  // Visits around today: past and future, recorded or not, some cancelled, some patients none.
  await t.db.execute(sql`
    insert into visits (patient_id, unit_id, doctor_id, date, started_at, ended_at, is_done,
                        cancelled_at)
    select p.id, p.unit_id, p.doctor_id, current_date + ((p.id * 37 + k * 11) % 60 - 30),
           make_time(7 + k, (p.id % 4) * 15, 0), make_time(7 + k, (p.id % 4) * 15 + 10, 0),
           (p.id + k) % 3 = 0 and (p.id + k) % 5 <> 0, case when (p.id + k) % 5 = 0 then now() end
    from ${patients} p, generate_series(0, p.id % 5) k
    where p.pesel like '7%' and p.id % 6 <> 0
    on conflict do nothing`);
});
afterAll(() => t?.close());

function actorOf(role: 'admin' | 'doctor' | 'iod'): Actor {
  const d = doctor.doctor;
  return {
    userId: doctor.session.user.id,
    sessionId: 0,
    login: 'x',
    role,
    doctorId: role === 'doctor' ? d.id : null,
    unitId: role === 'doctor' ? d.unit_id : null,
    changedPasswordAt: new Date(),
  };
}

describe('the page rows in one statement', () => {
  it('answer what the three statements answered, for any page, actor and day', async () => {
    expect(ids).toHaveLength(SEEDED);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(ids, { minLength: 0, maxLength: 25 }),
        fc.constantFrom('admin' as const, 'doctor' as const, 'iod' as const),
        fc.integer({ min: -35, max: 35 }).map((offset) => day(offset).slice(0, 10)),
        async (page, role, today) => {
          const actor = actorOf(role);
          const [now, before] = await Promise.all([
            rowsOf(t.db, actor, page, today),
            threeStatements(t.db, actor, page, today),
          ]);
          expect(now).toEqual(before);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('has something to compare: medicines with doses, visits on both sides of today', async () => {
    const rows = await rowsOf(t.db, actorOf('admin'), ids);
    expect(rows.some((row) => row.medicines.length > 1)).toBe(true);
    expect(rows.some((row) => row.medicines.some((m) => m.dose !== null && m.dose % 1 !== 0))).toBe(
      true,
    );
    expect(rows.some((row) => row.past_visit_date && row.next_visit_date)).toBe(true);
    expect(rows.some((row) => !row.past_visit_date && !row.next_visit_date)).toBe(true);
    expect(rows.some((row) => row.group === null)).toBe(true);
  });
});
