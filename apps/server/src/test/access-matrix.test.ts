/**
 * Who may call what, checked on every /api route the built app registers. Routes are collected
 * from the app itself; each must be classified below, so a new route fails this file until its
 * access is decided here.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type * as Fastify from 'fastify';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildPesel } from '@portal/shared';
import type { AccountRole, CriteriaGroup, Role } from '@portal/shared';
import { inTransaction } from '../db/client.js';
import { probes, safetyAlerts, sessions, unitCalendarRules, visits } from '../db/schema.js';
import { tokenDigest } from '../lib/tokens.js';
import { permissionsOf } from '../plugins/policy.js';
import { createTestApp } from './harness.js';
import { readyPatient, registerPatient } from './patients-fixture.js';
import type { ReadyPatient } from './patients-fixture.js';
import type { ReadyAdmin, ReadyDoctor, ReadyMonitor, RequestOptions, Session } from './harness.js';
import { insertProbe } from './probe-fixture.js';
import { routeKey } from './routes.js';
import { withStoredVersion } from './versions.js';

type VersionedTestTable =
  typeof probes | typeof safetyAlerts | typeof unitCalendarRules | typeof visits;
import type { RouteKey } from './routes.js';

// Every route the app registers, recorded by an onRoute hook on the instance buildApp creates.
const registered = vi.hoisted((): RouteKey[] => {
  // Test files share their worker's modules (isolate is off): an app module that an earlier file
  // loaded would keep the real Fastify, so this file starts from fresh modules for the mock.
  vi.resetModules();
  return [];
});
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof Fastify>();
  const { recordingFactory } = await import('./routes.js');
  return { ...actual, default: recordingFactory(actual.default, registered) };
});

/**
 * - public: no token needed.
 * - signed-in: any signed-in user, also before a generated password was replaced (auth calls).
 * - staff: administrators and doctors with a chosen password.
 * - admin: administrators only; a doctor gets 403.
 * - patient: the patient API (`/api/me/*`): patients only, staff get 403; a patient gets 403 on
 *   every staff and admin route (the "a patient token" block below).
 * - user: any role with a chosen password, each reaching only the own rows (the notifications'
 *   bell and e-mail choices, ADR 062).
 * - monitor: a monitor's own writes (verification marks, queries; ADR 051): administrators and
 *   doctors get 403 (the "a monitor token" block below).
 */
type Who = 'public' | 'signed-in' | 'staff' | 'admin' | 'patient' | 'user' | 'monitor';

interface Rule {
  who: Who;
  /** validate_token answers 401 to the other roles. */
  role?: AccountRole;
  /** The call ends the caller's sessions, so it gets a session of its own. */
  endsSession?: boolean;
  /** Doctors reach only their own unit's rows here: see the unit-scope rows below. */
  unitScoped?: boolean;
}

