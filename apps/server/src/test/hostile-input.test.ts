/**
 * Hostile input on every /api route the built app registers (issue 7, item 9; issue 20): NUL and
 * other control characters in every string of the path, the query string and the body, line
 * breaks carrying HL7 segments in every single-line field, numbers sent as strings, ids beyond
 * PostgreSQL's integer, impossible dates and values of the wrong type. Sent as an administrator
 * (the patient API's routes as a patient), so access is never what refuses. Nothing may answer
 * 500; control characters answer 422 on the field (404 in a path id, which then names no row),
 * ids beyond 2³¹−1 answer 404 and impossible dates 422 (ADR 017, ADR 037).
 */
import { randomBytes } from 'node:crypto';
import type * as Fastify from 'fastify';
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildPesel, validationMessage } from '@portal/shared';
import { CHOSEN_PASSWORD, createTestApp } from './harness.js';
import type { ReadyAdmin } from './harness.js';
import { readyPatient } from './patients-fixture.js';

interface RecordedRoute {
  method: HTTPMethods;
  url: string;
  query: z.ZodObject | null;
  body: boolean;
}

// Every route with its query schema, recorded on the instance buildApp creates (as in the access
// matrix): a new route or query parameter is attacked here without being listed by hand.
const recorded = vi.hoisted((): RecordedRoute[] => {
  // Modules are shared within a worker (isolate off): start fresh so the mock applies.
  vi.resetModules();
  return [];
});
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof Fastify>();
  function recording<F extends (...args: never[]) => FastifyInstance>(factory: F): F {
    const wrapped = (...args: Parameters<F>) => {
      const app = factory(...args);
      app.addHook('onRoute', (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const schema = route.schema;
        const query = schema?.querystring instanceof z.ZodObject ? schema.querystring : null;
        for (const method of methods)
          recorded.push({ method, url: route.url, query, body: Boolean(schema?.body) });
      });
      return app;
    };
    return Object.assign(wrapped, factory);
  }
  return { ...actual, default: recording(actual.default) };
});

const HUGE_IDS = ['2147483648', '99999999999999999999'];
/** A line break that would end an HL7 segment and start another (ADR 037). */
const SEGMENT_BREAK = '\rOBX|1|NM|ALT||999\r\n';
/**
 * The body fields that keep line breaks (ADR 037): notes (`content`, a visit's `notes`), messages and
 * announcements (`content`),
 * comments, reasons and adverse events. Every other string of a body is single-line.
 */
const MULTILINE_FIELDS = new Set([
  'content',
  // A visit's notes (rich text, ADR 038).
  'notes',
  'comment',
  'reason',
  'window_reason',
  'adverse_events',
  // A query's message (ADR 051).
  'text',
]);
/**
 * Body fields with a format of their own (days, times, choices from a list): a line break there is
 * refused with the format's message; every other single-line field says `single_line`.
 */
const FORMATTED_FIELDS =
  /^(date|date_of_\w+|ordered_at|started_at|ended_at|type|kind|ref_type|type_of_\w+|collect_place|record_type|meaning|field|code|\d+)$/;
/** Path parameters that name a row: anything but plain digits answers 404 there. */
const PATH_ID = /^(id|[a-z]+_id)$/;
const CONTROLS = ['\u0000', '\u001b', '\u007f'];
const BAD_DAYS = ['0000-01-01', '2026-13-01', '2026-02-30'];
/** Query parameters that carry ids (single or comma-separated lists). */
const ID_KEYS = /(^|_)id$|Ids$|^(groups|sub_groups|medicines|doctors)$/;
const DAY_KEYS = /_date$/;
const MISSING = 999999;
const PESEL = buildPesel({ year: 1971, month: 3, day: 9 }, 4321, 'M');

