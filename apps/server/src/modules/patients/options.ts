import { PICKER_LIMIT } from '@portal/shared';
import type { PatientAllQuery, PatientBasic, PatientOptionsQuery } from '@portal/shared';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { patients, users } from '../../db/schema.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import { matchesPage } from '../../lib/search-terms.js';
import { patientScope } from '../../policies/patients.js';
import { unitsInReach } from '../../policies/units.js';
import { shownIdentity } from '../../policies/identity.js';
import type { Actor } from '../../plugins/policy.js';
import { presentPatientBasic } from './presenter.js';
import { patientSearch, searchKeyOf } from './search.js';

/** Pickers list patients by name: patients_picker_idx (migration 0009) walks this order. */
const pickerOrder = [asc(patients.surname), asc(patients.firstname), asc(patients.id)];

const basicColumns = {
  id: patients.id,
  user_id: patients.user_id,
  login: users.login,
  firstname: patients.firstname,
  surname: patients.surname,
  pesel: patients.pesel,
  unit_id: patients.unit_id,
  deleted_at: patients.deleted_at,
};

async function basicRows(
  db: Database,
  actor: Actor,
  where: SQL | undefined,
): Promise<PatientBasic[]> {
  const rows = await db
    .select(basicColumns)
    .from(patients)
    .innerJoin(users, eq(users.id, patients.user_id))
    .where(where)
    .orderBy(...pickerOrder);
  return rows.map((row) => shownIdentity(actor, presentPatientBasic(row, row.login)));
}

/**
 * Ids by surname, first name and id. Without a search patients_picker_idx walks them in order;
 * with one the matches cluster in that order ("kowal"), so `offset 0` keeps the search's own
 * index first and sorts only the matches (ADR 021).
 */
async function pageIds(
  db: Database,
  where: SQL | undefined,
  search: string | undefined,
  limit: number,
  offset: number,
): Promise<number[]> {
  if (!search?.trim()) {
    const rows = await db
      .select({ id: patients.id })
      .from(patients)
      .where(where)
      .orderBy(...pickerOrder)
      .limit(limit)
      .offset(offset);
    return rows.map((row) => row.id);
  }
  const matches = db
    .select({ id: patients.id, surname: patients.surname, firstname: patients.firstname })
    .from(patients)
    .where(where);
  return matchesPage(db, matches, 'surname asc, firstname asc, id asc', limit, offset);
}

/** Reachable patients that are not deleted and match the search (none: everyone). */
function activeMatches(actor: Actor, search: string | undefined): SQL | undefined {
  return and(patientScope(actor), isNull(patients.deleted_at), patientSearch(search, actor));
}

/**
 * GET /api/patients/options, search-as-you-type: at most PICKER_LIMIT reachable, not deleted
 * patients matching the name or PESEL by surname, first name and id, then those named in `ids`
 * that the actor reaches and that are not among them (so that a picker can show what is already
 * chosen, even a patient deleted since). Another unit's patient named in `ids` is left out silently,
 * as if it did not exist.
 */
export async function patientOptions(db: Database, actor: Actor, query: PatientOptionsQuery) {
  const matchIds = await pageIds(
    db,
    activeMatches(actor, query.search),
    query.search,
    PICKER_LIMIT,
    0,
  );
  const shown = new Set(matchIds);
  const chosen = (query.ids ?? []).filter((id) => !shown.has(id));
  const [matches, named] = await Promise.all([
    matchIds.length ? basicRows(db, actor, inArray(patients.id, matchIds)) : [],
    chosen.length
      ? basicRows(db, actor, and(patientScope(actor), inArray(patients.id, chosen)))
      : [],
  ]);
  return { data: [...matches, ...named] };
}

/**
 * GET /api/patients/all (docs/product-rules.md "Lists and paging"), for API clients: reachable
 * patients that are not deleted, by surname, first name and id, one page at a time, with the list
 * pattern's total (ADR 021).
 */
export async function allPatients(db: Database, actor: Actor, query: PatientAllQuery) {
  const where = activeMatches(actor, query.search);
  const total = listTotal(db, {
    key: totalKey('patients-all', {
      scope: unitsInReach(actor)?.join(',') ?? 'all',
      search: query.search?.trim() || undefined,
      pesel_shown: searchKeyOf(actor),
    }),
    rows: () => db.select({ id: patients.id }).from(patients).where(where).$dynamic(),
  });
  const ids = await pageIds(
    db,
    where,
    query.search,
    query.limit,
    offsetOf(query.page, query.limit),
  );
  const [rows, counted] = await Promise.all([
    ids.length ? basicRows(db, actor, inArray(patients.id, ids)) : [],
    total,
  ]);
  return pagedAnswer(
    inOrderOf(ids, rows, (row) => row.id),
    counted,
  );
}