const rules: Record<string, Rule> = {
  'GET /api/health': { who: 'public' },
  'GET /api/health/live': { who: 'public' },
  'GET /api/health/ready': { who: 'public' },
  'POST /api/auth/login/admin': { who: 'public' },
  'POST /api/auth/login/doctor': { who: 'public' },
  'POST /api/auth/login/patient': { who: 'public' },
  'POST /api/auth/login/monitor': { who: 'public' },
  'POST /api/auth/login/iod': { who: 'public' },
  'POST /api/auth/refresh': { who: 'public' },

  'GET /api/auth/validate_token/admin': { who: 'signed-in', role: 'admin' },
  'GET /api/auth/validate_token/doctor': { who: 'signed-in', role: 'doctor' },
  'GET /api/auth/validate_token/patient': { who: 'signed-in', role: 'patient' },
  'GET /api/auth/validate_token/monitor': { who: 'signed-in', role: 'monitor' },
  'GET /api/auth/validate_token/iod': { who: 'signed-in', role: 'iod' },
  'POST /api/auth/logout': { who: 'signed-in', endsSession: true },
  'PUT /api/change_password': { who: 'signed-in' },

  'GET /api/units': { who: 'staff' },
  'GET /api/units/all': { who: 'staff' },
  'GET /api/units/:id': { who: 'staff' },
  'POST /api/units': { who: 'admin' },
  'PUT /api/units/:id': { who: 'admin' },
  'PUT /api/units/restore/:id': { who: 'admin' },
  'DELETE /api/units/:id': { who: 'admin' },
  'GET /api/units/calendar/get_by_filters': { who: 'staff', unitScoped: true },
  'GET /api/units/calendar/get_rules_count': { who: 'staff', unitScoped: true },
  'POST /api/units/calendar': { who: 'staff', unitScoped: true },
  'PUT /api/units/calendar/:id': { who: 'staff', unitScoped: true },
  'DELETE /api/units/calendar/:id': { who: 'staff', unitScoped: true },

  'GET /api/doctors': { who: 'admin' },
  'GET /api/doctors/all': { who: 'staff', unitScoped: true },
  'GET /api/doctors/:id': { who: 'admin' },
  'GET /api/doctors/print_login_detail/:id': { who: 'admin' },
  'POST /api/doctors': { who: 'admin' },
  'PUT /api/doctors/:id': { who: 'admin' },
  'PUT /api/doctors/restore/:id': { who: 'admin' },
  'DELETE /api/doctors/:id': { who: 'admin' },

  // Monitor accounts (ADR 051), managed like doctors'.
  'GET /api/monitors': { who: 'admin' },
  'GET /api/monitors/:id': { who: 'admin' },
  'GET /api/monitors/print_login_detail/:id': { who: 'admin' },
  'POST /api/monitors': { who: 'admin' },
  'PUT /api/monitors/:id': { who: 'admin' },
  'PUT /api/monitors/restore/:id': { who: 'admin' },
  'DELETE /api/monitors/:id': { who: 'admin' },
  // Electronic signatures (ADR 050): administrators and doctors sign, of reachable records.
  'POST /api/signatures': { who: 'staff', unitScoped: true },
  'GET /api/signatures': { who: 'staff', unitScoped: true },
  // Queries (ADR 051): the site reads and answers; only a monitor opens, closes, reopens.
  'GET /api/queries': { who: 'staff', unitScoped: true },
  'POST /api/queries/:id/messages': { who: 'staff' },
  'POST /api/queries': { who: 'monitor' },
  'POST /api/queries/:id/close': { who: 'monitor' },
  'POST /api/queries/:id/reopen': { who: 'monitor' },
  'POST /api/verifications': { who: 'monitor' },

  'GET /api/admins': { who: 'admin' },
  'GET /api/admins/all': { who: 'admin' },
  'GET /api/admins/:id': { who: 'admin' },
  'GET /api/admins/print_login_detail/:id': { who: 'admin' },
  'POST /api/admins': { who: 'admin' },
  // The read-access log: administrators and the IOD (ADR 052).
  'GET /api/access_log': { who: 'admin' },
  'PUT /api/admins/:id': { who: 'admin' },
  'PUT /api/admins/restore/:id': { who: 'admin' },
  'DELETE /api/admins/:id': { who: 'admin' },

  'POST /api/credentials/pdf': { who: 'staff' },

  'GET /api/inclusion_criteria_group': { who: 'staff' },
  'GET /api/exclusion_criteria': { who: 'staff' },
  'GET /api/medicine': { who: 'staff' },

  'GET /api/patients': { who: 'staff', unitScoped: true },
  'GET /api/patients/all': { who: 'staff', unitScoped: true },
  'GET /api/patients/options': { who: 'staff', unitScoped: true },
  // The patients list shaped for cards (issue 20, ADR 038): the list's own scope.
  'GET /api/patients/cards': { who: 'staff', unitScoped: true },
  // Uniqueness of PESEL is global, so the check looks at every unit.
  'GET /api/patients/validate_pesel': { who: 'staff' },
  'GET /api/patients/next_project_number': { who: 'staff' },
  'GET /api/patients/print_password/:id': { who: 'staff', unitScoped: true },
  'GET /api/patients/:id': { who: 'staff', unitScoped: true },
  'GET /api/patients/:id/basic': { who: 'staff', unitScoped: true },
  // The PESEL and contacts in clear, logged (ADR 053).
  'GET /api/patients/:id/identity': { who: 'staff', unitScoped: true },
  'GET /api/patients/:id/visits': { who: 'staff', unitScoped: true },
  'POST /api/patients': { who: 'staff', unitScoped: true },
  'PUT /api/patients/:id': { who: 'staff', unitScoped: true },
  'PUT /api/patients/restore/:id': { who: 'staff', unitScoped: true },
  'DELETE /api/patients/:id': { who: 'staff', unitScoped: true },
  'GET /api/patients/notes': { who: 'staff', unitScoped: true },
  'POST /api/patients/notes': { who: 'staff', unitScoped: true },
  'DELETE /api/patients/notes/:id': { who: 'staff', unitScoped: true },
  'GET /api/files': { who: 'staff', unitScoped: true },
  'POST /api/files': { who: 'staff', unitScoped: true },
  'GET /api/files/:id': { who: 'staff', unitScoped: true },
  'DELETE /api/files/:id': { who: 'staff', unitScoped: true },
  'GET /api/visits/:id': { who: 'staff', unitScoped: true },
  'PUT /api/visits/:id/results': { who: 'staff', unitScoped: true },
  // The visit's notes (issue 20, ADR 038): whoever may record the visit.
  'PUT /api/visits/:id/notes': { who: 'staff', unitScoped: true },
  // Without user_id the caller's own notifications (anyone); with it a patient's messages (staff).
  'GET /api/notifications': { who: 'user', unitScoped: true },
  'POST /api/notifications/:id/read': { who: 'user' },
  'GET /api/notifications/outbox': { who: 'admin' },
  'GET /api/me/notification_preferences': { who: 'user' },
  'PUT /api/me/notification_preferences': { who: 'user' },
  'GET /api/settings/smtp': { who: 'admin' },
  'POST /api/settings/smtp': { who: 'admin' },
  'POST /api/settings/smtp/test': { who: 'admin' },
  'POST /api/notifications': { who: 'staff', unitScoped: true },
  'PUT /api/notifications/:id': { who: 'staff', unitScoped: true },
  'DELETE /api/notifications/:id': { who: 'staff', unitScoped: true },

  'GET /api/units/:id/slots': { who: 'staff', unitScoped: true },
  'POST /api/visits': { who: 'staff', unitScoped: true },
  'PUT /api/visits/:id': { who: 'staff', unitScoped: true },
  'DELETE /api/visits/:id': { who: 'staff', unitScoped: true },
  'GET /api/visits': { who: 'staff', unitScoped: true },
  'GET /api/visits/count': { who: 'staff', unitScoped: true },
  'GET /api/patients/:id/visit_window': { who: 'staff', unitScoped: true },

  'GET /api/audit_trial': { who: 'admin' },
  'GET /api/audit_trial/verify': { who: 'admin' },
  'GET /api/audit_trial/export.csv': { who: 'admin' },
  'GET /api/audit_trial/export.pdf': { who: 'admin' },
  // Record and study locks (ADR 048); everyone signed in reads whether the study is locked.
  'POST /api/records/lock': { who: 'admin' },
  'POST /api/records/unlock': { who: 'admin' },
  'GET /api/study/lock': { who: 'signed-in' },
  'POST /api/study/lock': { who: 'admin' },
  'POST /api/study/unlock': { who: 'admin' },

  'GET /api/visits/overdue': { who: 'staff', unitScoped: true },

  'GET /api/dashboard': { who: 'staff', unitScoped: true },

  // Samples: carriers and the order link are the same for every unit.
  'GET /api/probes/carriers': { who: 'staff' },
  'GET /api/probes/order_link': { who: 'staff' },
  'POST /api/probes/generate_code/:patient_id': { who: 'staff', unitScoped: true },
  'POST /api/probes': { who: 'staff', unitScoped: true },
  'GET /api/probes/:id': { who: 'staff', unitScoped: true },
  'PUT /api/probes/:id': { who: 'staff', unitScoped: true },
  'GET /api/patients/:id/probes': { who: 'staff', unitScoped: true },
  // Samples' results and safety alerts (issue 10).
  'PUT /api/probes/:id/results': { who: 'staff', unitScoped: true },
  'GET /api/alerts': { who: 'staff', unitScoped: true },
  'PUT /api/alerts/:id/acknowledge': { who: 'staff', unitScoped: true },
  // Labels and the reception scan (issue 10): a doctor reaches the own unit's samples only.
  'GET /api/probes/:id/label.zpl': { who: 'staff', unitScoped: true },
  'GET /api/probes/:id/label.pdf': { who: 'staff', unitScoped: true },
  'POST /api/probes/receive': { who: 'staff', unitScoped: true },
  'GET /api/probes': { who: 'staff', unitScoped: true },
  // Kit orders (issue 11): a doctor reads and orders for the own unit; deciding and waybills
  // are an administrator's (probe_sets.manage).
  'GET /api/probe-sets': { who: 'staff', unitScoped: true },
  'POST /api/probe-sets': { who: 'staff', unitScoped: true },
  'PUT /api/probe-sets/patient-sets': { who: 'staff', unitScoped: true },
  'GET /api/probe-sets/patient-sets/:patient_id': { who: 'staff', unitScoped: true },
  'GET /api/probe-sets/probes/:id': { who: 'staff', unitScoped: true },
  'GET /api/probe-sets/:id': { who: 'staff', unitScoped: true },
  // Kit labels (issue 20): printed from the order's page, the own unit's orders for a doctor.
  'GET /api/probe-sets/:id/label.zpl': { who: 'staff', unitScoped: true },
  'GET /api/probe-sets/:id/label.pdf': { who: 'staff', unitScoped: true },
  'PUT /api/probe-sets/:id': { who: 'admin' },
  'PUT /api/probe-sets/tracking/:id': { who: 'admin' },

  // Shipment tracking (issue 11): "refresh now" asks the provider about every due kit.
  'POST /api/probe-sets/tracking/refresh': { who: 'admin' },
  'POST /api/probe-sets/:id/tracking/refresh': { who: 'admin' },

  // Unmatched laboratory results (issue 12): administrators only (lab.unmatched).
  'GET /api/lab/unmatched': { who: 'admin' },
  'GET /api/lab/unmatched/:id/preview': { who: 'admin' },
  'PUT /api/lab/unmatched/:id': { who: 'admin' },
  'PUT /api/lab/unmatched/:id/discard': { who: 'admin' },
  // Data out (issue 12): the Excel report and the CDISC ODM export.
  'POST /api/generate_reports': { who: 'admin' },
  'GET /api/exports/odm.xml': { who: 'admin' },
  // A patient's copy and the FHIR export (ADR 054, 055): administrators only.
  'GET /api/exports/fhir': { who: 'admin' },
  'GET /api/patients/:id/fhir': { who: 'admin' },
  'GET /api/patients/:id/export.json': { who: 'admin' },
  'GET /api/patients/:id/export.pdf': { who: 'admin' },

  'GET /api/settings/:name': { who: 'admin' },
  // Retention (ADR 059): administrators only.
  'GET /api/retention/preview': { who: 'admin' },
  'POST /api/retention/run': { who: 'admin' },
  'GET /api/retention/runs/latest': { who: 'admin' },
  // Panel documents (not a unit's): a doctor lists the doctor panel; the patient panel answers
  // a doctor 403 (modules/documents/documents.test.ts).
  'GET /api/settings/documents/:panel': { who: 'staff' },
  'POST /api/settings/:name': { who: 'admin' },

  // Announcements (issue 11): every unit's staff reads them; a doctor changes only the own
  // (403, below). The support number is on the login page.
  'GET /api/notifications/global': { who: 'staff' },
  'POST /api/notifications/global': { who: 'staff' },
  'PUT /api/notifications/global/:id': { who: 'staff' },
  'DELETE /api/notifications/global/:id': { who: 'staff' },
  'GET /api/support': { who: 'public' },
  // The laboratory (issue 12): no token, HTTP Basic against the synevo setting before the body
  // is read (401 with WWW-Authenticate, 403 while switched off, 429 after wrong passwords:
  // modules/lab/hl7.test.ts, hl7-transport.test.ts).
  'POST /api/lab/hl7': { who: 'public' },

  // The data import (issue 12): administrators only (imports.manage).
  'POST /api/data_import/:mode': { who: 'admin' },
  'GET /api/data_import/batches': { who: 'admin' },
  'PUT /api/data_import/batches/:id/restore': { who: 'admin' },
  'GET /api/data_import/templates/:file': { who: 'admin' },

  // The patient API (issue 11): the signed-in patient's own record only.
  'GET /api/me': { who: 'patient' },
  'GET /api/me/export.json': { who: 'patient' },
  'GET /api/me/messages': { who: 'patient' },
  'GET /api/me/announcements': { who: 'patient' },
  'GET /api/me/documents': { who: 'patient' },
  'GET /api/me/documents/:id': { who: 'patient' },
  'GET /api/me/visits': { who: 'patient' },
  'GET /api/me/probes': { who: 'patient' },
  'GET /api/me/probe-sets': { who: 'patient' },
  'POST /api/me/probe-sets': { who: 'patient' },
};

