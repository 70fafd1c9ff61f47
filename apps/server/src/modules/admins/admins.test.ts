import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_PASSWORD_LENGTH, PASSWORD_ALPHABET } from '@portal/shared';
import type { Admin } from '@portal/shared';
import { AppError } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { createTestApp, unique } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';
import { deleteAdmin, ensureInitialAdmin } from './service.js';

const REQUIRED = 'To pole musi być wypełnione';
const TOO_LONG = 'Wartość tego pola jest za długa';
const INVALID = 'Niektóre pola są nieprawidłowe';
const NOT_FOUND = { status: 'not_found' };
const INVALID_CREDENTIALS = { status: 'invalid_credentials', error: 'Invalid credentials' };

let t: TestApp;
let me: ReadyAdmin;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.readyAdmin();
});
afterAll(async () => {
  await t?.close();
});

const as = () => ({ token: me.session.token });

async function create(login = unique('admin')): Promise<Admin> {
  const res = await t.request('POST', '/api/admins', { ...as(), body: { login } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Admin }>().data;
}

async function list(query: Record<string, string>) {
  const res = await t.request('GET', '/api/admins', { ...as(), query });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Admin[]; total: number }>();
}

async function printDetails(id: number) {
  const res = await t.request('GET', `/api/admins/print_login_detail/${id}`, as());
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<{ login: string; password: string }>();
}

describe('POST /api/admins', () => {
  it('creates an administrator', async () => {
    const login = unique('koordynator');
    const res = await t.request('POST', '/api/admins', {
      ...as(),
      body: { login: `  ${login} `, password: 'Moje-Haslo-123' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      data: {
        id: expect.any(Number) as number,
        login,
        role: 'admin',
        deleted_at: null,
        version: 1,
      },
    });
    expect(res.body).not.toContain('password');
    // The password in the body is not taken: login details are printed instead.
    const attempt = await t.request('POST', '/api/auth/login/admin', {
      body: { login, password: 'Moje-Haslo-123' },
      remoteAddress: '10.8.0.1',
    });
    expect(attempt.statusCode).toBe(401);
  });

  it('creates a data protection officer (role iod, ADR 053); any other role is refused', async () => {
    const login = unique('iod');
    const refused = await t.request('POST', '/api/admins', {
      ...as(),
      body: { login, role: 'doctor' },
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json<{ errors: object }>().errors)).toEqual(['role']);
    const res = await t.request('POST', '/api/admins', { ...as(), body: { login, role: 'iod' } });
    expect(res.statusCode).toBe(200);
    const created = res.json<{ data: { id: number; role: string } }>().data;
    expect(created.role).toBe('iod');
    const details = await t.request('GET', `/api/admins/print_login_detail/${created.id}`, as());
    const { password } = details.json<{ password: string }>();
    // An IOD signs in as an IOD, not as an administrator.
    expect(
      (await t.request('POST', '/api/auth/login/iod', { body: { login, password } })).statusCode,
    ).toBe(200);
    expect(
      (await t.request('POST', '/api/auth/login/admin', { body: { login, password } })).statusCode,
    ).toBe(401);
  });

  it('refuses a duplicate login in any letter case with 409 exist_admin', async () => {
    const login = unique('Duplikat');
    await create(login);
    const res = await t.request('POST', '/api/admins', {
      ...as(),
      body: { login: login.toLowerCase() },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 'exist_admin' });
  });

  it('validates the login', async () => {
    for (const [input, message] of [
      [{}, REQUIRED],
      [{ login: '   ' }, REQUIRED],
      [{ login: 'a'.repeat(256) }, TOO_LONG],
    ] as const) {
      const res = await t.request('POST', '/api/admins', { ...as(), body: input });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ status: 'validation_error', errors: { login: [message] } });
    }
  });
});

