/**
 * Path ids are plain digits (ADR 037): on every route the app registers with an id in its path,
 * `1%0d%0a`, `1.0`, `+1`, `0x1`, `1e0`, ` 1` and `01` name no record. Without a token they answer
 * 401 like any other call; with one, 404 `not_found`, never the record whose id they resemble
 * (before, `z.coerce.number` read several of them as 1). Routes are collected from the app
 * itself, as in the access matrix, so a new route is walked without being listed here.
 */
import type * as Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from './harness.js';
import type { ReadyAdmin } from './harness.js';
import { readyPatient } from './patients-fixture.js';
import type { RouteKey } from './routes.js';

const registered = vi.hoisted((): RouteKey[] => {
  // Test files share their worker's modules (isolate is off): start fresh so the mock applies.
  vi.resetModules();
  return [];
});
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof Fastify>();
  const { recordingFactory } = await import('./routes.js');
  return { ...actual, default: recordingFactory(actual.default, registered) };
});

/** Path parameters that name a row. */
const ID_PARAM = /^(id|[a-z]+_id)$/;
/** What a path id looks like when it is not plain digits, written as it travels in the URL. */
const NOT_PLAIN = (id: number) => [
  `${id}%0d%0a`,
  `${id}%0D%0AX`,
  `${id}.0`,
  `%2B${id}`,
  `+${id}`,
  `0x${id.toString(16)}`,
  `${id}e0`,
  `%20${id}`,
  `${id}%20`,
  `0${id}`,
  `${id}%00`,
];

const t = await createTestApp();
afterAll(async () => {
  await t.close();
});

const routes = registered.filter(
  (r) =>
    r.url.startsWith('/api') &&
    r.method !== 'HEAD' &&
    [...r.url.matchAll(/:([A-Za-z_]+)/g)].some((m) => ID_PARAM.test(m[1]!)),
);
const key = (r: RouteKey) => `${r.method} ${r.url}`;

/** The route's URL with every id parameter written as `value` (other parameters valid). */
function urlOf(route: RouteKey, value: string): string {
  return route.url.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    ID_PARAM.test(name) ? value : name,
  );
}

describe('path ids are plain digits on every route', () => {
  let admin: ReadyAdmin;
  let patientToken: string;
  let patientId: number;
  /** A monitor's own writes (ADR 051) are called with a monitor's token. */
  let monitorToken: string;
  beforeAll(async () => {
    admin = await t.readyAdmin();
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    const patient = await readyPatient(t, doctor);
    patientToken = patient.session.token;
    patientId = patient.id;
    monitorToken = (await t.readyMonitor([unit.id])).session.token;
  });
  const tokenFor = (route: RouteKey) =>
    route.url.startsWith('/api/me/')
      ? patientToken
      : /^\/api\/queries\/:id\/(close|reopen)$/.test(route.url)
        ? monitorToken
        : admin.session.token;

  it('walks the routes with an id in the path', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.map(key)).toContain('GET /api/patients/:id');
    expect(routes.map(key)).toContain('POST /api/probes/generate_code/:patient_id');
  });

  it.each(routes.map((r) => [key(r), r] as const))('%s', async (_name, route) => {
    const failures: string[] = [];
    for (const id of NOT_PLAIN(1)) {
      const url = urlOf(route, id);
      const anonymous = await t.app.inject({ method: route.method, url });
      if (anonymous.statusCode !== 401)
        failures.push(`${url} without a token: ${anonymous.statusCode}`);
      const res = await t.app.inject({
        method: route.method,
        url,
        headers: { authorization: `Bearer ${tokenFor(route)}` },
      });
      if (res.statusCode !== 404 || res.json<{ status: string }>().status !== 'not_found')
        failures.push(`${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it('never reaches the record whose id a spelling resembles', async () => {
    const token = admin.session.token;
    const plain = await t.request('GET', `/api/patients/${patientId}`, { token });
    expect(plain.statusCode).toBe(200);
    for (const id of NOT_PLAIN(patientId)) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/patients/${id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, id).toBe(404);
    }
    // A write, too: deleting the patient with a CR LF after the id changes nothing.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/patients/${patientId}%0d%0a`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(removed.statusCode).toBe(404);
    const after = await t.request('GET', `/api/patients/${patientId}`, { token });
    expect(after.json<{ deleted_at: string | null }>().deleted_at).toBeNull();
  });
});
