import { warsawDay } from '@portal/shared';
import type { PatientCard, PatientListItem, PatientListQuery } from '@portal/shared';
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
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
import { inOrderOf, listTotal, totalKey, offsetAnswer } from '../../lib/list-totals.js';
import { patientAbilities, patientScope } from '../../policies/patients.js';
import { reachUnit, unitsInReach } from '../../policies/units.js';
import { shownIdentity } from '../../policies/identity.js';
import type { Actor } from '../../plugins/policy.js';
import { presentPatientListItem } from './presenter.js';
import { matchesPage } from '../../lib/search-terms.js';
import { patientSearch, searchKeyOf } from './search.js';
import { visitDatesColumn, visitDatesOf } from './visit-dates.js';

/**
 * The patients list (ADR 021), a deferred join: the page's ids first, from indexes alone
 * (migration 0009), then the rows, doctors, groups and medicines of those ids only. A deep
 * offset or a sort by surname or group walks an index instead of sorting the joined table.
 */

/** Conditions on the patients row itself: the actor's scope and every filter but the group's. */
function patientConditions(actor: Actor, query: PatientListQuery): SQL | undefined {
  return and(
    patientScope(actor),
    patientSearch(query.search, actor),
    query.doctors ? inArray(patients.doctor_id, query.doctors) : undefined,
    query.medicines
      ? sql`exists (select 1 from ${patientMedicines} where ${patientMedicines.patient_id} = ${patients.id} and ${inArray(patientMedicines.medicine_id, query.medicines)})`
      : undefined,
    query.is_finished === undefined ? undefined : eq(patients.is_finished, query.is_finished === 1),
    query.unit_id === undefined ? undefined : eq(patients.unit_id, query.unit_id),
    query.deleted === undefined
      ? undefined
      : query.deleted === 1
        ? isNotNull(patients.deleted_at)
        : isNull(patients.deleted_at),
  );
}

/** Whole groups and single subgroups chosen together mean "any of them"; undefined for none. */
function inclusionCondition(query: PatientListQuery): SQL | undefined {
  return or(
    query.groups ? inArray(patientInclusions.group_id, query.groups) : undefined,
    query.sub_groups ? inArray(patientInclusions.subgroup_id, query.sub_groups) : undefined,
  );
}

/** Every condition of the list, on the patients table alone (the count and the id sorts). */
function listCondition(actor: Actor, query: PatientListQuery): SQL | undefined {
  const inclusion = inclusionCondition(query);
  return and(
    patientConditions(actor, query),
    inclusion
      ? sql`exists (select 1 from ${patientInclusions} where ${patientInclusions.patient_id} = ${patients.id} and ${inclusion})`
      : undefined,
  );
}

/**
 * Page ids for a sort by a patients column: one index walk (the primary key, (surname, id),
 * pesel). With a search and a sort by name or PESEL the matches cluster in the index's order
 * (searching "kowal" sorted by surname), so walking it would skip every earlier name; `offset 0`
 * keeps the search's own index (trigram or prefix) first and sorts only the matches.
 */
async function idsByColumn(db: Database, actor: Actor, query: PatientListQuery) {
  const page = columnPage(db, actor, query);
  if (page) return (await page.ids).map((row) => row.id);
  const key = query.order_by === 'surname' ? 'surname' : 'pesel';
  const matches = db
    .select({ id: patients.id, surname: patients.surname, pesel: patients.pesel })
    .from(patients)
    .where(listCondition(actor, query));
  const dir = query.order_direction;
  const order = key === 'surname' ? `surname ${dir}, id ${dir}` : `pesel ${dir}`;
  return matchesPage(db, matches, order, query.limit, query.offset);
}

/**
 * The page of a sort by a patients column that walks its index (no search, or a search sorted by
 * id), as a subquery and its order: the rows statement can then select its own page, one round
 * trip for the whole page (ADR 057). Null for the other pages (idsByColumn, idsByGroup).
 */
