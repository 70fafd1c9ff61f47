import type {
  ChangePasswordBody,
  ChangePasswordResponse,
  LoginBody,
  LoginResponse,
  AccountRole,
} from '@portal/shared';
import { api } from '../../lib/api-client';

/** A doctor signs in with the e-mail as login (ADR 004). */
export function login(role: AccountRole, body: LoginBody) {
  return api.request<LoginResponse>(`/auth/login/${role}`, { method: 'POST', body, auth: false });
}

export function changePassword(body: ChangePasswordBody) {
  return api.put<ChangePasswordResponse>('/change_password', body);
}
