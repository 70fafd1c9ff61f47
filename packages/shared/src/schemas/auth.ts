import { z } from 'zod';
import { ACCOUNT_ROLES, PASSWORD_MIN, STRING_MAX } from '../constants.js';
import { requiredText, secretText, text } from '../validation.js';
import { PERMISSIONS } from '../permissions.js';
import { normalizeLogin } from '../login.js';

export const loginBody = z.object({
  // Normalised as stored (NFKC), so a full-width or decomposed spelling finds the account;
  // nothing is refused here beyond control characters, so a login that could never exist gets
  // the usual 401.
  login: requiredText().transform(normalizeLogin),
  password: secretText(),
});
export type LoginBody = z.infer<typeof loginBody>;

export const sessionUser = z.object({
  id: z.number().int(),
  login: z.string(),
  /** `patient` only for the patient API's sessions (the web app signs in staff only). */
  role: z.enum(ACCOUNT_ROLES),
  changed_password_at: z.string().nullable(),
  /** Set for doctors: the staff record behind the account. */
  doctor_id: z.number().int().nullable(),
  /** The doctor's or the patient's name; null for administrators. */
  firstname: z.string().nullable(),
  surname: z.string().nullable(),
  /** The doctor's (or the patient's) care unit; null for administrators. */
  unit_id: z.number().int().nullable(),
  /** Set for patients: the patient record behind the account. */
  patient_id: z.number().int().nullable().optional(),
  /** What this user may do, computed by the server's policy; the web app asks these. */
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const loginResponse = z.object({ access_token: z.string(), user: sessionUser });
export type LoginResponse = z.infer<typeof loginResponse>;

export const changePasswordBody = z
  .object({
    oldPassword: secretText(),
    newPassword: secretText().min(PASSWORD_MIN, { error: 'password_too_short' }),
    passwordConfirm: secretText(),
  })
  .superRefine((value, ctx) => {
    if (value.newPassword && value.newPassword === value.oldPassword) {
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: 'password_same_as_old' });
    }
    if (value.passwordConfirm && value.passwordConfirm !== value.newPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['passwordConfirm'],
        message: 'password_confirm_mismatch',
      });
    }
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const changePasswordResponse = z.object({
  status: z.literal('success'),
  user: sessionUser,
  access_token: z.string(),
});
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;

/** Login details printed for a user (the login and the password). */
export const credentialPair = z.object({ login: z.string(), password: z.string() });
export type CredentialPair = z.infer<typeof credentialPair>;
/** Printed login details, with the address to sign in at (built from PUBLIC_URL). */
export const loginDetails = credentialPair.extend({ login_url: z.string() });
export type LoginDetails = z.infer<typeof loginDetails>;

export const credentialsSheetBody = z.object({
  login: requiredText(),
  password: secretText(),
  /** Whose sheet it is; decides the title. */
  kind: z.enum(['doctor', 'admin', 'patient', 'monitor']),
  name: text({ max: 2 * STRING_MAX }).optional(),
});
export type CredentialsSheetBody = z.infer<typeof credentialsSheetBody>;
