import { z } from 'zod';
import { loginField } from '../validation.js';
import {
  allResponse,
  nullableTimestamp,
  pagedListQuery,
  pagedResponse,
  recordVersion,
  versionField,
} from './common.js';

export const adminBody = z.object({ login: loginField() });
export type AdminBody = z.infer<typeof adminBody>;
export const adminUpdateBody = adminBody.extend({ version: versionField() });
export type AdminUpdateBody = z.infer<typeof adminUpdateBody>;

export const admin = z.object({
  id: z.number().int(),
  login: z.string(),
  deleted_at: nullableTimestamp,
  version: recordVersion,
});
export type Admin = z.infer<typeof admin>;

export const ADMIN_ORDER_BY = ['id', 'login'] as const;
export const adminListQuery = pagedListQuery(ADMIN_ORDER_BY);
export type AdminListQuery = z.infer<typeof adminListQuery>;
export const adminList = pagedResponse(admin);
export const adminAll = allResponse(admin);

export const adminSaved = z.object({ status: z.literal('success'), data: admin });
export type AdminSaved = z.infer<typeof adminSaved>;
