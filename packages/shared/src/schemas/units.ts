import { z } from 'zod';
import { requiredText } from '../validation.js';
import {
  allResponse,
  nullableTimestamp,
  pagedListQuery,
  pagedResponse,
  recordVersion,
  versionField,
} from './common.js';

export const unitBody = z.object({
  name: requiredText(),
  street: requiredText(),
  building_nr: requiredText(),
  postcode: requiredText(),
  city: requiredText(),
});
export type UnitBody = z.infer<typeof unitBody>;
/** PUT /api/units/{id}: the fields and the version that was read. */
export const unitUpdateBody = unitBody.extend({ version: versionField() });
export type UnitUpdateBody = z.infer<typeof unitUpdateBody>;

export const unit = z.object({
  id: z.number().int(),
  name: z.string(),
  street: z.string(),
  building_nr: z.string(),
  postcode: z.string(),
  city: z.string(),
  deleted_at: nullableTimestamp,
  version: recordVersion,
});
export type Unit = z.infer<typeof unit>;

export const UNIT_ORDER_BY = ['id', 'name'] as const;
export const unitListQuery = pagedListQuery(UNIT_ORDER_BY);
export type UnitListQuery = z.infer<typeof unitListQuery>;
export const unitList = pagedResponse(unit);
export const unitAll = allResponse(unit);
/**
 * GET /api/units/all: `reachable=1` keeps the units the caller reaches (a doctor's own, a
 * monitor's assigned ones, every unit for administrators), for the pickers of lists whose API
 * answers 404 for a unit out of reach.
 */
export const unitAllQuery = z.object({ reachable: z.enum(['0', '1']).optional() });
export type UnitAllQuery = z.infer<typeof unitAllQuery>;
export const unitSaved = z.object({ status: z.literal('success'), data: unit });
export type UnitSaved = z.infer<typeof unitSaved>;
