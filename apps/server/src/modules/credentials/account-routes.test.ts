import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * The statuses each kind of staff account documents (ADR 047): every route its refusals without
 * an administrator's session (401, 403); what differs (an administrator's own account and the
 * last administrator) must stay where it was.
 */
const documented: Record<string, string[]> = {
  'GET /api/{kind}': ['200', '401', '403', '422'],
  'POST /api/{kind}': ['200', '401', '403', '409', '422'],
  'GET /api/{kind}/{id}': ['200', '401', '403', '404'],
  'PUT /api/{kind}/{id}': ['200', '401', '403', '404', '409', '422'],
  'DELETE /api/{kind}/{id}': ['200', '401', '403', '404'],
  'GET /api/{kind}/print_login_detail/{id}': ['200', '401', '403', '404'],
  'PUT /api/{kind}/restore/{id}': ['200', '401', '403', '404'],
};
const adminOwn = ['DELETE /api/{kind}/{id}', 'GET /api/{kind}/print_login_detail/{id}'];

function statuses(kind: string, route: string): string[] | undefined {
  const [method, path] = route.replace('{kind}', kind).split(' ') as [string, string];
  const operation = t.app.swagger().paths?.[path]?.[method.toLowerCase() as 'get'];
  return operation ? Object.keys(operation.responses ?? {}).sort() : undefined;
}

describe('the account routes of doctors, administrators and monitors', () => {
  it('document the same statuses, and what differs per kind', () => {
    for (const [route, codes] of Object.entries(documented)) {
      expect(statuses('doctors', route), route).toEqual(codes);
      expect(statuses('admins', route), route).toEqual(
        adminOwn.includes(route) ? [...codes, '409'].sort() : codes,
      );
      expect(statuses('monitors', route), route).toEqual(codes);
    }
  });

  it('keep the picker lists of their own modules', () => {
    expect(statuses('doctors', 'GET /api/{kind}/all')).toEqual(['200', '401', '403']);
    expect(statuses('admins', 'GET /api/{kind}/all')).toEqual(['200', '401', '403']);
    expect(statuses('monitors', 'GET /api/{kind}/all')).toBeUndefined();
  });

  it('print login details that no cache keeps, with the login page of the kind', async () => {
    const admin = await t.readyAdmin();
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    const monitor = await t.readyMonitor([unit.id]);
    const other = await t.readyAdmin();
    for (const path of [
      `/api/doctors/print_login_detail/${doctor.doctor.id}`,
      `/api/monitors/print_login_detail/${monitor.monitor.id}`,
      `/api/admins/print_login_detail/${other.admin.id}`,
    ]) {
      const res = await t.request('GET', path, { token: admin.session.token });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('no-store');
      expect(res.json<{ login_url: string }>().login_url, path).toBe('http://portal.test/login');
    }
  });
});