/** The OpenAPI document and its UI are public. */
const isDocs = (route: RouteKey) => route.url === '/api/docs' || route.url.startsWith('/api/docs/');

function ruleOf(route: RouteKey): Rule | undefined {
  if (isDocs(route)) return { who: 'public' };
  // HEAD is Fastify's automatic twin of GET and shares its configuration.
  const key = route.method === 'HEAD' ? routeKey({ ...route, method: 'GET' }) : routeKey(route);
  return rules[key];
}

const UNAUTHORIZED = { status: 'unauthorized', error: 'Unauthorized' };
const EXPIRED = { status: 'unauthorized', error: 'Expired Token' };
const FORBIDDEN = { status: 'forbidden' };
const MUST_CHANGE = { status: 'password_change_required' };
const NOT_FOUND = { status: 'not_found' };

// Built at load time so that one test per route can be declared.
const t = await createTestApp();
afterAll(async () => {
  await t.close();
});

const apiRoutes = registered.filter((r) => r.url.startsWith('/api'));
const classified = apiRoutes.filter((r) => ruleOf(r) !== undefined);
const withRule = (pred: (rule: Rule, route: RouteKey) => boolean, methods: 'all' | 'no-head') =>
  classified
    .filter((r) => methods === 'all' || r.method !== 'HEAD')
    .filter((r) => pred(ruleOf(r)!, r))
    .map((r) => [routeKey(r), r] as const);

/** A request that reaches the route: path parameters get an id that does not exist. */
function call(route: RouteKey, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
  const url = route.url.replace(/:[A-Za-z_]+/g, '999999').replace(/\*$/, 'x');
  return t.request(route.method, url, options);
}

function expectBody(res: LightMyRequestResponse, route: RouteKey, body: unknown) {
  // HEAD answers carry no body.
  if (route.method !== 'HEAD') expect(res.json()).toEqual(body);
}