/** A request that passes validation, per route with a body; each string in it is attacked. */
function validBodies(login: string): Record<string, unknown> {
  const patient = {
    personal: {
      firstname: 'Halina',
      surname: 'Kowalska',
      pesel: PESEL,
      address_street: 'Długa',
      address_building: '5',
      address_apartment: '2',
      address_postcode: '00-001',
      address_city: 'Łódź',
      phone_number: '602303404',
      email: 'halina@example.test',
      weight: 70,
      height: 170,
      project_number: 'P-1',
      doctor_id: MISSING,
      unit_id: MISSING,
      acceptance: true,
    },
    exclusion: { is_above_18: true, exclusion_criteria_id: MISSING, is_classified: false },
    inclusion: { group_id: MISSING, subgroup_id: MISSING, dose: 5, interval: 'co 12 h' },
    medicines: [{ medicine_id: MISSING, dose: 5 }],
    additional_medicines: [{ name: 'Aspiryna', dose: 75 }],
  };
  const update = {
    ...patient,
    personal: { ...patient.personal, acceptance: undefined, is_finished: false },
  };
  return {
    'POST /api/auth/login/admin': { login, password: 'zle-haslo' },
    'POST /api/auth/login/doctor': { login, password: 'zle-haslo' },
    'POST /api/auth/login/patient': { login, password: 'zle-haslo' },
    'PUT /api/change_password': {
      oldPassword: CHOSEN_PASSWORD,
      newPassword: 'Inne-Haslo-2027',
      passwordConfirm: 'Inne-Haslo-2027',
    },
    'POST /api/units': unitBody(),
    'PUT /api/units/:id': { ...unitBody(), version: 1 },
    'POST /api/auth/login/monitor': { login, password: 'zle-haslo' },
    'POST /api/auth/login/iod': { login, password: 'zle-haslo' },
    'POST /api/records/lock': { record_type: 'visit', record_id: MISSING },
    'POST /api/records/unlock': {
      record_type: 'visit',
      record_id: MISSING,
      reason: { code: 'other', text: 'Korekta' },
    },
    'POST /api/study/lock': { reason: { code: 'other', text: 'Koniec badania' } },
    'POST /api/study/unlock': { reason: { code: 'other', text: 'Korekta' } },
    'POST /api/monitors': { ...monitorBody(), unit_ids: [MISSING] },
    'PUT /api/monitors/:id': { ...monitorBody(), unit_ids: [MISSING], version: 1 },
    'POST /api/signatures': {
      record_type: 'visit',
      record_id: MISSING,
      meaning: 'author',
      password: 'zle-haslo',
    },
    'POST /api/queries': {
      record_type: 'visit',
      record_id: MISSING,
      field: 'qt',
      text: 'Proszę o weryfikację.',
    },
    'POST /api/queries/:id/messages': { text: 'Odpowiedź' },
    'POST /api/verifications': { record_type: 'visit', record_id: MISSING },
    'POST /api/doctors': doctorBody(),
    'PUT /api/doctors/:id': { ...doctorBody(), version: 1 },
    'POST /api/admins': { login: 'nowy-admin' },
    'PUT /api/admins/:id': { login: 'nowy-admin', version: 1 },
    'POST /api/credentials/pdf': {
      login: 'a@b.pl',
      password: 'Haslo-123',
      kind: 'doctor',
      name: 'Jan',
    },
    'POST /api/patients': patient,
    'PUT /api/patients/:id': { ...update, version: 1 },
    'POST /api/patients/notes': { content: '<p>Notatka</p>', ref_type: 'patient', ref_id: MISSING },
    'POST /api/notifications': { content: '<p>Wiadomość</p>', receiver_user_id: MISSING },
    'PUT /api/notifications/:id': { content: '<p>Zmiana</p>', version: 1 },
    'POST /api/notifications/global': { content: '<p>Komunikat</p>' },
    'PUT /api/notifications/global/:id': { content: '<p>Zmiana</p>', version: 1 },
    'POST /api/units/calendar': calendarBody(),
    'PUT /api/units/calendar/:id': { ...calendarBody(), version: 1 },
    'POST /api/visits': visitBody(),
    'PUT /api/visits/:id': { ...visitBody(), version: 1 },
    'PUT /api/visits/:id/results': {
      isDone: true,
      comment: '<p>Rytm zatokowy</p>',
      results: { qt: 400, rr: 800, pq: 160, qrs: 90 },
      version: 1,
    },
    'PUT /api/visits/:id/notes': { notes: '<p>Notatka</p>', version: 1 },
    'POST /api/generate_reports': { columns: ['patient_id', 'probe_code'] },
    'POST /api/retention/run': { confirm: true },
    'POST /api/probes/generate_code/:patient_id': {
      type_of_material: 'venous',
      collect_place: 'clinic',
    },
    'POST /api/probes': {
      patient_id: MISSING,
      visit_id: MISSING,
      medicine_ids: [1],
      date_of_sample: '2026-01-05',
      carrier_id: 1,
      ordered_by_firstname: 'Anna',
      ordered_by_surname: 'Lekarska',
      ordered_at: '2026-01-05',
      patient_firstname: 'Halina',
      patient_surname: 'Kowalska',
      patient_address_street: 'Długa',
      patient_address_building: '5',
      patient_address_postcode: '00-001',
      patient_address_city: 'Łódź',
      is_cito: true,
      type_of_test: 'biochemistry',
      type_of_material: 'venous',
      collect_place: 'clinic',
    },
    'PUT /api/probes/:id': { adverse_events: '<p>Krwiak</p>', version: 1 },
    'PUT /api/probes/:id/results': {
      biochemistry_results: { alt: 40, ast: 20, creatine: 0.9, bilirubine: 0.5 },
      concentrations_results: {
        hours: 12,
        date_of_analysis: '2026-11-20',
        concentrations: [{ medicine_id: MISSING, value: 10 }],
      },
      version: 1,
    },
    'PUT /api/alerts/:id/acknowledge': { comment: 'Wynik znany', version: 1 },
    'POST /api/probes/receive': { code: 'NIE-MA-TAKIEJ' },
    'PUT /api/lab/unmatched/:id': { probe_id: MISSING, version: 1 },
    'PUT /api/lab/unmatched/:id/discard': { reason: 'Duplikat wyniku', version: 1 },
    'POST /api/probe-sets': probeSetBody(),
    'PUT /api/probe-sets/patient-sets': probeSetBody(),
    'PUT /api/probe-sets/:id': { status: 2, reason: 'Błędny adres', version: 1 },
    'PUT /api/probe-sets/tracking/:id': { tracking_code: 'RR123456789PL', version: 1 },
    'POST /api/settings/:name': {
      value: { login: 'lab', password: '', unit_code: 'K1', enable_results_import: false },
    },
    // Notifications (ADR 061, 062): the mail server flat, as the contract sends it.
    'POST /api/settings/smtp': {
      host: 'smtp.badanie.test',
      port: 587,
      secure: false,
      user: '',
      password: '',
      from: 'portal@badanie.test',
    },
    'POST /api/settings/smtp/test': { to: 'koordynator@badanie.test' },
    'PUT /api/me/notification_preferences': {
      email: { kit_order: true },
      email_address: 'pacjent@badanie.test',
      language: 'pl',
    },
    // The patient API: the own order (no patient id to name).
    'POST /api/me/probe-sets': {
      amount: 2,
      labels_amount: 3,
      street: 'Długa',
      building: '5',
      postcode: '00-001',
      city: 'Łódź',
    },
  };
}