function columnPage(db: Database, actor: Actor, query: PatientListQuery) {
  if (query.order_by === 'group') return null;
  if (query.search?.trim() && query.order_by !== 'id') return null;
  const dir = query.order_direction === 'asc' ? asc : desc;
  const column = { id: patients.id, surname: patients.surname, pesel: patients.pesel }[
    query.order_by
  ];
  // PESEL is unique, so it needs no tie-breaker; the others end with the id.
  const order = query.order_by === 'surname' ? [dir(column), dir(patients.id)] : [dir(column)];
  const ids = db
    .select({ id: patients.id })
    .from(patients)
    .where(listCondition(actor, query))
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
  return { ids, order };
}

/** The groups a page sorted by group walks, in order: only those the filter can match. */
async function groupsInOrder(db: Database, query: PatientListQuery, ascending: boolean) {
  const dir = ascending ? asc : desc;
  const rows = await db
    .select({ id: inclusionCriteriaGroups.id })
    .from(inclusionCriteriaGroups)
    .where(
      or(
        query.groups ? inArray(inclusionCriteriaGroups.id, query.groups) : undefined,
        query.sub_groups
          ? sql`${inclusionCriteriaGroups.id} in (select ${inclusionCriteriaSubgroups.group_id} from ${inclusionCriteriaSubgroups} where ${inArray(inclusionCriteriaSubgroups.id, query.sub_groups)})`
          : undefined,
      ),
    )
    .orderBy(dir(inclusionCriteriaGroups.nr), dir(inclusionCriteriaGroups.id));
  return rows.map((row) => row.id);
}

/**
 * Page ids for a sort by the group's `nr` (then id). A plain ORDER BY over the join would sort
 * every patient; instead a LATERAL walk visits the few groups in nr order (a VALUES list, read
 * first) and streams each group's patients from patient_inclusions_group_patient_idx in id order,
 * so the first page reads about limit rows and offset n about n index entries. Patients without
 * an inclusion row come last in ascending order (first in descending, as NULLs sort in
 * PostgreSQL): step 0 of the walk, visited only when such patients match (their capped number
 * is remembered like a total, as finding them is an anti-join over both tables). The nested loop keeps the VALUES order and each inner
 * branch its own ORDER BY; the tests compare this with a plain ORDER BY over the join.
 */
async function idsByGroup(db: Database, actor: Actor, query: PatientListQuery, key: string) {
  const ascending = query.order_direction === 'asc';
  const dir = sql.raw(ascending ? 'asc' : 'desc');
  const onPatient = patientConditions(actor, query);
  const inclusion = inclusionCondition(query);
  const ungroupedWhere = and(
    sql`not exists (select 1 from ${patientInclusions} where ${patientInclusions.patient_id} = ${patients.id})`,
    onPatient,
  );
  // With a group or subgroup filter, patients without an inclusion never match.
  const [groups, ungrouped] = await Promise.all([
    groupsInOrder(db, query, ascending),
    inclusion
      ? { total: 0 }
      : listTotal(db, {
          key: `${key}:ungrouped`,
          rows: () =>
            db.select({ id: patients.id }).from(patients).where(ungroupedWhere).$dynamic(),
        }),
  ]);
  // 0 stands for the patients without a group (no group has id 0).
  const walk = ungrouped.total > 0 ? (ascending ? [...groups, 0] : [0, ...groups]) : groups;
  if (walk.length === 0) return [];
  // Each step yields at most offset + limit rows: it lets the planner pick a fast-start plan.
  const enough = query.offset + query.limit;
  const steps = sql.join(
    walk.map((id, i) => sql`(${id}::int, ${i}::int)`),
    sql`, `,
  );
  const grouped = onPatient
    ? sql`select ${patientInclusions.patient_id} as id from ${patientInclusions}
        join ${patients} on ${patients.id} = ${patientInclusions.patient_id}
        where ${patientInclusions.group_id} = g.id and ${and(inclusion, onPatient)}`
    : sql`select ${patientInclusions.patient_id} as id from ${patientInclusions}
        where ${patientInclusions.group_id} = g.id and ${inclusion ?? sql`true`}`;
  const result: unknown = await db.execute(sql`
    select s.id from (select id, step from (values ${steps}) v (id, step) order by step) g
    cross join lateral (
      (${grouped} and g.id <> 0 order by ${patientInclusions.patient_id} ${dir} limit ${enough})
      union all
      (select ${patients.id} as id from ${patients} where g.id = 0 and ${ungroupedWhere}
        order by ${patients.id} ${dir} limit ${enough})
    ) s
    limit ${query.limit} offset ${query.offset}`);
  // Both drivers answer { rows }; the shared Database type leaves execute()'s result unknown.
  return (result as { rows: { id: number }[] }).rows.map((row) => Number(row.id));
}

