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
  // A page of the portal's origin that runs no app: on /login the app of a user signed in
  // before restores that session and could write it back after the line below (a second
  // user's test then saw the first user's list).
  await page.goto('/api/health');
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

/** The question asked before new login details replace a password (doctors, admins, patients). */
export const NEW_PASSWORD = {
  question: 'Wygenerować nowe hasło?',
  detail: 'Obecne hasło przestanie działać, a nowe zostanie pokazane tylko raz.',
};

/** Answers that question with "Generuj" or "Anuluj". */
export async function answerNewPasswordQuestion(page: Page, answer: 'Generuj' | 'Anuluj') {
  const question = page.getByRole('dialog', { name: NEW_PASSWORD.question });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: answer, exact: true }).click();
  await expect(question).toBeHidden();
}

export const test = base.extend<{ api: PortalApi }>({
  api: async ({ request }, use) => {
    const { api } = await PortalApi.signIn(request);
    await use(api);
  },
});

// ---------------------------------------------------------------------------------------------
// Patients

const PESEL_WEIGHTS = [9, 7, 3, 1, 9, 7, 3, 1, 9, 7] as const;
const issuedPesels = new Set<string>();

/** The check digit of the first ten digits of a PESEL (weights 9,7,3,1 repeating, sum mod 10). */
export function peselCheckDigit(firstTen: string): number {
  return PESEL_WEIGHTS.reduce((sum, weight, i) => sum + weight * Number(firstTen[i]), 0) % 10;
}

/**
 * A valid PESEL no other test uses: born in the 1900s (month +0) on a random day unless one is
 * given, with a random serial; the tenth digit is odd for 'M' and even for 'K'.
 */
export function newPesel(
  sex: 'M' | 'K' = 'K',
  born?: { year: number; month: number; day: number },
): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  for (;;) {
    const bytes = randomBytes(6);
    const date = born ?? {
      year: 1940 + (bytes[0]! % 60),
      month: 1 + (bytes[1]! % 12),
      day: 1 + (bytes[2]! % 28),
    };
    if (date.year < 1900 || date.year > 1999) throw new RangeError('newPesel: 1900-1999 only');
    const serial = pad(((bytes[3]! << 8) | bytes[4]!) % 1000, 3);
    const sexDigit = (bytes[5]! % 5) * 2 + (sex === 'M' ? 1 : 0);
    const body = `${pad(date.year % 100)}${pad(date.month)}${pad(date.day)}${serial}${sexDigit}`;
    const pesel = `${body}${peselCheckDigit(body)}`;
    if (!issuedPesels.has(pesel)) {
      issuedPesels.add(pesel);
      return pesel;
    }
  }
}

/** The birth date a 1900s PESEL stands for, YYYY-MM-DD. */
export function peselBirthDate(pesel: string): string {
  return `19${pesel.slice(0, 2)}-${pesel.slice(2, 4)}-${pesel.slice(4, 6)}`;
}

export interface PatientBody {
  personal: Record<string, unknown>;
  exclusion: { is_above_18: boolean; exclusion_criteria_id: number | null; is_classified: boolean };
  inclusion: {
    group_id: number;
    subgroup_id: number | null;
    dose: number | null;
    interval: string | null;
  };
  medicines: { medicine_id: number; dose: number | null }[];
  additional_medicines: { name: string; dose: number }[];
}

export interface RegisteredPatient {
  id: number;
  login: string;
  password: string;
  firstname: string;
  surname: string;
  pesel: string;
}

/**
 * A complete registration (POST /api/patients) of a patient of `doctor`: subgroup 1B (walsartan
 * + hydrochlorotiazyd) at 160 mg, two study medicines and one other medicine, qualified.
 */
export function patientBody(
  doctor: { id: number; unit_id: number },
  overrides: {
    personal?: Record<string, unknown>;
    exclusion?: Partial<PatientBody['exclusion']>;
    inclusion?: Partial<PatientBody['inclusion']>;
    medicines?: PatientBody['medicines'];
    additional_medicines?: PatientBody['additional_medicines'];
  } = {},
): PatientBody {
  return {
    personal: {
      firstname: 'Zofia',
      surname: `Wójcik-${randomBytes(3).toString('hex')}`,
      pesel: newPesel('K'),
      address_street: 'ul. Łąkowa',
      address_building: '3',
      address_apartment: '12',
      address_postcode: '90-001',
      address_city: 'Łódź',
      phone_number: '501234567',
      email: null,
      weight: 72.5,
      height: 168,
      // One active patient per project number (ADR 041).
      project_number: `FDC-${randomBytes(4).toString('hex')}`,
      doctor_id: doctor.id,
      unit_id: doctor.unit_id,
      acceptance: true,
      ...overrides.personal,
    },
    exclusion: {
      is_above_18: true,
      exclusion_criteria_id: null,
      is_classified: true,
      ...overrides.exclusion,
    },
    inclusion: { group_id: 1, subgroup_id: 2, dose: 160, interval: null, ...overrides.inclusion },
    medicines: overrides.medicines ?? [
      { medicine_id: 13, dose: 160 },
      { medicine_id: 12, dose: 12.5 },
    ],
    additional_medicines: overrides.additional_medicines ?? [{ name: 'Metformina', dose: 500 }],
  };
}

/** Registers a patient through the API; the answer carries the patient's generated login. */
export async function registerPatient(
  api: PortalApi,
  doctor: { id: number; unit_id: number },
  overrides: Parameters<typeof patientBody>[1] = {},
): Promise<RegisteredPatient> {
  const body = patientBody(doctor, overrides);
  const answer = await api.call<{ patient: Omit<RegisteredPatient, 'pesel'> }>(
    'POST',
    '/patients',
    body,
  );
  return { ...answer.patient, pesel: String(body.personal.pesel) };
}
