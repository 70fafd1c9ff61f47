import type { CriteriaGroup, Subgroup } from '@portal/shared';

/**
 * The filter panel of the patients list and the query parameters it stands for
 * (docs/product-rules.md "Lists and paging").
 */

export interface PatientFilters {
  /** Medicine ids */
  medicines: number[];
  /** Values of the grouped groups-and-subgroups select: 'g<id>' whole group, 's<id>' subgroup */
  inclusion: string[];
  /** Doctor ids */
  doctors: number[];
  /** 'Zakończył udział w programie' */
  finished: boolean;
  /** One unit (administrators, monitors), or null for every unit within reach. */
  unitId: number | null;
  /** '0': active patients only (the dashboard's tiles), '1': deleted only, null: both. */
  deleted: '0' | '1' | null;
}

export const emptyFilters = (): PatientFilters => ({
  medicines: [],
  inclusion: [],
  doctors: [],
  finished: false,
  unitId: null,
  deleted: null,
});

export function activeFilterCount(filters: PatientFilters): number {
  return (
    (filters.medicines.length ? 1 : 0) +
    (filters.inclusion.length ? 1 : 0) +
    (filters.doctors.length ? 1 : 0) +
    (filters.finished ? 1 : 0) +
    (filters.unitId !== null ? 1 : 0) +
    (filters.deleted !== null ? 1 : 0)
  );
}

export const groupValue = (id: number) => `g${id}`;
export const subgroupValue = (id: number) => `s${id}`;

type GroupShape = Pick<CriteriaGroup, 'id'> & { sub_groups: Pick<Subgroup, 'id'>[] };

/**
 * The server keeps a patient when the group is among `groups` AND the subgroup among `sub_groups`.
 * The select means "any of these", so a mix of whole groups and single subgroups is widened:
 * the parents of the chosen subgroups join `groups`, the subgroups of the chosen groups join
 * `sub_groups`. Whole groups alone are sent as `groups` only (patients without a subgroup match).
 */
export function inclusionParams(
  selected: readonly string[],
  groups: readonly GroupShape[],
): { groups?: string; sub_groups?: string } {
  const groupIds = new Set<number>();
  const subgroupIds = new Set<number>();
  for (const value of selected) {
    const id = Number(value.slice(1));
    if (!Number.isInteger(id) || id <= 0) continue;
    if (value.startsWith('g')) groupIds.add(id);
    else if (value.startsWith('s')) subgroupIds.add(id);
  }
  const join = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b).join(',');
  if (!subgroupIds.size) return groupIds.size ? { groups: join(groupIds) } : {};

  const wideGroups = new Set(groupIds);
  const wideSubgroups = new Set(subgroupIds);
  for (const group of groups) {
    if (group.sub_groups.some((s) => subgroupIds.has(s.id))) wideGroups.add(group.id);
    if (groupIds.has(group.id)) group.sub_groups.forEach((s) => wideSubgroups.add(s.id));
  }
  return { groups: join(wideGroups), sub_groups: join(wideSubgroups) };
}

/** The filter part of GET /api/patients (paging, sort and search come from the list state). */
export function patientFilterParams(filters: PatientFilters, groups: readonly GroupShape[]) {
  const ids = (list: number[]) =>
    list.length ? [...list].sort((a, b) => a - b).join(',') : undefined;
  return {
    ...inclusionParams(filters.inclusion, groups),
    medicines: ids(filters.medicines),
    doctors: ids(filters.doctors),
    is_finished: filters.finished ? 1 : undefined,
    unit_id: filters.unitId ?? undefined,
    deleted: filters.deleted ?? undefined,
  };
}

const positiveId = (value: string | null) =>
  value !== null && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;

/**
 * The filters a link may name (the dashboard's tiles, ADR 060): `groups`, `unit_id` (for who
 * chooses among units) and `deleted`; anything else in the address is ignored.
 */
export function filtersFromSearch(params: URLSearchParams, severalUnits: boolean): PatientFilters {
  const deleted = params.get('deleted');
  return {
    ...emptyFilters(),
    inclusion: (params.get('groups') ?? '')
      .split(',')
      .map(positiveId)
      .flatMap((id) => (id === null ? [] : [groupValue(id)])),
    unitId: severalUnits ? positiveId(params.get('unit_id')) : null,
    deleted: deleted === '0' || deleted === '1' ? deleted : null,
  };
}

/**
 * The address for the filters: those a link can name, so that a reload or a shared address
 * shows the same list and a cleared filter leaves the address too. Whole groups only (a chosen
 * subgroup is not kept in the address).
 */
export function searchOfFilters(filters: PatientFilters): URLSearchParams {
  const search = new URLSearchParams();
  const groups = filters.inclusion.filter((value) => value.startsWith('g'));
  if (groups.length && groups.length === filters.inclusion.length) {
    search.set('groups', groups.map((value) => value.slice(1)).join(','));
  }
  if (filters.unitId !== null) search.set('unit_id', String(filters.unitId));
  if (filters.deleted !== null) search.set('deleted', filters.deleted);
  return search;
}