/** A page row's medicines, as the list answers them. */
type ListMedicine = PatientListItem['medicines'][number];

/**
 * The page's rows with their doctor, group, subgroup, medicines and last and next visit, for the
 * given ids only, in one statement (ADR 057): the medicines as a JSON array and the visit dates
 * as a JSON object, each a correlated subquery on its patient's index, instead of three
 * statements whose rows are matched up here.
 */
export async function rowsOf(
  db: Database,
  actor: Actor,
  page: number[] | NonNullable<ReturnType<typeof columnPage>>,
  today = warsawDay(),
) {
  if (Array.isArray(page) && page.length === 0) return [];
  const query = db
    .select({
      patient: patients,
      doctor: { id: doctors.id, firstname: doctors.firstname, surname: doctors.surname },
      group: {
        id: inclusionCriteriaGroups.id,
        nr: inclusionCriteriaGroups.nr,
        name: inclusionCriteriaGroups.name,
      },
      subgroup: { id: inclusionCriteriaSubgroups.id, name: inclusionCriteriaSubgroups.name },
      // The same order as the list always had: by name, then id.
      medicines: sql<ListMedicine[]>`(select coalesce(json_agg(json_build_object(
          'id', ${medicines.id}, 'name', ${medicines.name}, 'dose', ${patientMedicines.dose})
          order by ${medicines.name}, ${medicines.id}), '[]'::json)
        from ${patientMedicines} join ${medicines} on ${medicines.id} = ${patientMedicines.medicine_id}
        where ${patientMedicines.patient_id} = ${patients.id})`,
      visitDates: visitDatesColumn(patients.id, today),
    })
    .from(patients)
    .innerJoin(doctors, eq(doctors.id, patients.doctor_id))
    .leftJoin(patientInclusions, eq(patientInclusions.patient_id, patients.id))
    .leftJoin(inclusionCriteriaGroups, eq(inclusionCriteriaGroups.id, patientInclusions.group_id))
    .leftJoin(
      inclusionCriteriaSubgroups,
      eq(inclusionCriteriaSubgroups.id, patientInclusions.subgroup_id),
    )
    .$dynamic();
  const rows = Array.isArray(page)
    ? inOrderOf(page, await query.where(inArray(patients.id, page)), (row) => row.patient.id)
    : await query.where(inArray(patients.id, page.ids)).orderBy(...page.order);
  return rows.map(({ patient, doctor, group, subgroup, medicines: meds, visitDates }) =>
    presentPatientListItem(shownIdentity(actor, patient), {
      doctor,
      group,
      subgroup,
      // json numbers: a dose is numeric in the database and a number in the API.
      medicines: meds.map(({ id, name, dose }) => ({
        id,
        name,
        dose: dose === null ? null : Number(dose),
      })),
      past_visit_date: visitDates.past_visit_date,
      next_visit_date: visitDates.next_visit_date,
      abilities: patientAbilities(actor, patient),
    }),
  );
}

/** Whether anything but the actor's scope narrows the list. */
function isFiltered(query: PatientListQuery): boolean {
  return Boolean(
    query.search?.trim() ||
    query.groups ||
    query.sub_groups ||
    query.medicines ||
    query.doctors ||
    query.is_finished !== undefined ||
    query.unit_id !== undefined ||
    query.deleted !== undefined,
  );
}

