import type { PatientCard, PatientListItem, PatientListQuery } from '@portal/shared';
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Placeholder, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { executorOf, preparedStatement } from '../../db/client.js';
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
import { patientAbilities, patientScope, patientScopeUnits } from '../../policies/patients.js';
import { reachUnit, unitsInReach } from '../../policies/units.js';
import { shownIdentity } from '../../policies/identity.js';
import type { Actor } from '../../plugins/policy.js';
import { presentPatientListItem } from './presenter.js';
import type { ListedPatient } from './presenter.js';
import { warsawToday } from '../../lib/warsaw-today.js';
import { matchesPage } from '../../lib/search-terms.js';
import { patientSearch, searchKeyOf } from './search.js';
import { visitDatesColumn, visitDatesOf } from './visit-dates.js';
import type { VisitDates } from './visit-dates.js';

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
  const order = columnOrder(query);
  const ids = db
    .select({ id: patients.id })
    .from(patients)
    .where(listCondition(actor, query))
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
  return { ids, order };
}

/** The order of a page sorted by a patients column (not by group). */
function columnOrder(query: PatientListQuery): SQL[] {
  const dir = query.order_direction === 'asc' ? asc : desc;
  const column = { id: patients.id, surname: patients.surname, pesel: patients.pesel }[
    query.order_by === 'group' ? 'id' : query.order_by
  ];
  // PESEL is unique, so it needs no tie-breaker; the others end with the id.
  return query.order_by === 'surname' ? [dir(column), dir(patients.id)] : [dir(column)];
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

/** A row of the rows statement: flat, one alias per column (listItemOf presents it). */
interface ListRow extends ListedPatient {
  doctor_id: number;
  doctor_firstname: string;
  doctor_surname: string;
  group_id: number | null;
  group_nr: number | null;
  group_name: string | null;
  subgroup_id: number | null;
  subgroup_name: string | null;
  medicines: ListMedicine[];
  visit_dates: VisitDates;
}

/**
 * The page's rows with their doctor, group, subgroup, medicines and last and next visit, in one
 * statement (ADR 057): the medicines as a JSON array and the visit dates as a JSON object, each a
 * correlated subquery on its patient's index. `ids` selects the page: a list of ids or a
 * subquery that selects them in `order`. Only the columns the list shows are read, each under
 * its own name, so that the driver's rows are presented without a mapping layer.
 */
function rowsStatement(ids: SQL, order: SQL | undefined, today: string | Placeholder): SQL {
  return sql`select ${patients.id} as id, ${patients.firstname} as firstname,
      ${patients.surname} as surname, ${patients.pesel} as pesel,
      ${patients.phone_number} as phone_number, ${patients.email} as email,
      ${patients.address_street} as address_street,
      ${patients.address_building} as address_building,
      ${patients.address_apartment} as address_apartment,
      ${patients.address_postcode} as address_postcode, ${patients.address_city} as address_city,
      ${patients.unit_id} as unit_id, ${patients.is_finished} as is_finished,
      ${patients.deleted_at} as deleted_at,
      ${doctors.id} as doctor_id, ${doctors.firstname} as doctor_firstname,
      ${doctors.surname} as doctor_surname,
      ${inclusionCriteriaGroups.id} as group_id, ${inclusionCriteriaGroups.nr} as group_nr,
      ${inclusionCriteriaGroups.name} as group_name,
      ${inclusionCriteriaSubgroups.id} as subgroup_id,
      ${inclusionCriteriaSubgroups.name} as subgroup_name,
      (select coalesce(json_agg(json_build_object(
          'id', ${medicines.id}, 'name', ${medicines.name}, 'dose', ${patientMedicines.dose})
          order by ${medicines.name}, ${medicines.id}), '[]'::json)
        from ${patientMedicines} join ${medicines} on ${medicines.id} = ${patientMedicines.medicine_id}
        where ${patientMedicines.patient_id} = ${patients.id}) as medicines,
      ${visitDatesColumn(patients.id, today)} as visit_dates
    from ${patients}
    join ${doctors} on ${doctors.id} = ${patients.doctor_id}
    left join ${patientInclusions} on ${patientInclusions.patient_id} = ${patients.id}
    left join ${inclusionCriteriaGroups} on ${inclusionCriteriaGroups.id} = ${patientInclusions.group_id}
    left join ${inclusionCriteriaSubgroups} on ${inclusionCriteriaSubgroups.id} = ${patientInclusions.subgroup_id}
    where ${patients.id} in ${ids}${order ? sql` order by ${order}` : sql``}`;
}

/** One row of the page as the list answers it, for this actor. */
function listItemOf(actor: Actor, row: ListRow): PatientListItem {
  return presentPatientListItem(shownIdentity(actor, row), {
    doctor: { id: row.doctor_id, firstname: row.doctor_firstname, surname: row.doctor_surname },
    group: { id: row.group_id, nr: row.group_nr, name: row.group_name },
    subgroup: { id: row.subgroup_id, name: row.subgroup_name },
    // json numbers: a dose is numeric in the database and a number in the API.
    medicines: row.medicines.map(({ id, name, dose }) => ({
      id,
      name,
      dose: dose === null ? null : Number(dose),
    })),
    past_visit_date: row.visit_dates.past_visit_date,
    next_visit_date: row.visit_dates.next_visit_date,
    abilities: patientAbilities(actor, row),
  });
}

/** Runs a rows statement built per request (a filtered or searched page, or a list of ids). */
async function rowsOfStatement(db: Database, statement: SQL): Promise<ListRow[]> {
  const query = new PgDialect().sqlToQuery(statement);
  // The driver's own rows (its types: Date, JSON), as the named statements answer them.
  return (await executorOf(db).executeSql(query.sql, query.params)).rows as unknown as ListRow[];
}

/**
 * The page's rows (rowsStatement), for the given ids (in their order) or for the page a column
 * page's subquery selects.
 */
export async function rowsOf(
  db: Database,
  actor: Actor,
  page: number[] | NonNullable<ReturnType<typeof columnPage>>,
  today = warsawToday(),
): Promise<PatientListItem[]> {
  if (Array.isArray(page) && page.length === 0) return [];
  const rows = Array.isArray(page)
    ? inOrderOf(
        page,
        await rowsOfStatement(db, rowsStatement(sql`${page}`, undefined, today)),
        (row) => row.id,
      )
    : await rowsOfStatement(
        db,
        rowsStatement(sql`${page.ids}`, sql.join(page.order, sql`, `), today),
      );
  return rows.map((row) => listItemOf(actor, row));
}

/**
 * The plain page (ADR 057): sorted by a patients column, neither searched nor filtered, the
 * list's most frequent request, as a named statement per sort and kind of scope, built once:
 * on PostgreSQL each connection prepares it once, and no request builds a query. The scope is
 * patientScopeUnits' (the same units patientScope reaches), the page and the day its values.
 */
const plainPages = new Map<string, ReturnType<typeof preparedStatement>>();

function plainPageStatement(query: PatientListQuery, everyUnit: boolean) {
  const name = `patients_page_${query.order_by}_${query.order_direction}_${everyUnit ? 'all' : 'units'}`;
  let statement = plainPages.get(name);
  if (!statement) {
    const order = columnOrder(query);
    statement = preparedStatement(name, (db) => {
      const ids = db
        .select({ id: patients.id })
        .from(patients)
        .where(everyUnit ? undefined : sql`${patients.unit_id} = any(${sql.placeholder('units')})`)
        .orderBy(...order)
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'));
      return rowsStatement(sql`${ids}`, sql.join(order, sql`, `), sql.placeholder('today'));
    });
    plainPages.set(name, statement);
  }
  return statement;
}

/** Whether the page is a plain page (plainPageStatement), given a staff actor's scope. */
function isPlainPage(query: PatientListQuery) {
  return query.order_by !== 'group' && !isFiltered(query);
}

async function plainPageRows(
  db: Database,
  actor: Actor,
  query: PatientListQuery,
  units: readonly number[] | null,
): Promise<PatientListItem[]> {
  const rows = (await plainPageStatement(query, units === null)(db, {
    limit: query.limit,
    offset: query.offset,
    today: warsawToday(),
    ...(units === null ? {} : { units: [...units] }),
  })) as unknown as ListRow[];
  return rows.map((row) => listItemOf(actor, row));
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
  const units = patientScopeUnits(actor);
  if (units !== undefined && isPlainPage(query)) {
    const { total } = pageTotal(db, actor, query);
    const [data, counted] = await Promise.all([plainPageRows(db, actor, query, units), total]);
    return offsetAnswer(data, counted);
  }
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