describe('GET /api/admins', () => {
  it('searches, sorts and pages', async () => {
    const tag = unique('lista');
    const b = await create(`${tag}-b`);
    const a = await create(`${tag}-a`);
    const c = await create(`${tag}-c`);
    expect(
      await list({ search: tag, order_by: 'login', order_direction: 'asc', limit: '2' }),
    ).toEqual({ data: [a, b], total: 3, total_kind: 'exact' });
    expect(
      await list({ search: tag, order_by: 'login', order_direction: 'asc', limit: '2', page: '2' }),
    ).toEqual({ data: [c], total: 3, total_kind: 'exact' });
    expect((await list({ search: tag.toUpperCase() })).data.map((x) => x.id)).toEqual([
      c.id,
      a.id,
      b.id,
    ]);
  });

  it('refuses a limit above 100 and an unknown order_by', async () => {
    const refused: Record<string, string>[] = [{ limit: '101' }, { order_by: 'password_hash' }];
    for (const query of refused) {
      const res = await t.request('GET', '/api/admins', { ...as(), query });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { [Object.keys(query)[0]!]: [INVALID] },
      });
    }
  });
});

describe('GET /api/admins/:id and PUT /api/admins/:id', () => {
  it('answers one administrator, or 404', async () => {
    const admin = await create();
    const res = await t.request('GET', `/api/admins/${admin.id}`, as());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(admin);
    const missing = await t.request('GET', '/api/admins/999999', as());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(NOT_FOUND);
  });

  it('renames; the new login signs in and a taken one is refused with 409', async () => {
    const ready = await t.readyAdmin();
    const login = unique('nowy-login');
    const res = await t.request('PUT', `/api/admins/${ready.admin.id}`, {
      ...as(),
      body: { login, version: ready.admin.version },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      data: { id: ready.admin.id, login, role: 'admin', deleted_at: null, version: 2 },
    });
    await t.login('admin', login, ready.password);

    const taken = await t.request('PUT', `/api/admins/${ready.admin.id}`, {
      ...as(),
      body: { login: me.login.toUpperCase(), version: 2 },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ status: 'exist_admin' });

    const missing = await t.request('PUT', '/api/admins/999999', {
      ...as(),
      body: { login, version: 1 },
    });
    expect(missing.statusCode).toBe(404);
    const invalid = await t.request('PUT', `/api/admins/${ready.admin.id}`, {
      ...as(),
      body: { login: '', version: 2 },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toEqual({ status: 'validation_error', errors: { login: [REQUIRED] } });

    const stale = await t.request('PUT', `/api/admins/${ready.admin.id}`, {
      ...as(),
      body: { login: unique('spozniony'), version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const unchanged = await t.request('GET', `/api/admins/${ready.admin.id}`, as());
    expect(unchanged.json()).toMatchObject({ login, version: 2 });
  });
});

describe('DELETE /api/admins/:id and PUT /api/admins/restore/:id', () => {
  it('refuses to delete the own account', async () => {
    const res = await t.request('DELETE', `/api/admins/${me.admin.id}`, as());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 'cannot_delete_self' });
    const still = await t.request('GET', `/api/admins/${me.admin.id}`, as());
    expect(still.json<Admin>().deleted_at).toBeNull();
  });

  it('soft-deletes another administrator, ends the sessions, and restores', async () => {
    const other = await t.readyAdmin();
    const del = await t.request('DELETE', `/api/admins/${other.admin.id}`, as());
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ status: 'success' });

    const session = await t.request('GET', '/api/units', { token: other.session.token });
    expect(session.statusCode).toBe(401);
    const login = await t.request('POST', '/api/auth/login/admin', {
      body: { login: other.login, password: other.password },
      remoteAddress: '10.8.0.2',
    });
    expect(login.statusCode).toBe(401);
    expect(login.json()).toEqual(INVALID_CREDENTIALS);

    const listed = await list({ search: other.login });
    expect(listed.data).toEqual([{ ...other.admin, deleted_at: expect.any(String) as string }]);
    const all = await t.request('GET', '/api/admins/all', as());
    expect(all.statusCode).toBe(200);
    const allIds = all.json<{ data: Admin[] }>().data.map((a) => a.id);
    expect(allIds).not.toContain(other.admin.id);
    expect(allIds).toContain(me.admin.id);
    const printed = await t.request(
      'GET',
      `/api/admins/print_login_detail/${other.admin.id}`,
      as(),
    );
    expect(printed.statusCode).toBe(404);

    const restore = await t.request('PUT', `/api/admins/restore/${other.admin.id}`, as());
    expect(restore.statusCode).toBe(200);
    expect(restore.json()).toEqual({ status: 'success' });
    expect((await list({ search: other.login })).data).toEqual([other.admin]);
    await t.login('admin', other.login, other.password);
  });

  it('answers 404 for missing administrators', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/admins/999999'],
      ['PUT', '/api/admins/restore/999999'],
      ['GET', '/api/admins/print_login_detail/999999'],
    ] as const) {
      const res = await t.request(method, url, as());
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });
});