/** The list's total, remembered (ADR 021), and the key that names its scope and filters. */
function pageTotal(db: Database, actor: Actor, query: PatientListQuery) {
  const scope = unitsInReach(actor);
  const key = totalKey('patients', {
    scope: scope?.join(',') ?? 'all',
    search: query.search?.trim() || undefined,
    pesel_shown: searchKeyOf(actor),
    groups: query.groups,
    sub_groups: query.sub_groups,
    medicines: query.medicines,
    doctors: query.doctors,
    is_finished: query.is_finished,
    unit: query.unit_id,
    deleted: query.deleted,
  });
  const total = listTotal(db, {
    key,
    rows: () =>
      db.select({ id: patients.id }).from(patients).where(listCondition(actor, query)).$dynamic(),
    ...(scope === null && !isFiltered(query) ? { unfilteredTable: 'patients' } : {}),
  });
  // The ids wait for nothing but themselves; the total is awaited with the rows.
  total.catch(() => undefined);
  return { key, total };
}

/**
 * The page's ids and its total, for the list and its cards alike (one query code for both):
 * the actor's scope, search, filters, sort and paging of `GET /api/patients`.
 */
async function patientPage(db: Database, actor: Actor, query: PatientListQuery) {
  const { key, total } = pageTotal(db, actor, query);
  const ids = await (query.order_by === 'group'
    ? idsByGroup(db, actor, query, key)
    : idsByColumn(db, actor, query));
  return { ids, total };
}

export async function listPatients(db: Database, actor: Actor, query: PatientListQuery) {
  // A unit out of reach (or none) answers 404, as the visits, samples and alerts lists do.
  if (query.unit_id !== undefined) await reachUnit(db, actor, query.unit_id);
  // A page that walks a column's index is selected by the rows statement itself (ADR 057).
  const page = columnPage(db, actor, query);
  if (page) {
    const { total } = pageTotal(db, actor, query);
    const [data, counted] = await Promise.all([rowsOf(db, actor, page), total]);
    return offsetAnswer(data, counted);
  }
  const { ids, total } = await patientPage(db, actor, query);
  const [data, counted] = await Promise.all([rowsOf(db, actor, ids), total]);
  return offsetAnswer(data, counted);
}

/** The cards' rows (ADR 038): who, PESEL, the group, the last and next visit. */
async function cardRowsOf(db: Database, ids: number[]): Promise<PatientCard[]> {
  if (ids.length === 0) return [];
  const [rows, visitDates] = await Promise.all([
    db
      .select({
        id: patients.id,
        firstname: patients.firstname,
        surname: patients.surname,
        pesel: patients.pesel,
        group: {
          id: inclusionCriteriaGroups.id,
          nr: inclusionCriteriaGroups.nr,
          name: inclusionCriteriaGroups.name,
        },
      })
      .from(patients)
      .leftJoin(patientInclusions, eq(patientInclusions.patient_id, patients.id))
      .leftJoin(inclusionCriteriaGroups, eq(inclusionCriteriaGroups.id, patientInclusions.group_id))
      .where(inArray(patients.id, ids)),
    visitDatesOf(db, ids),
  ]);
  return inOrderOf(ids, rows, (row) => row.id).map(({ group, ...row }) => {
    const dates = visitDates(row.id);
    return {
      ...row,
      // As the list presents it; a left join yields nulls when there is no inclusion yet.
      group:
        group?.id && group.nr !== null && group.name !== null
          ? { id: group.id, nr: group.nr, name: group.name }
          : null,
      last_visit_date: dates.past_visit_date,
      next_visit_date: dates.next_visit_date,
    };
  });
}

/**
 * GET /api/patients/cards (ADR 038): the same page as GET /api/patients (same query, scope,
 * search, filters, sort and paging), each row shaped for a card.
 */
export async function listPatientCards(db: Database, actor: Actor, query: PatientListQuery) {
  if (query.unit_id !== undefined) await reachUnit(db, actor, query.unit_id);
  const { ids, total } = await patientPage(db, actor, query);
  const [data, counted] = await Promise.all([cardRowsOf(db, ids), total]);
  return offsetAnswer(
    data.map((card) => shownIdentity(actor, card)),
    counted,
  );
}