function probeSetBody() {
  return {
    patient_id: MISSING,
    amount: 2,
    labels_amount: 1,
    street: 'Długa',
    building: '5',
    postcode: '00-001',
    city: 'Łódź',
  };
}

function unitBody() {
  return { name: 'Poradnia', street: 'Długa', building_nr: '1', postcode: '00-001', city: 'Łódź' };
}

function visitBody() {
  return {
    patient_id: MISSING,
    date: '2027-03-15',
    started_at: '09:00',
    ended_at: '09:30',
    doctor_id: MISSING,
    window_reason: 'Pacjent na urlopie',
  };
}

function calendarBody() {
  return {
    unit_id: MISSING,
    date: '2027-03-15',
    started_at: '08:00',
    ended_at: '12:00',
    type: 'enabled',
    is_global: false,
  };
}

function doctorBody() {
  return {
    firstname: 'Jan',
    surname: 'Nowak',
    email: 'jan@example.test',
    phone_number: '602303404',
    unit_id: MISSING,
  };
}

function monitorBody() {
  return {
    firstname: 'Monika',
    surname: 'Nowak',
    email: 'monika@example.test',
    phone_number: '602303405',
  };
}

/** Path parameters that reach the handler: a missing id, a real setting's name. */
const pathBase: Record<string, string> = {
  id: String(MISSING),
  name: 'synevo',
  panel: 'doctor',
};
/** Query parameters a route requires, valid. */
const queryBase: Record<string, string> = {
  record_type: 'visit',
  record_id: String(MISSING),
  ref_type: 'patient',
  ref_id: String(MISSING),
  user_id: String(MISSING),
  pesel: PESEL,
  date: '2027-03-15',
  year: '2027',
  month: '3',
};

