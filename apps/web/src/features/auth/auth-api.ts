import type {
  ChangePasswordBody,
  LoginBody,
  LoginResponse,
  Role,
  SessionUser,
} from '@portal/shared';
import { api } from '../../lib/api-client';

export interface ChangePasswordResponse {
  status: 'success';
  user: SessionUser;
  access_token: string;
}

/** A doctor signs in with the e-mail as login (design §4). */
export function login(role: Role, body: LoginBody) {
  return api.request<LoginResponse>(`/auth/login/${role}`, { method: 'POST', body, auth: false });
}

export function changePassword(body: ChangePasswordBody) {
  return api.put<ChangePasswordResponse>('/change_password', body);
}