describe('GET /api/admins/print_login_detail/:id', () => {
  it('sets a new generated password that must be changed; the old one stops working', async () => {
    const other = await t.readyAdmin();
    const details = await printDetails(other.admin.id);
    expect(details.login).toBe(other.login);
    expect(details.password).toHaveLength(GENERATED_PASSWORD_LENGTH);
    expect([...details.password].every((c) => PASSWORD_ALPHABET.includes(c))).toBe(true);

    expect((await t.request('GET', '/api/units', { token: other.session.token })).statusCode).toBe(
      401,
    );
    const old = await t.request('POST', '/api/auth/login/admin', {
      body: { login: other.login, password: other.password },
      remoteAddress: '10.8.0.3',
    });
    expect(old.statusCode).toBe(401);

    const session = await t.login('admin', details.login, details.password);
    const res = await t.request('GET', '/api/admins', { token: session.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'password_change_required' });
    const changed = await t.changePassword(session, details.password);
    expect((await t.request('GET', '/api/admins', { token: changed.token })).statusCode).toBe(200);
  });

  it('refuses new login details for the own account with 409 own_account; the session lives on', async () => {
    const res = await t.request('GET', `/api/admins/print_login_detail/${me.admin.id}`, as());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 'own_account' });
    // Nothing changed: the same session and password still work.
    expect((await t.request('GET', '/api/admins', as())).statusCode).toBe(200);
    await t.login('admin', me.login, me.password);
    const documented = t.app.swagger().paths?.['/api/admins/print_login_detail/{id}']?.get;
    expect(Object.keys(documented?.responses ?? {})).toContain('409');
  });

  it('works for a new administrator, who then signs in for the first time', async () => {
    const admin = await create();
    const details = await printDetails(admin.id);
    const session = await t.login('admin', admin.login, details.password);
    expect(session.user.changed_password_at).toBeNull();
  });
});

describe('the last administrator', () => {
  // A database with no administrator at all, as on the first start.
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await createTestApp();
  });
  afterAll(async () => {
    await fresh?.close();
  });

  it('cannot be deleted, and a first administrator is created only when none exists', async () => {
    const first = await ensureInitialAdmin(fresh.db, { login: 'admin', password: null });
    expect(first).toEqual({
      created: true,
      login: 'admin',
      generatedPassword: expect.any(String) as string,
    });
    expect(await ensureInitialAdmin(fresh.db, { login: 'admin', password: null })).toEqual({
      created: false,
    });
    const password = (first as { generatedPassword: string }).generatedPassword;
    const session = await fresh.login('admin', 'admin', password);
    expect(session.user.changed_password_at).toBeNull();

    // Through the API an administrator always leaves at least the own account, so the rule is
    // checked on the service with an actor that is not one of the administrators.
    const outsider: Actor = {
      userId: -1,
      sessionId: -1,
      login: 'someone',
      role: 'admin',
      doctorId: null,
      unitId: null,
      changedPasswordAt: new Date(),
    };
    const blocked = await fresh.request('GET', '/api/admins/all', { token: session.token });
    expect(blocked.statusCode).toBe(403); // the printed password is not changed yet
    const ready = await fresh.changePassword(session, password);
    const all = await fresh.request('GET', '/api/admins/all', { token: ready.token });
    const [only] = all.json<{ data: Admin[] }>().data;
    expect(only?.login).toBe('admin');
    const refusal = await deleteAdmin(fresh.db, outsider, only!.id).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 409, status: 'last_admin' });
    const after = await fresh.request('GET', `/api/admins/${only!.id}`, { token: ready.token });
    expect(after.json<Admin>().deleted_at).toBeNull();
  });
});