describe('route inventory', () => {
  it('finds the routes of every feature', () => {
    const keys = apiRoutes.map(routeKey);
    for (const key of [
      'GET /api/health',
      'POST /api/units',
      'GET /api/docs/json',
      'PUT /api/change_password',
    ]) {
      expect(keys).toContain(key);
    }
    expect(apiRoutes.length).toBeGreaterThan(30);
  });

  it('classifies every /api route', () => {
    const unclassified = apiRoutes.filter((r) => ruleOf(r) === undefined).map(routeKey);
    // A new route must be added to `rules` above with who may call it.
    expect(unclassified).toEqual([]);
  });

  it('lists every documented path', () => {
    const documented = Object.keys(t.app.swagger().paths ?? {}).map((p) =>
      p.replace(/\{(\w+)\}/g, ':$1'),
    );
    const urls = new Set(apiRoutes.map((r) => r.url));
    // /metrics is the operator's, outside /api, with its own token (ADR 056; operations.test.ts).
    expect(documented.filter((p) => !urls.has(p) && p !== '/metrics')).toEqual([]);
  });

  it('declares in the OpenAPI the 401 and 403 of every route that needs a session', () => {
    const paths = (t.app.swagger().paths ?? {}) as Record<
      string,
      Record<string, { responses?: Record<string, unknown> } | undefined>
    >;
    const undeclared: string[] = [];
    let checked = 0;
    for (const [key, route] of withRule((rule) => rule.who !== 'public', 'no-head')) {
      const operation = paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      if (!operation) continue;
      checked += 1;
      // Before the password change only 'signed-in' routes answer; the others may say 403.
      const refusals = ruleOf(route)!.who === 'signed-in' ? ['401'] : ['401', '403'];
      const codes = Object.keys(operation.responses ?? {});
      for (const code of refusals) if (!codes.includes(code)) undeclared.push(`${key} ${code}`);
    }
    expect(undeclared).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

describe('without a token', () => {
  it.each(withRule((rule) => rule.who !== 'public', 'all'))('%s answers 401', async (_, route) => {
    const res = await call(route);
    expect(res.statusCode).toBe(401);
    expectBody(res, route, UNAUTHORIZED);
  });

  it.each(withRule((rule) => rule.who !== 'public', 'no-head'))(
    '%s answers 401 to an unknown or malformed token',
    async (_, route) => {
      for (const authorization of [
        `Bearer ${randomBytes(32).toString('base64url')}`,
        'Token abc',
      ]) {
        const res = await call(route, { headers: { authorization } });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(UNAUTHORIZED);
      }
    },
  );

  // The connector checks its own HTTP Basic before the body is read (401 without it, ADR 034).
  it.each(
    withRule(
      (rule, r) =>
        rule.who === 'public' && r.url !== '/api/auth/refresh' && r.url !== '/api/lab/hl7',
      'no-head',
    ),
  )('%s is reachable', async (_, route) => {
    const res = await call(route);
    expect([401, 403]).not.toContain(res.statusCode);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('signed in', () => {
  let admin: ReadyAdmin;
  let doctor: ReadyDoctor;
  let expired: Session;
  let mustChange: Record<Role, { login: string; password: string }>;
  beforeAll(async () => {
    admin = await t.readyAdmin();
    doctor = await t.readyDoctor((await t.unit()).id);
    expired = await t.login('admin', admin.login, admin.password);
    await t.db
      .update(sessions)
      .set({ access_expires_at: new Date(Date.now() - 1000) })
      .where(eq(sessions.access_token_hash, tokenDigest(expired.token)));
    const pendingAdmin = await t.admin({ ready: false });
    const pendingDoctor = await t.doctor((await t.unit()).id);
    mustChange = { admin: pendingAdmin, doctor: pendingDoctor };
  });

  /**
   * A token of the role's shared user, or of a throwaway user for a call that ends every session
   * of its user (logout), so that the shared users keep theirs.
   */
  async function tokenFor(role: Role, rule: Rule, ready = true): Promise<string> {
    if (!ready) {
      const user = rule.endsSession
        ? role === 'admin'
          ? await t.admin({ ready: false })
          : await t.doctor(doctor.doctor.unit_id)
        : mustChange[role];
      return (await t.login(role, user.login, user.password)).token;
    }
    if (rule.endsSession) {
      const user =
        role === 'admin' ? await t.readyAdmin() : await t.readyDoctor(doctor.doctor.unit_id);
      return user.session.token;
    }
    return (role === 'admin' ? admin : doctor).session.token;
  }

  it.each(withRule((rule) => rule.who !== 'public', 'no-head'))(
    '%s answers Expired Token to an expired access token',
    async (_, route) => {
      const res = await call(route, { token: expired.token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(EXPIRED);
    },
  );

  it.each(withRule((rule) => rule.who === 'admin', 'no-head'))(
    '%s forbids a doctor',
    async (_, route) => {
      const res = await call(route, { token: doctor.session.token, body: {} });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    },
  );

  for (const role of ['admin', 'doctor'] as const) {
    it.each(
      withRule(
        (rule) => rule.who === 'staff' || rule.who === 'admin' || rule.who === 'user',
        'no-head',
      ),
    )(`%s requires a ${role} to change the generated password first`, async (_, route) => {
      const res = await call(route, {
        token: await tokenFor(role, ruleOf(route)!, false),
        body: {},
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(MUST_CHANGE);
    });

    it.each(withRule((rule) => rule.who === 'signed-in', 'no-head'))(
      `%s is open to a ${role} who has not changed the password`,
      async (_, route) => {
        const rule = ruleOf(route)!;
        const res = await call(route, { token: await tokenFor(role, rule, false), body: {} });
        if (rule.role && rule.role !== role) {
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual(UNAUTHORIZED);
          return;
        }
        expect([401, 403]).not.toContain(res.statusCode);
        expect(res.statusCode).toBeLessThan(500);
      },
    );

    const allowed = (rule: Rule) =>
      rule.who === 'signed-in' ||
      rule.who === 'user' ||
      rule.who === 'staff' ||
      (rule.who === 'admin' && role === 'admin');
    it.each(withRule(allowed, 'no-head'))(`%s lets a ${role} through`, async (_, route) => {
      const rule = ruleOf(route)!;
      const res = await call(route, { token: await tokenFor(role, rule), body: {} });
      // Locking the study would refuse every later write of this file (ADR 048).
      if (route.method === 'POST' && route.url === '/api/study/lock') {
        await t.handle.executeSql(`delete from settings where key = 'study_lock'`);
      }
      if (rule.role && rule.role !== role) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(UNAUTHORIZED);
        return;
      }
      expect([401, 403]).not.toContain(res.statusCode);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toContain('password_hash');
      expect(res.body).not.toContain('$argon2');
    });
  }
});

/* ------------------------------------------------------------------------------------------ */
/* A patient token (the patient API)                                                          */
/* ------------------------------------------------------------------------------------------ */

/** What a data protection officer (IOD, ADR 053) may call beyond the sign-in routes. */
const IOD_ROUTES = new Set([
  'GET /api/access_log',
  'GET /api/audit_trial',
  'GET /api/audit_trial/verify',
  'GET /api/audit_trial/export.csv',
  'GET /api/audit_trial/export.pdf',
  'GET /api/patients/:id/identity',
]);

describe('an IOD token', () => {
  let iod: ReadyAdmin;
  beforeAll(async () => {
    iod = await t.readyIod();
  });

  it.each(withRule((rule) => rule.who === 'staff' || rule.who === 'admin', 'no-head'))(
    '%s: the IOD reads the logs only, and writes nothing',
    async (key, route) => {
      const res = await call(route, { token: iod.session.token, body: {} });
      if (IOD_ROUTES.has(key)) expect(res.statusCode).not.toBe(403);
      else {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(FORBIDDEN);
      }
    },
  );

  it.each(withRule((rule) => rule.who === 'patient', 'no-head'))(
    '%s forbids the IOD',
    async (_, route) => {
      const res = await call(route, { token: iod.session.token, body: {} });
      expect(res.statusCode).toBe(403);
    },
  );
});

describe('a patient token', () => {
  let patient: ReadyPatient;
  /** A patient who signed in but has not replaced the printed password. */
  let pending: string;
  let admin: ReadyAdmin;
  let doctor: ReadyDoctor;
  beforeAll(async () => {
    admin = await t.readyAdmin();
    doctor = await t.readyDoctor((await t.unit()).id);
    patient = await readyPatient(t, doctor);
    const printed = await registerPatient(t, doctor);
    pending = (await t.login('patient', printed.login, printed.password)).token;
  });

  const staffRoutes = withRule(
    (rule) => rule.who === 'staff' || rule.who === 'admin' || rule.who === 'monitor',
    'no-head',
  );
  it('covers every staff route the app registers', () => {
    // Built from the app's own routes: a new staff route is refused to patients here unasked.
    const everyStaffRoute = apiRoutes.filter((r) => {
      const who = ruleOf(r)?.who;
      return (
        r.method !== 'HEAD' &&
        who !== 'public' &&
        who !== 'signed-in' &&
        who !== 'patient' &&
        who !== 'user'
      );
    });
    expect(staffRoutes.map(([key]) => key).sort()).toEqual(everyStaffRoute.map(routeKey).sort());
    expect(staffRoutes.length).toBeGreaterThan(60);
  });

  it.each(staffRoutes)('%s forbids a patient', async (_, route) => {
    const res = await call(route, { token: patient.session.token, body: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });

  const userRoutes = withRule((rule) => rule.who === 'user', 'no-head');
  it.each(userRoutes)('%s lets a patient through to the own rows', async (_, route) => {
    const res = await call(route, { token: patient.session.token, body: {} });
    expect([401, 403]).not.toContain(res.statusCode);
    expect(res.statusCode).toBeLessThan(500);
  });

  const patientRoutes = withRule((rule) => rule.who === 'patient', 'no-head');
  it.each(patientRoutes)('%s forbids administrators and doctors', async (_, route) => {
    for (const token of [admin.session.token, doctor.session.token]) {
      const res = await call(route, { token, body: {} });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    }
  });

  it.each(patientRoutes)(
    '%s requires a patient to change the printed password first',
    async (_, route) => {
      const res = await call(route, { token: pending, body: {} });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(MUST_CHANGE);
    },
  );

  it.each(patientRoutes)('%s lets a patient through', async (_, route) => {
    const res = await call(route, { token: patient.session.token, body: {} });
    expect([401, 403]).not.toContain(res.statusCode);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.body).not.toContain('password_hash');
    expect(res.body).not.toContain('$argon2');
  });

  it.each(withRule((rule) => rule.who === 'signed-in', 'no-head'))(
    '%s is open to a patient, also before the password change',
    async (_, route) => {
      const rule = ruleOf(route)!;
      for (const ready of [true, false]) {
        // Logout ends every session of its user: it gets a throwaway patient.
        let token = ready ? patient.session.token : pending;
        if (rule.endsSession) {
          const own = await registerPatient(t, doctor);
          const first = await t.login('patient', own.login, own.password);
          token = ready ? (await t.changePassword(first, own.password)).token : first.token;
        }
        const res = await call(route, { token, body: {} });
        if (rule.role && rule.role !== 'patient') {
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual(UNAUTHORIZED);
          continue;
        }
        expect([401, 403]).not.toContain(res.statusCode);
        expect(res.statusCode).toBeLessThan(500);
      }
    },
  );

  it('sends with the session exactly the patient permission', async () => {
    const res = await t.request('GET', '/api/auth/validate_token/patient', {
      token: patient.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: { permissions: string[] } }>().user.permissions).toEqual([
      'patient.self',
    ]);
    expect(permissionsOf('patient')).toEqual(['patient.self']);
  });
});

/* ------------------------------------------------------------------------------------------ */
/* A monitor token (ADR 051)                                                                  */
/* ------------------------------------------------------------------------------------------ */

describe('a monitor token', () => {
  let admin: ReadyAdmin;
  let doctor: ReadyDoctor;
  let monitor: ReadyMonitor;
  beforeAll(async () => {
    admin = await t.readyAdmin();
    const unit = await t.unit();
    doctor = await t.readyDoctor(unit.id);
    monitor = await t.readyMonitor([unit.id]);
  });

  const monitorRoutes = withRule((rule) => rule.who === 'monitor', 'no-head');
  it.each(monitorRoutes)('%s forbids administrators and doctors', async (_, route) => {
    for (const token of [admin.session.token, doctor.session.token]) {
      const res = await call(route, { token, body: {} });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    }
  });

  it.each(monitorRoutes)('%s lets a monitor through', async (_, route) => {
    const res = await call(route, { token: monitor.session.token, body: {} });
    expect([401, 403]).not.toContain(res.statusCode);
    expect(res.statusCode).toBeLessThan(500);
  });

  // The audit trail is the one administrators' route a monitor reads (its patients' only).
  it.each(withRule((rule, r) => rule.who === 'admin' && r.url !== '/api/audit_trial', 'no-head'))(
    '%s forbids a monitor',
    async (_, route) => {
      const res = await call(route, { token: monitor.session.token, body: {} });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    },
  );
});

/* ------------------------------------------------------------------------------------------ */
/* A doctor reaching into another unit                                                        */
/* ------------------------------------------------------------------------------------------ */

/** What one unit holds: a doctor, and a patient with a note, a file and a message. */
interface UnitData {
  unitId: number;
  doctor: ReadyDoctor;
  patient: { id: number; userId: number; pesel: string; surname: string };
  noteId: number;
  fileId: number;
  messageId: number;
  /** A rule of the unit's calendar (a whole-day block). */
  ruleId: number;
  /** A visit of the patient on VISIT_DAY at 10:00. */
  visitId: number;
  /** A past visit of the patient (written directly: booking refuses past days). */
  pastVisitId: number;
  /** A sample of the patient (made through POST /api/probes) with an open Hy's law alert. */
  probeId: number;
  alertId: number;
  /** A sample of the patient (written directly), for its labels and the reception scan. */
  labelProbe: { id: number; code: string };
  /** A kit order of the patient (registered). */
  probeSetId: number;
}

interface ScopeRow {
  /** The route, as in `rules`. */
  route: string;
  request: (target: UnitData, me: UnitData) => RequestOptions & { url: string };
  /** Another unit's row: 404 unless said otherwise (its existence is not revealed). */
  other?: (res: LightMyRequestResponse, target: UnitData) => void;
  /** The own unit's row: 200 unless said otherwise. */
  own?: (res: LightMyRequestResponse, target: UnitData) => void;
  /** An edit: the record whose stored version the body names (ADR 018). */
  versioned?: (target: UnitData) => { table: VersionedTestTable; id: number };
}

const ids = (res: LightMyRequestResponse) =>
  res.json<{ data: { id: number }[] }>().data.map((x) => x.id);

/**
 * One row per request a doctor could aim at another unit's data. The doctor of unit A sends it
 * once at unit B's data (refused) and once at unit A's (allowed). Rows run in order; the ones that
 * delete come last. A new unit-scoped feature (visits, probes...) adds its rows here.
 */
const scopeRows: ScopeRow[] = [
  {
    route: 'GET /api/units/:id',
    request: (u) => ({ url: `/api/units/${u.unitId}` }),
    // Units themselves are not confidential: every doctor may read every unit.
    other: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(res.json<{ id: number }>().id).toBe(u.unitId);
    },
  },
  {
    route: 'GET /api/doctors/all',
    request: (u) => ({ url: '/api/doctors/all', query: { unit_id: String(u.unitId) } }),
    other: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [] });
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toContain(u.doctor.doctor.id);
    },
  },
  {
    route: 'GET /api/patients',
    request: (u) => ({ url: '/api/patients', query: { search: u.patient.surname } }),
    other: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], total_count: 0, total_kind: 'exact' });
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual([u.patient.id]);
    },
  },
  {
    route: 'GET /api/patients/cards',
    request: (u) => ({ url: '/api/patients/cards', query: { search: u.patient.surname } }),
    other: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], total_count: 0, total_kind: 'exact' });
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual([u.patient.id]);
    },
  },
  {
    route: 'GET /api/patients/all',
    request: () => ({ url: '/api/patients/all' }),
    other: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).not.toContain(u.patient.id);
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toContain(u.patient.id);
    },
  },
  {
    route: 'GET /api/patients/options',
    // Found by name and named by id: neither shows another unit's patient.
    request: (u) => ({
      url: '/api/patients/options',
      query: { search: u.patient.surname, ids: String(u.patient.id) },
    }),
    other: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [] });
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual([u.patient.id]);
    },
  },
  { route: 'GET /api/patients/:id', request: (u) => ({ url: `/api/patients/${u.patient.id}` }) },
  {
    route: 'GET /api/patients/:id/visits',
    request: (u) => ({ url: `/api/patients/${u.patient.id}/visits` }),
  },
  {
    route: 'GET /api/units/calendar/get_by_filters',
    request: (u) => ({
      url: '/api/units/calendar/get_by_filters',
      query: { unit_id: String(u.unitId), date: CALENDAR_DAY },
    }),
  },
  {
    route: 'GET /api/units/calendar/get_rules_count',
    request: (u) => ({
      url: '/api/units/calendar/get_rules_count',
      query: { unit_id: String(u.unitId), year: '2027', month: '9' },
    }),
  },
  {
    route: 'GET /api/dashboard',
    // Counts name no patient: another unit's figures are refused outright (ADR 060).
    request: (u) => ({ url: '/api/dashboard', query: { unit_id: String(u.unitId) } }),
    other: (res) => {
      expect(res.statusCode).toBe(403);
    },
  },
  {
    route: 'GET /api/visits/overdue',
    // A doctor naming another unit's filter learns nothing about it.
    request: (u) => ({ url: '/api/visits/overdue', query: { unit_id: String(u.unitId) } }),
  },
  {
    route: 'GET /api/probes',
    // Naming another unit's patient (and searching its name) shows none of its samples.
    request: (u) => ({
      url: '/api/probes',
      query: { patientIds: String(u.patient.id), search: u.patient.surname },
    }),
    other: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], total: 0, total_kind: 'exact' });
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      const rows = res.json<{ data: { patient_id: number }[] }>().data;
      expect(rows.every((row) => row.patient_id === u.patient.id)).toBe(true);
    },
  },
  {
    route: 'POST /api/units/calendar',
    request: (u) => ({ url: '/api/units/calendar', body: calendarRule(u.unitId, '10:00') }),
    own: (res) => expect(res.statusCode, res.body).toBe(201),
  },
  {
    route: 'PUT /api/units/calendar/:id',
    versioned: (u) => ({ table: unitCalendarRules, id: u.ruleId }),
    // The body names the doctor's own unit, as an attacker would.
    request: (u, me) => ({
      url: `/api/units/calendar/${u.ruleId}`,
      body: calendarRule(me.unitId, '12:00'),
    }),
  },
  {
    route: 'GET /api/units/:id/slots',
    request: (u) => ({ url: `/api/units/${u.unitId}/slots`, query: { date: VISIT_DAY } }),
  },
  {
    route: 'GET /api/visits',
    request: (u) => ({ url: '/api/visits', query: { date: VISIT_DAY, unit_id: String(u.unitId) } }),
  },
  {
    // Without a date: the paged list (ADR 038). Naming another unit answers 404, like its day.
    route: 'GET /api/visits',
    request: (u) => ({ url: '/api/visits', query: { unit_id: String(u.unitId), limit: '100' } }),
    own: (res, u) => {
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<{ data: { unit_id: number }[]; total: number; total_kind: string }>();
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.data.every((row) => row.unit_id === u.unitId)).toBe(true);
      expect(page).toMatchObject({ total: page.data.length, total_kind: 'exact' });
    },
  },
  {
    // Another unit's doctor named as the filter matches nothing within the doctor's reach.
    route: 'GET /api/visits',
    request: (u) => ({ url: '/api/visits', query: { doctor_id: String(u.doctor.doctor.id) } }),
    other: (res) => {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: [], total: 0, total_kind: 'exact' });
    },
    own: (res, u) => {
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json<{ data: { doctor_id: number }[] }>().data;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.doctor_id === u.doctor.doctor.id)).toBe(true);
    },
  },
  {
    route: 'GET /api/visits/count',
    request: (u) => ({
      url: '/api/visits/count',
      query: { year: '2027', month: '9', unit_id: String(u.unitId) },
    }),
  },
  {
    route: 'GET /api/patients/:id/visit_window',
    request: (u) => ({ url: `/api/patients/${u.patient.id}/visit_window` }),
  },
  {
    route: 'POST /api/visits',
    // A second visit on the first one's day lies outside its window: the reason comes along.
    request: (u) => ({ url: '/api/visits', body: visitBody(u, '11:00') }),
  },
  {
    route: 'PUT /api/visits/:id',
    versioned: (u) => ({ table: visits, id: u.visitId }),
    request: (u) => ({ url: `/api/visits/${u.visitId}`, body: visitBody(u, '12:00') }),
  },
  {
    route: 'GET /api/patients/:id/basic',
    request: (u) => ({ url: `/api/patients/${u.patient.id}/basic` }),
  },
  {
    route: 'GET /api/patients/:id/identity',
    request: (u) => ({ url: `/api/patients/${u.patient.id}/identity` }),
  },
  {
    route: 'GET /api/patients/notes',
    request: (u) => ({ url: '/api/patients/notes', query: { ref_id: String(u.patient.id) } }),
  },
  {
    route: 'GET /api/files',
    request: (u) => ({
      url: '/api/files',
      query: { ref_type: 'patient', ref_id: String(u.patient.id) },
    }),
  },
  { route: 'GET /api/files/:id', request: (u) => ({ url: `/api/files/${u.fileId}` }) },
  {
    route: 'GET /api/notifications',
    request: (u) => ({ url: '/api/notifications', query: { user_id: String(u.patient.userId) } }),
  },
  {
    route: 'GET /api/patients/validate_pesel',
    // except_id names the patient being edited: another unit's would tell whose PESEL it is.
    request: (u) => ({
      url: '/api/patients/validate_pesel',
      query: { pesel: u.patient.pesel, except_id: String(u.patient.id) },
    }),
    own: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'success' });
    },
  },
  {
    route: 'POST /api/patients/notes',
    request: (u) => ({
      url: '/api/patients/notes',
      body: { content: '<p>Uwaga</p>', ref_type: 'patient', ref_id: u.patient.id },
    }),
  },
  {
    route: 'POST /api/notifications',
    request: (u) => ({
      url: '/api/notifications',
      body: { content: '<p>Proszę o kontakt</p>', receiver_user_id: u.patient.userId },
    }),
  },
  {
    route: 'PUT /api/notifications/:id',
    request: (u) => ({
      url: `/api/notifications/${u.messageId}`,
      body: { content: '<p>Zmiana</p>', version: 1 },
    }),
  },
  {
    route: 'POST /api/files',
    request: (u) => ({
      url: '/api/files',
      ...multipart(
        { ref_type: 'patient', ref_id: String(u.patient.id), comment: 'wynik' },
        'wynik.txt',
      ),
    }),
  },
  { route: 'GET /api/visits/:id', request: (u) => ({ url: `/api/visits/${u.pastVisitId}` }) },
  {
    route: 'GET /api/signatures',
    request: (u) => ({
      url: '/api/signatures',
      query: { record_type: 'visit', record_id: String(u.pastVisitId) },
    }),
  },
  {
    // The password is right: another unit's visit is 404 before it is checked; the own visit is
    // not recorded, so there is nothing to sign yet.
    route: 'POST /api/signatures',
    request: (u, me) => ({
      url: '/api/signatures',
      body: {
        record_type: 'visit',
        record_id: u.pastVisitId,
        meaning: 'author',
        password: me.doctor.password,
      },
    }),
    own: (res) => {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ status: 'not_signable' });
    },
  },
  {
    route: 'GET /api/queries',
    request: (u) => ({ url: '/api/queries', query: { unit_id: String(u.unitId) } }),
  },
  {
    route: 'GET /api/probes/:id/label.zpl',
    request: (u) => ({ url: `/api/probes/${u.labelProbe.id}/label.zpl` }),
  },
  {
    route: 'GET /api/probes/:id/label.pdf',
    request: (u) => ({ url: `/api/probes/${u.labelProbe.id}/label.pdf` }),
  },
  {
    route: 'POST /api/probes/receive',
    // A scanned label of another unit's sample is as unknown as nonsense.
    request: (u) => ({ url: '/api/probes/receive', body: { code: u.labelProbe.code } }),
  },
  {
    route: 'PUT /api/visits/:id/results',
    versioned: (u) => ({ table: visits, id: u.pastVisitId }),
    request: (u) => ({
      url: `/api/visits/${u.pastVisitId}/results`,
      body: { isDone: true, results: { qt: 400, rr: 800, pq: 160, qrs: 90 } },
    }),
  },
  {
    route: 'PUT /api/visits/:id/notes',
    versioned: (u) => ({ table: visits, id: u.pastVisitId }),
    request: (u) => ({
      url: `/api/visits/${u.pastVisitId}/notes`,
      body: { notes: '<p>Notatka z wizyty</p>' },
    }),
  },
  {
    route: 'GET /api/files',
    request: (u) => ({
      url: '/api/files',
      query: { ref_type: 'visit', ref_id: String(u.pastVisitId) },
    }),
  },
  {
    route: 'POST /api/files',
    // An ECG file aimed at another unit's visit.
    request: (u) => ({
      url: '/api/files',
      ...multipart({ ref_type: 'visit', ref_id: String(u.pastVisitId) }, 'ekg.xml', AECG),
    }),
  },
  {
    route: 'POST /api/probes/generate_code/:patient_id',
    request: (u) => ({ url: `/api/probes/generate_code/${u.patient.id}`, body: {} }),
  },
  {
    route: 'POST /api/probes',
    request: (u) => ({ url: '/api/probes', body: probeBody(u) }),
    own: (res) => expect(res.statusCode, res.body).toBe(201),
  },
  { route: 'GET /api/probes/:id', request: (u) => ({ url: `/api/probes/${u.probeId}` }) },
  {
    route: 'PUT /api/probes/:id',
    versioned: (u) => ({ table: probes, id: u.probeId }),
    request: (u) => ({
      url: `/api/probes/${u.probeId}`,
      body: { adverse_events: '<p>Krwiak</p>' },
    }),
  },
  {
    route: 'GET /api/patients/:id/probes',
    request: (u) => ({ url: `/api/patients/${u.patient.id}/probes` }),
  },
  {
    route: 'PUT /api/probes/:id/results',
    versioned: (u) => ({ table: probes, id: u.probeId }),
    request: (u) => ({
      url: `/api/probes/${u.probeId}/results`,
      body: { biochemistry_results: { alt: 40 } },
    }),
  },
  {
    route: 'GET /api/alerts',
    request: (u) => ({ url: '/api/alerts', query: { patientIds: String(u.patient.id) } }),
    other: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], total: 0, total_kind: 'exact' });
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual([u.alertId]);
    },
  },
  {
    route: 'GET /api/probe-sets',
    // Naming another unit's patient (and searching its name) shows none of its orders.
    request: (u) => ({
      url: '/api/probe-sets',
      query: { patientIds: String(u.patient.id), search: u.patient.surname },
    }),
    other: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], total: 0, total_kind: 'exact' });
    },
    own: (res, u) => {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual([u.probeSetId]);
    },
  },
  {
    route: 'GET /api/probe-sets/:id',
    request: (u) => ({ url: `/api/probe-sets/${u.probeSetId}` }),
  },
  {
    route: 'GET /api/probe-sets/patient-sets/:patient_id',
    request: (u) => ({ url: `/api/probe-sets/patient-sets/${u.patient.id}` }),
  },
  // The unit's order is still registered: reaching it answers 409 not_accepted (ADR 035).
  ...(['zpl', 'pdf'] as const).map((kind) => ({
    route: `GET /api/probe-sets/:id/label.${kind}`,
    request: (u: UnitData) => ({ url: `/api/probe-sets/${u.probeSetId}/label.${kind}` }),
    own: (res: LightMyRequestResponse) => {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ status: 'not_accepted' });
    },
  })),
  {
    route: 'GET /api/probe-sets/probes/:id',
    request: (u) => ({ url: `/api/probe-sets/probes/${u.probeSetId}` }),
  },
  {
    route: 'POST /api/probe-sets',
    request: (u) => ({ url: '/api/probe-sets', body: probeSetBody(u) }),
    own: (res) => expect(res.statusCode, res.body).toBe(201),
  },
  {
    route: 'PUT /api/probe-sets/patient-sets',
    request: (u) => ({ url: '/api/probe-sets/patient-sets', body: probeSetBody(u) }),
    own: (res) => expect(res.statusCode, res.body).toBe(201),
  },
  {
    route: 'PUT /api/alerts/:id/acknowledge',
    versioned: (u) => ({ table: safetyAlerts, id: u.alertId }),
    request: (u) => ({ url: `/api/alerts/${u.alertId}/acknowledge`, body: { comment: 'Znane' } }),
  },
  {
    route: 'PUT /api/patients/:id',
    // The body names the doctor's own unit, as an attacker would.
    request: (u, me) => ({ url: `/api/patients/${u.patient.id}`, body: updateBody(u, me) }),
  },
  {
    route: 'POST /api/patients',
    request: (u) => ({ url: '/api/patients', body: registrationBody(u) }),
    // Registering into another unit is refused outright: nothing there is revealed.
    other: (res) => {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    },
  },
  {
    route: 'GET /api/patients/print_password/:id',
    request: (u) => ({ url: `/api/patients/print_password/${u.patient.id}` }),
  },
  {
    route: 'DELETE /api/notifications/:id',
    request: (u) => ({ url: `/api/notifications/${u.messageId}` }),
  },
  {
    route: 'DELETE /api/patients/notes/:id',
    request: (u) => ({ url: `/api/patients/notes/${u.noteId}` }),
  },
  { route: 'DELETE /api/files/:id', request: (u) => ({ url: `/api/files/${u.fileId}` }) },
  { route: 'DELETE /api/visits/:id', request: (u) => ({ url: `/api/visits/${u.visitId}` }) },
  {
    route: 'DELETE /api/units/calendar/:id',
    request: (u) => ({ url: `/api/units/calendar/${u.ruleId}` }),
  },
  { route: 'DELETE /api/patients/:id', request: (u) => ({ url: `/api/patients/${u.patient.id}` }) },
  {
    route: 'PUT /api/patients/restore/:id',
    request: (u) => ({ url: `/api/patients/restore/${u.patient.id}` }),
  },
];