type Leaf = { path: (string | number)[]; value: unknown };

function leaves(value: unknown, path: (string | number)[] = []): Leaf[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return value === undefined ? [] : [{ path, value }];
}

function replaced(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}

interface Attack {
  what: string;
  url: string;
  query?: Record<string, string>;
  /** A JSON text (so that 99999999999999999999 travels as written) or nothing. */
  payload?: string;
  /** `kept`: the field must not be refused (it may still answer 404 for a missing row). */
  expect: 404 | 422 | 'no-500' | 'kept';
  /** For a 422: the field that must be named; for `kept`, the one that must not be. */
  field?: string;
  /** For a 422: the message the field must carry. */
  message?: string;
}

function attacksOn(route: RecordedRoute, body: unknown): Attack[] {
  const params = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  const urlWith = (name: string, value: string) =>
    route.url.replace(/:([A-Za-z_]+)/g, (_, p: string) =>
      encodeURIComponent(p === name ? value : (pathBase[p] ?? String(MISSING))),
    );
  const baseUrl = urlWith('', '');
  const baseQuery: Record<string, string> = {};
  const shape = route.query?.shape ?? {};
  for (const key of Object.keys(shape)) {
    const optional = (shape[key] as z.ZodType).safeParse(undefined).success;
    if (!optional && queryBase[key]) baseQuery[key] = queryBase[key];
  }
  const basePayload = body === undefined ? undefined : JSON.stringify(body);
  const base = { url: baseUrl, query: baseQuery, payload: basePayload };
  const attacks: Attack[] = [];

  for (const p of params) {
    for (const c of CONTROLS)
      attacks.push({
        ...base,
        what: `path ${p} ${JSON.stringify(c)}`,
        url: urlWith(p, `1${c}`),
        expect: PATH_ID.test(p) ? 404 : 422,
      });
    if (p === 'id')
      for (const id of HUGE_IDS)
        attacks.push({ ...base, what: `path id ${id}`, url: urlWith(p, id), expect: 404 });
  }

  for (const key of Object.keys(shape)) {
    const q = (value: string) => ({ ...baseQuery, [key]: value });
    for (const c of CONTROLS)
      attacks.push({
        ...base,
        what: `query ${key} ${JSON.stringify(c)}`,
        query: q(`1${c}`),
        expect: 422,
        field: key,
      });
    // Ids name nothing beyond 2³¹−1; any other number that large (page, offset) is no 500.
    for (const id of HUGE_IDS)
      attacks.push({
        ...base,
        what: `query ${key} ${id}`,
        query: q(id),
        expect: ID_KEYS.test(key) ? 404 : 'no-500',
      });
    if (DAY_KEYS.test(key))
      for (const day of BAD_DAYS)
        attacks.push({
          ...base,
          what: `query ${key} ${day}`,
          query: q(day),
          expect: 422,
          field: key,
        });
  }

  for (const leaf of leaves(body)) {
    const field = leaf.path.join('.');
    const name = String(leaf.path[leaf.path.length - 1]);
    if (typeof leaf.value === 'string') {
      for (const c of CONTROLS)
        attacks.push({
          ...base,
          what: `body ${field} ${JSON.stringify(c)}`,
          payload: JSON.stringify(replaced(body, leaf.path, `${leaf.value}${c}`)),
          expect: 422,
          field,
        });
      // A segment break inside the value (so that trimming cannot drop it).
      const broken = `${leaf.value.slice(0, 1)}${SEGMENT_BREAK}${leaf.value.slice(1)}`;
      attacks.push({
        ...base,
        what: `body ${field} with a line break`,
        payload: JSON.stringify(replaced(body, leaf.path, broken)),
        ...(MULTILINE_FIELDS.has(name)
          ? { expect: 'kept' as const, field }
          : {
              expect: 422 as const,
              field,
              ...(FORMATTED_FIELDS.test(name) ? {} : { message: 'single_line' }),
            }),
      });
    }
    // A number sent as a string is a wrong type like any other (ADR 037).
    if (typeof leaf.value === 'number')
      attacks.push({
        ...base,
        what: `body ${field} as a string`,
        payload: JSON.stringify(replaced(body, leaf.path, String(leaf.value))),
        expect: 422,
        field,
      });
    if (typeof leaf.value === 'number' && /id$/.test(String(leaf.path[leaf.path.length - 1])))
      for (const id of HUGE_IDS)
        attacks.push({
          ...base,
          what: `body ${field} ${id}`,
          // Written into the JSON text as is: 99999999999999999999 is no exact double.
          payload: JSON.stringify(replaced(body, leaf.path, '__ID__')).replace('"__ID__"', id),
          expect: 404,
        });
    // The wrong type altogether: a string with NUL where anything else was expected.
    attacks.push({
      ...base,
      what: `body ${field} as a NUL string`,
      payload: JSON.stringify(replaced(body, leaf.path, '\u0000')),
      expect: 'no-500',
    });
  }
  return attacks;
}

