import { randomBytes } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_LOGIN, ADMIN_PASSWORD, BASE_URL } from './env.js';

export { expect };

export interface Credentials {
  login: string;
  password: string;
}

export interface StaffSession {
  token: string;
  user: { id: number; login: string; role: 'admin' | 'doctor'; changed_password_at: string | null };
}

/** A short random suffix, so that tests never collide on unique names. */
export function unique(prefix: string): string {
  return `${prefix} ${randomBytes(3).toString('hex')}`;
}

/** The API as the seeded administrator, for arranging data that a test is not about. */
export class PortalApi {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async signIn(
    request: APIRequestContext,
    role: 'admin' | 'doctor' = 'admin',
    credentials: Credentials = { login: ADMIN_LOGIN, password: ADMIN_PASSWORD },
  ) {
    const res = await request.post(`${BASE_URL}/api/auth/login/${role}`, { data: credentials });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as StaffSession & { access_token: string };
    return {
      api: new PortalApi(request, body.access_token),
      session: { token: body.access_token, user: body.user },
    };
  }

  /** A request as the administrator whose answer the test inspects itself (refusals too). */
  send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) {
    return this.request.fetch(`${BASE_URL}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'accept-language': 'pl' },
      ...(data === undefined ? {} : { data }),
    });
  }

  async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    data?: unknown,
  ): Promise<T> {
    const res = await this.request.fetch(`${BASE_URL}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}` },
      ...(data === undefined ? {} : { data }),
    });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  }

  async createUnit(name = unique('Poradnia')) {
    const body = {
      name,
      street: 'ul. Żeromskiego',
      building_nr: '7',
      postcode: '90-001',
      city: 'Łódź',
    };
    return (await this.call<{ data: { id: number; name: string } }>('POST', '/units', body)).data;
  }

  async createDoctor(
    unitId: number,
    overrides: Partial<{ firstname: string; surname: string; email: string }> = {},
  ) {
    const suffix = randomBytes(3).toString('hex');
    const body = {
      firstname: 'Anna',
      surname: `Kowalska-${suffix}`,
      email: `lekarz.${suffix}@przychodnia.test`,
      phone_number: '600100200',
      unit_id: unitId,
      ...overrides,
    };
    return (
      await this.call<{
        data: { id: number; firstname: string; surname: string; email: string; unit_id: number };
      }>('POST', '/doctors', body)
    ).data;
  }

  /** Generates fresh login details (the account must change the password at first sign-in). */
  printDoctorLogin(doctorId: number) {
    return this.call<Credentials>('GET', `/doctors/print_login_detail/${doctorId}`);
  }

  /** A doctor who already chose a password: signs in straight to the portal. */
  async readyDoctor(unitId: number) {
    const doctor = await this.createDoctor(unitId);
    const printed = await this.printDoctorLogin(doctor.id);
    const { api } = await PortalApi.signIn(this.request, 'doctor', printed);
    const password = `Lekarz-${randomBytes(4).toString('hex')}`;
    await api.call('PUT', '/change_password', {
      oldPassword: printed.password,
      newPassword: password,
      passwordConfirm: password,
    });
    return { doctor, credentials: { login: printed.login, password } };
  }

  async createAdmin(login = unique('admin').replace(' ', '.')) {
    return (await this.call<{ data: { id: number; login: string } }>('POST', '/admins', { login }))
      .data;
  }

  /** Generates fresh login details for an administrator (to be changed at first sign-in). */
  printAdminLogin(adminId: number) {
    return this.call<Credentials>('GET', `/admins/print_login_detail/${adminId}`);
  }

  /**
   * An administrator of the test's own who already chose a password. Tests that sign out use one:
   * signing out ends every session of the user, so the seeded administrator must never do it.
   */
  async readyAdmin() {
    const admin = await this.createAdmin();
    const printed = await this.printAdminLogin(admin.id);
    const { api } = await PortalApi.signIn(this.request, 'admin', printed);
    const password = `Admin-${randomBytes(4).toString('hex')}`;
    await api.call('PUT', '/change_password', {
      oldPassword: printed.password,
      newPassword: password,
      passwordConfirm: password,
    });
    return { admin, credentials: { login: printed.login, password } };
  }
}

/** Opens the portal already signed in, by writing the session the login screen would write. */
export async function openSignedIn(
  page: Page,
  request: APIRequestContext,
  path: string,
  role: 'admin' | 'doctor' = 'admin',
  credentials?: Credentials,
) {
  const { session } = await PortalApi.signIn(request, role, credentials);
  await page.goto('/login');
  await page.evaluate((s) => {
    localStorage.setItem('portal.token', s.token);
    localStorage.setItem('portal.user', JSON.stringify(s.user));
  }, session);
  await page.goto(path);
}

/** Signs in on the login screen the way a user does: role, login, password, Enter. */
export async function signInThroughUi(
  page: Page,
  role: 'admin' | 'doctor',
  credentials: Credentials,
) {
  await page.goto('/login');
  const roles = page.getByRole('radiogroup', { name: 'Rola' });
  await roles.getByText(role === 'doctor' ? 'Lekarz' : 'Administrator', { exact: true }).click();
  await expect(
    roles.getByRole('radio', { name: role === 'doctor' ? 'Lekarz' : 'Administrator' }),
  ).toBeChecked();
  await page.getByLabel('Login').fill(credentials.login);
  await page.getByLabel('Hasło', { exact: true }).fill(credentials.password);
  await page.getByLabel('Hasło', { exact: true }).press('Enter');
}

export const test = base.extend<{ api: PortalApi }>({
  api: async ({ request }, use) => {
    const { api } = await PortalApi.signIn(request);
    await use(api);
  },
});