/** A Monday of the month the calendar rows ask about. */
const CALENDAR_DAY = '2027-09-06';

/** The Tuesday after it, open all day: the visit rows book here. */
const VISIT_DAY = '2027-09-07';

function visitBody(u: UnitData, from: string) {
  return { patient_id: u.patient.id, date: VISIT_DAY, started_at: from, window_reason: 'Kontrola' };
}

/** A valid sample of the unit's patient (the first medicine and carrier of the seed). */
function probeBody(u: UnitData) {
  return {
    patient_id: u.patient.id,
    medicine_ids: [1],
    date_of_sample: '2026-01-05',
    carrier_id: 1,
    ordered_by_firstname: 'Anna',
    ordered_by_surname: 'Lekarska',
    ordered_at: '2026-01-05',
    patient_firstname: 'Halina',
    patient_surname: u.patient.surname,
    patient_address_street: 'Długa',
    patient_address_building: '5',
    patient_address_postcode: '00-001',
    patient_address_city: 'Łódź',
  };
}

/** A kit order for the unit's patient. */
function probeSetBody(u: UnitData) {
  return {
    patient_id: u.patient.id,
    amount: 1,
    street: 'Długa',
    building: '5',
    postcode: '00-001',
    city: 'Łódź',
  };
}

function calendarRule(unitId: number, from: string) {
  return {
    unit_id: unitId,
    date: CALENDAR_DAY,
    started_at: from,
    ended_at: '13:00',
    type: 'enabled',
    is_global: false,
  };
}

