import { z } from 'zod';
import { emailField, phoneField, queryIdField, requiredId, requiredText } from '../validation.js';
import {
  allResponse,
  nullableTimestamp,
  pagedListQuery,
  pagedResponse,
  recordVersion,
  versionField,
} from './common.js';

export const doctorBody = z.object({
  firstname: requiredText(),
  surname: requiredText(),
  email: emailField(),
  phone_number: phoneField(),
  unit_id: requiredId(),
});
export type DoctorBody = z.input<typeof doctorBody>;
export const doctorUpdateBody = doctorBody.extend({ version: versionField() });
export type DoctorUpdateBody = z.input<typeof doctorUpdateBody>;

export const doctor = z.object({
  id: z.number().int(),
  firstname: z.string(),
  surname: z.string(),
  email: z.string(),
  /** The 9 national digits; shown with the +48 prefix. */
  phone_number: z.string(),
  unit_id: z.number().int(),
  unit: z.object({
    name: z.string(),
    street: z.string(),
    building_nr: z.string(),
    postcode: z.string(),
    city: z.string(),
  }),
  deleted_at: nullableTimestamp,
  version: recordVersion,
});
export type Doctor = z.infer<typeof doctor>;

export const DOCTOR_ORDER_BY = ['id', 'surname', 'email', 'unit', 'phone_number'] as const;
export const doctorListQuery = pagedListQuery(DOCTOR_ORDER_BY).extend({
  unit_id: queryIdField().optional(),
});
export type DoctorListQuery = z.infer<typeof doctorListQuery>;
export const doctorList = pagedResponse(doctor);
export const doctorAllQuery = z.object({ unit_id: queryIdField().optional() });
export const doctorAll = allResponse(doctor);
export const doctorSaved = z.object({ status: z.literal('success'), data: doctor });
export type DoctorSaved = z.infer<typeof doctorSaved>;
