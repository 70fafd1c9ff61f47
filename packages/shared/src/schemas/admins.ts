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

/**
 * Accounts the administrators' screen keeps: administrators and data protection officers (`iod`,
 * ADR 053), who read the logs and nothing else. The kind is chosen once, on creation.
 */
export const ADMIN_KINDS = ['admin', 'iod'] as const;
export type AdminKind = (typeof ADMIN_KINDS)[number];

export const adminBody = z.object({
  login: loginField(),
  role: z.enum(ADMIN_KINDS, { error: 'invalid' }).default('admin'),
});
export type AdminBody = z.input<typeof adminBody>;
export const adminUpdateBody = z.object({ login: loginField(), version: versionField() });
export type AdminUpdateBody = z.infer<typeof adminUpdateBody>;

export const admin = z.object({
  id: z.number().int(),
  login: z.string(),
  role: z.enum(ADMIN_KINDS),
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