let lookups: { groupId: number; subgroupId: number; dose: number | null };
let peselSerial = 0;

function freshPesel(): string {
  peselSerial += 1;
  return buildPesel({ year: 1968, month: 4, day: 17 }, peselSerial * 10, 'K');
}

function registrationBody(u: UnitData, pesel = freshPesel()) {
  return {
    personal: {
      firstname: 'Halina',
      surname: u.patient?.surname ?? 'Pacjentka',
      pesel,
      phone_number: '602303404',
      doctor_id: u.doctor.doctor.id,
      unit_id: u.unitId,
      acceptance: true,
    },
    exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
    inclusion: {
      group_id: lookups.groupId,
      subgroup_id: lookups.subgroupId,
      dose: lookups.dose,
      interval: null,
    },
    medicines: [],
    additional_medicines: [],
  };
}

function updateBody(u: UnitData, me: UnitData) {
  const personal: Partial<ReturnType<typeof registrationBody>['personal']> = {
    ...registrationBody(me, u.patient.pesel).personal,
    surname: u.patient.surname,
  };
  delete personal.acceptance; // asked on registration only
  // The patient is qualified: an edit names a reason (ADR 048).
  return { ...registrationBody(me), personal, version: 1, reason: { code: 'entry_error' } };
}

const AECG = '<?xml version="1.0"?><AnnotatedECG xmlns="urn:hl7-org:v3"/>';