const t = await createTestApp();
afterAll(async () => {
  await t.close();
});

const routes = recorded.filter(
  (r) =>
    r.url.startsWith('/api') &&
    !r.url.startsWith('/api/docs') &&
    r.method !== 'HEAD' &&
    // Multipart: attacked field by field below.
    !(r.method === 'POST' && r.url === '/api/files') &&
    // ER7 text, not JSON (415 to any JSON): hostile messages in modules/lab/hl7*.test.ts.
    !(r.method === 'POST' && r.url === '/api/lab/hl7'),
);
const key = (r: RecordedRoute) => `${r.method} ${r.url}`;
/** Routes only a monitor may call (ADR 051). */
const MONITOR_ONLY = /^POST \/api\/(queries(\/:id\/(close|reopen))?|verifications)$/;

describe('hostile input on every route', () => {
  // An attack on the study lock's reason may well lock the study (ADR 048): every later route
  // would answer 409. Each route starts from an unlocked study.
  afterEach(async () => {
    await t.db.execute(sql`delete from settings where key = 'study_lock'`);
  });
  let admin: ReadyAdmin;
  /** The patient API's routes are a patient's only: attacked with a patient's token. */
  let patientToken: string;
  let bodies: Record<string, unknown>;
  /** A monitor's own writes (ADR 051) are attacked with a monitor's token. */
  let monitorToken: string;
  beforeAll(async () => {
    admin = await t.readyAdmin();
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    patientToken = (await readyPatient(t, doctor)).session.token;
    monitorToken = (await t.readyMonitor([unit.id])).session.token;
    bodies = validBodies(admin.login);
  });
  const tokenFor = (route: RecordedRoute) =>
    route.url === '/api/me' || route.url.startsWith('/api/me/')
      ? patientToken
      : MONITOR_ONLY.test(`${route.method} ${route.url}`)
        ? monitorToken
        : admin.session.token;

  it('has a valid body for every route that takes one', () => {
    const missing = routes.filter((r) => r.body && !(key(r) in bodies)).map(key);
    expect(missing).toEqual([]);
    expect(routes.length).toBeGreaterThan(40);
  });

  it.each(routes.map((r) => [key(r), r] as const))('%s', async (name, route) => {
    const attacks = attacksOn(route, bodies[name]);
    const failures: string[] = [];
    // In batches: one app and one database, without queueing hundreds of requests at once.
    for (let i = 0; i < attacks.length; i += 16) {
      const batch = attacks.slice(i, i + 16);
      const answers = await Promise.all(
        batch.map((a) =>
          t.app.inject({
            method: route.method,
            url: a.url,
            ...(a.query && Object.keys(a.query).length ? { query: a.query } : {}),
            ...(a.payload === undefined ? {} : { payload: a.payload }),
            headers: {
              authorization: `Bearer ${tokenFor(route)}`,
              ...(a.payload === undefined ? {} : { 'content-type': 'application/json' }),
            },
          }),
        ),
      );
      batch.forEach((a, j) => {
        const res = answers[j]!;
        const seen = `${a.what}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (res.statusCode >= 500) return failures.push(seen);
        if (a.expect === 'no-500') return;
        if (a.expect === 'kept') {
          const errors =
            res.statusCode === 422
              ? res.json<{ errors?: Record<string, string[]> }>().errors
              : undefined;
          if (a.field && (errors?.[a.field] || errors?.[`value.${a.field}`]))
            failures.push(`${seen} (multi-line field ${a.field} refused)`);
          return;
        }
        if (res.statusCode !== a.expect) return failures.push(seen);
        if (a.expect === 404 && res.json<{ status: string }>().status !== 'not_found')
          return failures.push(seen);
        if (a.expect === 422) {
          const answer = res.json<{ status: string; errors?: Record<string, string[]> }>();
          if (answer.status !== 'validation_error') return failures.push(seen);
          // Settings check their value in the service, which names fields under `value.`.
          const messages = a.field
            ? (answer.errors?.[a.field] ?? answer.errors?.[`value.${a.field}`])
            : undefined;
          if (a.field && !messages) failures.push(`${seen} (field ${a.field} not named)`);
          else if (a.message && !messages?.includes(validationMessage(a.message, 'pl')))
            failures.push(`${seen} (field ${a.field} without "${a.message}")`);
        }
      });
    }
    expect(failures).toEqual([]);
  });

  it('POST /api/data_import/:mode (multipart)', async () => {
    const send = (files: { field: string; name: string; content: string }[]) => {
      const boundary = `----portal${randomBytes(8).toString('hex')}`;
      const parts = files.map(
        (f) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\n` +
          `Content-Type: text/csv\r\n\r\n${f.content}\r\n`,
      );
      parts.push(`--${boundary}--\r\n`);
      return t.request('POST', '/api/data_import/results', {
        token: admin.session.token,
        body: Buffer.from(parts.join(''), 'utf8'),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    };
    const csv = 'probe_code,analyte,value\nX-1,alt,1';
    const failures: string[] = [];
    for (const c of CONTROLS) {
      const res = await send([{ field: 'files[0]', name: `w${c}.csv`, content: csv }]);
      if (res.statusCode !== 422) failures.push(`name ${JSON.stringify(c)}: ${res.statusCode}`);
    }
    const cells = [
      '=HYPERLINK("http://x")',
      '@SUM(A1)',
      '\u0000',
      '1e400',
      'NaN',
      '-0',
      "' OR 1=1 --",
    ];
    for (const cell of cells) {
      const res = await send([
        {
          field: 'files[0]',
          name: 'w.csv',
          content: `probe_code,analyte,value\n${cell},alt,${cell}`,
        },
      ]);
      if (res.statusCode >= 500) failures.push(`cell ${JSON.stringify(cell)}: ${res.statusCode}`);
    }
    const wrongField = await send([{ field: 'file', name: 'w.csv', content: csv }]);
    if (wrongField.statusCode !== 422) failures.push(`field file: ${wrongField.statusCode}`);
    const eleven = Array.from({ length: 11 }, (_, i) => ({
      field: `files[${i}]`,
      name: 'w.csv',
      content: csv,
    }));
    const tooMany = await send(eleven);
    if (tooMany.statusCode < 400 || tooMany.statusCode >= 500)
      failures.push(`11 files: ${tooMany.statusCode}`);
    const json = await t.request('POST', '/api/data_import/results', {
      token: admin.session.token,
      body: { files: [] },
    });
    if (json.statusCode < 400 || json.statusCode >= 500) failures.push(`json: ${json.statusCode}`);
    expect(failures).toEqual([]);
  });

  it('POST /api/files (multipart)', async () => {
    const send = (fields: Record<string, string>, fileName: string) => {
      const boundary = `----portal${randomBytes(8).toString('hex')}`;
      const parts = Object.entries(fields).map(
        ([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`,
      );
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
          'Content-Type: text/plain\r\n\r\nCiśnienie 120/80.\r\n',
        `--${boundary}--\r\n`,
      );
      return t.request('POST', '/api/files', {
        token: admin.session.token,
        body: Buffer.from(parts.join(''), 'utf8'),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    };
    const failures: string[] = [];
    // A patient's attachment and a visit's ECG file.
    for (const ref_type of ['patient', 'visit']) {
      const fields = { ref_type, ref_id: String(MISSING), comment: 'wynik' };
      for (const c of CONTROLS) {
        for (const field of Object.keys(fields)) {
          const res = await send({ ...fields, [field]: `1${c}` }, 'wynik.txt');
          const errors = res.statusCode === 422 ? res.json<{ errors: object }>().errors : {};
          if (!(field in errors)) failures.push(`${field} ${JSON.stringify(c)}: ${res.statusCode}`);
        }
        const res = await send(fields, `wy${c}nik.txt`);
        const errors = res.statusCode === 422 ? res.json<{ errors: object }>().errors : {};
        if (!('file' in errors)) failures.push(`file name ${JSON.stringify(c)}: ${res.statusCode}`);
      }
      for (const id of HUGE_IDS) {
        const res = await send({ ...fields, ref_id: id }, 'wynik.txt');
        if (res.statusCode !== 404)
          failures.push(`${ref_type} ref_id ${id}: ${res.statusCode} ${res.body}`);
      }
    }
    // A panel's document: no ref_id, administrators only; every bad field is named, nothing stored.
    for (const ref_type of ['doctor_documents', 'patient_documents']) {
      const fields = { ref_type, comment: 'dokument' };
      for (const c of CONTROLS) {
        for (const field of Object.keys(fields)) {
          const res = await send({ ...fields, [field]: `1${c}` }, 'dokument.txt');
          const errors = res.statusCode === 422 ? res.json<{ errors: object }>().errors : {};
          if (!(field in errors)) failures.push(`${field} ${JSON.stringify(c)}: ${res.statusCode}`);
        }
        const res = await send(fields, `do${c}kument.txt`);
        const errors = res.statusCode === 422 ? res.json<{ errors: object }>().errors : {};
        if (!('file' in errors))
          failures.push(`${ref_type} file name ${JSON.stringify(c)}: ${res.statusCode}`);
      }
      for (const id of HUGE_IDS) {
        // A ref_id means nothing to a document, but a malformed one is still refused.
        const res = await send({ ...fields, ref_id: id }, 'dokument.txt');
        if (res.statusCode >= 500) failures.push(`${ref_type} ref_id ${id}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses tab and line breaks in a single-line field, with its own message', async () => {
    for (const name of ['Poradnia\tkardiologiczna', 'Poradnia\nnr 2', 'Poradnia\r', 'P\u2028']) {
      const res = await t.request('POST', '/api/units', {
        token: admin.session.token,
        body: { ...unitBody(), name },
        headers: { 'accept-language': 'en' },
      });
      expect(res.statusCode, JSON.stringify(name)).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { name: ['This field cannot contain line breaks or control characters'] },
      });
    }
  });

  it('keeps tab and line breaks in a multi-line field', async () => {
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    const patient = await readyPatient(t, doctor);
    const content = '<p>Ból głowy\r\nod rana</p>\n<p>\tsilny</p>';
    const res = await t.request('POST', '/api/patients/notes', {
      token: doctor.session.token,
      body: { content, ref_type: 'patient', ref_id: patient.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ note: { content: string } }>().note.content).toContain('od rana');
  });
});
