import { randomBytes } from 'node:crypto';
import { expect } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { BASE_URL } from './env.js';
import { PortalApi } from './fixtures.js';
import type { Credentials } from './fixtures.js';

/**
 * A monitor (CRA) of the given units, created by the administrator through the API
 * (`POST /api/monitors`), with the printed login details it must change at the first sign-in.
 */
export async function createMonitor(api: PortalApi, unitIds: number[]) {
  const suffix = randomBytes(3).toString('hex');
  const { data } = await api.call<{
    data: { id: number; firstname: string; surname: string; email: string };
  }>('POST', '/monitors', {
    firstname: 'Maria',
    surname: `Monitorska-${suffix}`,
    email: `monitor.${suffix}@cro.test`,
    phone_number: '600300400',
    unit_ids: unitIds,
  });
  const printed = await api.call<Credentials>('GET', `/monitors/print_login_detail/${data.id}`);
  return { monitor: data, printed };
}

/** Opens the portal signed in as any staff account (a monitor too), as openSignedIn does. */
export async function openSignedInAs(
  page: Page,
  request: APIRequestContext,
  path: string,
  role: 'admin' | 'doctor' | 'monitor',
  credentials: Credentials,
) {
  const res = await request.post(`${BASE_URL}/api/auth/login/${role}`, { data: credentials });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { access_token: string; user: unknown };
  await page.goto('/api/health');
  await page.evaluate(
    (s) => {
      localStorage.setItem('portal.token', s.token);
      localStorage.setItem('portal.user', JSON.stringify(s.user));
    },
    { token: body.access_token, user: body.user },
  );
  await page.goto(path);
}

/** The API as a monitor (PortalApi.signIn knows administrators and doctors only). */
export async function monitorApi(request: APIRequestContext, credentials: Credentials) {
  const res = await request.post(`${BASE_URL}/api/auth/login/monitor`, { data: credentials });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { access_token: string };
  return new PortalApi(request, body.access_token);
}