function multipart(
  fields: Record<string, string>,
  fileName: string,
  content = 'Ciśnienie 120/80, tętno 64.',
) {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      `Content-Type: text/plain\r\n\r\n${content}\r\n`,
  );
  parts.push(`--${boundary}--\r\n`);
  return {
    body: Buffer.from(parts.join(''), 'utf8'),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('a doctor reaching into another unit', () => {
  let admin: ReadyAdmin;
  let mine: UnitData;
  let theirs: UnitData;

  function ok(res: LightMyRequestResponse) {
    if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
    return res.json<Record<string, unknown>>();
  }

  async function unitWithData(name: string): Promise<UnitData> {
    const unit = await t.unit({ name });
    const doctor = await t.readyDoctor(unit.id);
    const as = { token: doctor.session.token };
    const surname = `Pacjent-${randomBytes(4).toString('hex')}`;
    const partial = { unitId: unit.id, doctor, patient: { surname } } as unknown as UnitData;
    const created = ok(
      await t.request('POST', '/api/patients', { ...as, body: registrationBody(partial) }),
    );
    const patientId = (created.patient as { id: number }).id;
    const detail = ok(await t.request('GET', `/api/patients/${patientId}`, as));
    const note = ok(
      await t.request('POST', '/api/patients/notes', {
        ...as,
        body: { content: '<p>Notatka</p>', ref_type: 'patient', ref_id: patientId },
      }),
    );
    const file = ok(
      await t.request('POST', '/api/files', {
        ...as,
        ...multipart({ ref_type: 'patient', ref_id: String(patientId) }, 'ekg.txt'),
      }),
    );
    const message = ok(
      await t.request('POST', '/api/notifications', {
        ...as,
        body: { content: '<p>Dzień dobry</p>', receiver_user_id: detail.user_id },
      }),
    );
    const rule = await t.request('POST', '/api/units/calendar', {
      ...as,
      body: { ...calendarRule(unit.id, '00:00'), ended_at: '23:59', type: 'disabled' },
    });
    if (rule.statusCode !== 201) throw new Error(`${rule.statusCode}: ${rule.body}`);
    const visit = ok(
      await t.request('POST', '/api/visits', {
        ...as,
        body: { patient_id: patientId, date: VISIT_DAY, started_at: '10:00' },
      }),
    );
    const [pastVisit] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
      tx
        .insert(visits)
        .values({
          patient_id: patientId,
          unit_id: unit.id,
          doctor_id: doctor.doctor.id,
          date: '2026-01-05',
          started_at: '09:00',
          ended_at: '09:30',
        })
        .returning({ id: visits.id }),
    );
    const partialForProbe = { patient: { id: patientId, surname } } as UnitData;
    const probe = await t.request('POST', '/api/probes', {
      ...as,
      body: probeBody(partialForProbe),
    });
    if (probe.statusCode !== 201) throw new Error(`${probe.statusCode}: ${probe.body}`);
    const probeId = probe.json<{ probe: { id: number } }>().probe.id;
    const [alert] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
      tx
        .insert(safetyAlerts)
        .values({
          patient_id: patientId,
          rule: 'hys_law',
          probe_id: probeId,
          details: { alt: 200, alt_uln: 59, bilirubine: 3, bilirubine_uln: 1.2 },
        })
        .returning({ id: safetyAlerts.id }),
    );
    return {
      unitId: unit.id,
      doctor,
      patient: {
        id: patientId,
        userId: detail.user_id as number,
        pesel: detail.pesel as string,
        surname,
      },
      noteId: (note.note as { id: number }).id,
      fileId: (file.file as { id: number }).id,
      messageId: (message.data as { id: number }).id,
      ruleId: rule.json<{ data: { id: number } }>().data.id,
      visitId: (visit.visit as { id: number }).id,
      pastVisitId: pastVisit!.id,
      probeId,
      alertId: alert!.id,
      labelProbe: await insertProbe(t.db, doctor.session.user.id, patientId),
      probeSetId: (
        await t.request('POST', '/api/probe-sets', {
          ...as,
          body: probeSetBody({ patient: { id: patientId } } as UnitData),
        })
      ).json<{ probe_set: { id: number } }>().probe_set.id,
    };
  }

  beforeAll(async () => {
    admin = await t.readyAdmin();
    const groups = await t.request('GET', '/api/inclusion_criteria_group', {
      token: admin.session.token,
    });
    const group = groups.json<{ data: CriteriaGroup[] }>().data.find((g) => g.sub_groups.length);
    const subgroup = group!.sub_groups[0]!;
    lookups = { groupId: group!.id, subgroupId: subgroup.id, dose: subgroup.doses[0] ?? null };
    mine = await unitWithData('Poradnia A');
    theirs = await unitWithData('Poradnia B');
  });

  it('has a row for every unit-scoped route', () => {
    const scoped = classified
      .filter((r) => r.method !== 'HEAD' && ruleOf(r)?.unitScoped)
      .map(routeKey);
    const covered = new Set(scopeRows.map((row) => row.route));
    expect(scoped.filter((key) => !covered.has(key))).toEqual([]);
    expect(scopeRows.map((row) => row.route).filter((key) => !rules[key])).toEqual([]);
  });

  it.each(scopeRows.map((row) => [row.route, row] as const))('%s', async (route, row) => {
    const method = route.split(' ')[0] as HTTPMethods;
    const send = async (target: UnitData) => {
      const { url, ...options } = row.request(target, mine);
      const edited = row.versioned?.(target);
      if (edited)
        options.body = await withStoredVersion(t.db, edited.table, edited.id, options.body);
      return t.request(method, url, { ...options, token: mine.doctor.session.token });
    };

    const other = await send(theirs);
    if (row.other) row.other(other, theirs);
    else {
      expect(other.statusCode, other.body).toBe(404);
      expect(other.json()).toEqual(NOT_FOUND);
    }

    const own = await send(mine);
    if (row.own) row.own(own, mine);
    else expect(own.statusCode, own.body).toBe(200);
  });

  it("left the other unit's data as it was", async () => {
    const as = { token: admin.session.token };
    const patient = await t.request('GET', `/api/patients/${theirs.patient.id}`, as);
    expect(patient.statusCode).toBe(200);
    expect(patient.json()).toMatchObject({ surname: theirs.patient.surname, deleted_at: null });
    const notes = await t.request('GET', '/api/patients/notes', {
      ...as,
      query: { ref_id: String(theirs.patient.id) },
    });
    expect(ids(notes)).toEqual([theirs.noteId]);
    const files = await t.request('GET', '/api/files', {
      ...as,
      query: { ref_type: 'patient', ref_id: String(theirs.patient.id) },
    });
    expect(ids(files)).toEqual([theirs.fileId]);
    const messages = await t.request('GET', '/api/notifications', {
      ...as,
      query: { user_id: String(theirs.patient.userId) },
    });
    expect(ids(messages)).toEqual([theirs.messageId]);
    const message = messages.json<{ data: { content: string }[] }>().data[0];
    expect(message?.content).toBe('<p>Dzień dobry</p>');
    const rules = await t.request('GET', '/api/units/calendar/get_by_filters', {
      ...as,
      query: { unit_id: String(theirs.unitId), date: CALENDAR_DAY },
    });
    expect(ids(rules)).toEqual([theirs.ruleId]);
    expect(rules.json<{ data: { started_at: string }[] }>().data[0]?.started_at).toBe('00:00:00');
    const visits = await t.request('GET', '/api/visits', {
      ...as,
      query: { date: VISIT_DAY, unit_id: String(theirs.unitId) },
    });
    expect(visits.json<{ data: { id: number; started_at: string }[] }>().data).toMatchObject([
      { id: theirs.visitId, started_at: '10:00:00' },
    ]);
    const [probe] = await t.db.select().from(probes).where(eq(probes.id, theirs.probeId));
    expect(probe).toMatchObject({ alt: null, status: 'collected', version: 1 });
    const [alert] = await t.db
      .select()
      .from(safetyAlerts)
      .where(eq(safetyAlerts.id, theirs.alertId));
    expect(alert).toMatchObject({ acknowledged_at: null, version: 1 });
  });
});

/* ------------------------------------------------------------------------------------------ */
/* The policy's rules about rows (src/policies/)                                               */
/* ------------------------------------------------------------------------------------------ */

describe('rules of the policy beyond permissions', () => {
  it('sends with the session exactly the permissions the policy computes for the role', async () => {
    const admin = await t.readyAdmin();
    const doctor = await t.readyDoctor((await t.unit()).id);
    const iod = await t.readyIod();
    for (const [role, session] of [
      ['admin', admin.session],
      ['doctor', doctor.session],
      ['iod', iod.session],
    ] as const) {
      const res = await t.request('GET', `/api/auth/validate_token/${role}`, {
        token: session.token,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ user: { permissions: string[] } }>().user.permissions).toEqual(
        permissionsOf(role),
      );
    }
  });

  it("refuses an administrator's own account where acting on it would cut the session off", async () => {
    const admin = await t.readyAdmin();
    const other = await t.readyAdmin();
    const as = { token: admin.session.token };
    const print = await t.request('GET', `/api/admins/print_login_detail/${admin.admin.id}`, as);
    expect(print.statusCode).toBe(409);
    expect(print.json()).toEqual({ status: 'own_account' });
    const remove = await t.request('DELETE', `/api/admins/${admin.admin.id}`, as);
    expect(remove.statusCode).toBe(409);
    expect(remove.json()).toEqual({ status: 'cannot_delete_self' });
    // The same calls on another administrator go through.
    const printOther = await t.request(
      'GET',
      `/api/admins/print_login_detail/${other.admin.id}`,
      as,
    );
    expect(printOther.statusCode).toBe(200);
    expect((await t.request('GET', '/api/units', as)).statusCode).toBe(200);
  });
});

describe("another author's notes and messages", () => {
  beforeAll(async () => {
    // registrationBody needs the study's lookups, also when this block runs alone.
    if (lookups) return;
    const admin = await t.readyAdmin();
    const groups = await t.request('GET', '/api/inclusion_criteria_group', {
      token: admin.session.token,
    });
    const group = groups.json<{ data: CriteriaGroup[] }>().data.find((g) => g.sub_groups.length);
    const subgroup = group!.sub_groups[0]!;
    lookups = { groupId: group!.id, subgroupId: subgroup.id, dose: subgroup.doses[0] ?? null };
  });

  it('a doctor changes only the own; an administrator any (403: the row is reachable)', async () => {
    const admin = await t.readyAdmin();
    const unit = await t.unit();
    const author = await t.readyDoctor(unit.id);
    const colleague = await t.readyDoctor(unit.id);
    const by = (s: { session: Session }) => ({ token: s.session.token });
    const patient = (
      await t.request('POST', '/api/patients', {
        ...by(author),
        body: registrationBody({
          unitId: unit.id,
          doctor: author,
          patient: { surname: 'Autorska' },
        } as unknown as UnitData),
      })
    ).json<{ patient: { id: number } }>().patient;
    const userId = (await t.request('GET', `/api/patients/${patient.id}/basic`, by(author))).json<{
      user_id: number;
    }>().user_id;
    const note = async () =>
      (
        await t.request('POST', '/api/patients/notes', {
          ...by(author),
          body: { content: '<p>Notatka autora</p>', ref_type: 'patient', ref_id: patient.id },
        })
      ).json<{ note: { id: number } }>().note.id;
    const message = async () =>
      (
        await t.request('POST', '/api/notifications', {
          ...by(author),
          body: { content: '<p>Wiadomość autora</p>', receiver_user_id: userId },
        })
      ).json<{ data: { id: number } }>().data.id;

    const [noteId, messageId] = [await note(), await message()];
    for (const [method, url, body] of [
      ['DELETE', `/api/patients/notes/${noteId}`, undefined],
      ['PUT', `/api/notifications/${messageId}`, { content: '<p>Podmiana</p>', version: 1 }],
      ['DELETE', `/api/notifications/${messageId}`, undefined],
    ] as const) {
      const res = await t.request(method, url, { ...by(colleague), body });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    }
    // Still there and unchanged: the colleague reads them as before.
    const thread = await t.request('GET', '/api/notifications', {
      ...by(colleague),
      query: { user_id: String(userId) },
    });
    expect(thread.json<{ data: { content: string }[] }>().data[0]?.content).toBe(
      '<p>Wiadomość autora</p>',
    );
    const notes = await t.request('GET', '/api/patients/notes', {
      ...by(colleague),
      query: { ref_id: String(patient.id) },
    });
    expect(ids(notes)).toEqual([noteId]);

    // An administrator moderates any.
    const edited = await t.request('PUT', `/api/notifications/${messageId}`, {
      ...by(admin),
      body: { content: '<p>Poprawione</p>', version: 1 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    for (const url of [`/api/notifications/${messageId}`, `/api/patients/notes/${noteId}`]) {
      expect((await t.request('DELETE', url, by(admin))).statusCode, url).toBe(200);
    }
    // And the author the own.
    for (const url of [
      `/api/notifications/${await message()}`,
      `/api/patients/notes/${await note()}`,
    ]) {
      expect((await t.request('DELETE', url, by(author))).statusCode, url).toBe(200);
    }
  });
});

describe("another sender's announcements", () => {
  it('a doctor changes only the own; an administrator any (403: it is visible)', async () => {
    const admin = await t.readyAdmin();
    const unit = await t.unit();
    const author = await t.readyDoctor(unit.id);
    const colleague = await t.readyDoctor(unit.id);
    const by = (s: { session: Session }) => ({ token: s.session.token });
    const send = async (sender: { session: Session }) =>
      (
        await t.request('POST', '/api/notifications/global', {
          ...by(sender),
          body: { content: '<p>Komunikat</p>' },
        })
      ).json<{ data: { id: number } }>().data.id;
    for (const id of [await send(author), await send(admin)]) {
      for (const [method, body] of [
        ['PUT', { content: '<p>Podmiana</p>', version: 1 }],
        ['DELETE', undefined],
      ] as const) {
        const res = await t.request(method, `/api/notifications/global/${id}`, {
          ...by(colleague),
          body,
        });
        expect(res.statusCode, `${method} ${id}`).toBe(403);
        expect(res.json()).toEqual(FORBIDDEN);
      }
      expect(
        (await t.request('DELETE', `/api/notifications/global/${id}`, by(admin))).statusCode,
      ).toBe(200);
    }
    const own = await send(colleague);
    expect(
      (await t.request('DELETE', `/api/notifications/global/${own}`, by(colleague))).statusCode,
    ).toBe(200);
  });
});
