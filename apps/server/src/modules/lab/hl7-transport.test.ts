import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { labMessages } from '../../db/schema.js';
import { defaultThrottleLimits } from '../../lib/login-throttle.js';
import { createTestApp, unique } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';
import { readSetting } from '../settings/index.js';
import { buildFakeOru, normalPanel } from './fake-lab.js';
import { HL7_KEPT_HEAD_BYTES, HL7_MAX_MESSAGE_BYTES, charsetOf } from './hl7-transport.js';

/** The HTTP transport of the laboratory connector (ADR 034): bodies as bytes, limits, throttle. */

let t: TestApp;
let admin: ReadyAdmin;
const lines: string[] = [];
// The throttle's clock: moves only when a test moves it.
let now = Date.parse('2026-11-20T08:00:00Z');
const LOGIN = 'synevo-lab';
const PASSWORD = 'Haslo-Laboratorium-Transport-1';
const basic = (login = LOGIN, password = PASSWORD) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const LAB = defaultThrottleLimits.labAddress;

beforeAll(async () => {
  t = await createTestApp({ now: () => now, logStream: { write: (line) => lines.push(line) } });
  admin = await t.readyAdmin();
  const res = await t.request('POST', '/api/settings/synevo', {
    token: admin.session.token,
    body: {
      value: { login: LOGIN, password: PASSWORD, unit_code: 'POR-1', enable_results_import: true },
    },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => t?.close());

let addressSequence = 0;
/** An address no other test used, so that throttle counters never meet. */
const freshAddress = () =>
  `10.77.${Math.floor(addressSequence / 250)}.${(addressSequence++ % 250) + 1}`;

const post = (
  payload: string | Buffer | Readable | undefined,
  options: { type?: string | null; authorization?: string | null; address?: string } = {},
) => {
  const headers: Record<string, string> = {};
  const type = options.type === undefined ? 'text/plain' : options.type;
  if (type) headers['content-type'] = type;
  const authorization = options.authorization === undefined ? basic() : options.authorization;
  if (authorization) headers.authorization = authorization;
  return t.app.inject({
    method: 'POST',
    url: '/api/lab/hl7',
    headers,
    remoteAddress: options.address ?? '10.76.0.1',
    ...(payload === undefined ? {} : { payload }),
  });
};

const msa = (ack: string) => ack.split('\r').find((segment) => segment.startsWith('MSA|')) ?? '';
const latest = async () =>
  (await t.db.select().from(labMessages).orderBy(desc(labMessages.id)).limit(1))[0]!;
const count = async () => (await t.db.select({ id: labMessages.id }).from(labMessages)).length;

describe('POST /api/lab/hl7 bodies', () => {
  it('reads the body as bytes and answers the ACK, with or without a charset parameter', async () => {
    for (const type of [
      'text/plain; charset=utf-8',
      'x-application/hl7-v2+er7',
      'application/hl7-v2',
    ]) {
      const controlId = unique('tr');
      const er7 = buildFakeOru({ controlId, samples: [normalPanel(unique('NOPE'))] });
      const res = await post(Buffer.from(er7, 'utf8'), { type });
      expect(res.statusCode).toBe(200);
      // The ACK comes back in the media type sent, with the charset it is written in.
      expect(res.headers['content-type']).toBe(`${type.split(';')[0]}; charset=utf-8`);
      expect(msa(res.body)).toBe(`MSA|AA|${controlId}|OK`);
    }
  });

  it('answers AE to an empty body, binary garbage and JSON sent as text, and records each', async () => {
    const bodies: (string | Buffer)[] = [
      '',
      randomBytes(4096),
      Buffer.from([0, 0xff, 0xfe, 0x0b, 0x1c, 0x0d, 0x00]),
      JSON.stringify({ message: 'MSH|^~\\&|' }),
    ];
    for (const body of bodies) {
      const before = await count();
      const res = await post(body);
      expect(res.statusCode).toBe(200);
      expect(msa(res.body)).toMatch(/^MSA\|AE\|/);
      expect(await count()).toBe(before + 1);
      expect(await latest()).toMatchObject({ status: 'rejected', results_count: 0 });
    }
  });

  it('answers 415 to a type that is not ER7 (JSON, broken JSON, XML, none) and records the message', async () => {
    const cases: [string | null, string][] = [
      ['application/json', '{"a":1}'],
      ['application/json', '{"a":'],
      ['application/xml', '<ORU_R01/>'],
      ['multipart/form-data; boundary=x', '--x--'],
      [null, ''],
      [null, 'MSH|^~\\&|LAB|X|PORTAL|Y|20261120||ORU^R01|NO-TYPE-1|P|2.5'],
    ];
    for (const [type, body] of cases) {
      const before = await count();
      const res = await post(body || undefined, { type });
      expect(res.statusCode, `${type}`).toBe(415);
      expect(res.json()).toMatchObject({
        status: 'error',
        error: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      });
      expect(await count()).toBe(before + 1);
      const row = await latest();
      expect(row.status).toBe('rejected');
      expect(row.error).toContain('is not HL7 ER7');
      expect(row.raw).toBe(body);
    }
    expect((await latest()).control_id).toBe('NO-TYPE-1');
  });

  it('takes a message of several megabytes whole (10,000 results fit under the limit)', async () => {
    expect(HL7_MAX_MESSAGE_BYTES).toBe(8 * 1024 * 1024);
    const controlId = unique('big');
    const er7 = buildFakeOru({ controlId, samples: [normalPanel(unique('NOPE'))] });
    // 3 MB: every byte arrives; what the content is worth is hl7-service's to say (AA or AE).
    const body = `${er7}\rNTE|1||${'x'.repeat(3 * 1024 * 1024)}`;
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(msa(res.body)).toMatch(new RegExp(`^MSA\\|A[AE]\\|${controlId}\\|`));
  });

  it('answers 413 over the limit, recording the first 64 KiB and the size (declared or streamed)', async () => {
    const controlId = unique('huge');
    const head = buildFakeOru({ controlId, samples: [normalPanel(unique('NOPE'))] });
    const size = HL7_MAX_MESSAGE_BYTES + 1;
    const body = Buffer.alloc(size, 'y');
    body.write(`${head}\rNTE|1||`, 'utf8');
    const declared = await post(body);
    expect(declared.statusCode).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect(declared.json()).toMatchObject({ status: 'error', error: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    const row = await latest();
    expect(row).toMatchObject({ control_id: controlId, status: 'rejected', results_count: 0 });
    expect(row.error).toContain(
      `message of ${size} bytes over the limit of ${HL7_MAX_MESSAGE_BYTES}`,
    );
    expect(row.raw).toHaveLength(HL7_KEPT_HEAD_BYTES);
    expect(row.raw.startsWith(head)).toBe(true);
    expect(JSON.stringify((await readSetting(t.db, 'synevo_last_error_message')).value)).toContain(
      'over the limit',
    );

    // Chunked, with no Content-Length: read up to the limit, then refused the same way.
    const streamedId = unique('stream');
    const chunks = [
      Buffer.from(`MSH|^~\\&|LAB|X|PORTAL|Y|20261120||ORU^R01|${streamedId}|P|2.5\r`),
    ];
    for (let i = 0; i < 9; i++) chunks.push(Buffer.alloc(1024 * 1024, 'z'));
    const streamed = await post(Readable.from(chunks));
    expect(streamed.statusCode).toBe(413);
    const streamedRow = await latest();
    expect(streamedRow.control_id).toBe(streamedId);
    expect(streamedRow.error).toMatch(/^207 message of \d+ bytes over the limit/);
    expect(Number(/of (\d+) bytes/.exec(streamedRow.error!)![1])).toBeGreaterThan(
      HL7_MAX_MESSAGE_BYTES,
    );
  });

  it('over a real connection, answers 413 without reading a declared 1 GB body and closes', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const started = Date.now();
    const answer = await new Promise<{ status: number; closed: boolean }>((resolve, reject) => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/lab/hl7',
        headers: {
          'content-type': 'text/plain',
          'content-length': String(1024 * 1024 * 1024),
          authorization: basic(),
        },
      });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            closed: response.headers.connection === 'close',
          }),
        );
      });
      request.on('error', reject);
      request.write(Buffer.alloc(1024 * 1024, 'm'));
    });
    expect(answer).toEqual({ status: 413, closed: true });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await latest()).error).toContain(`message of ${1024 * 1024 * 1024} bytes`);
  });

  it('records nothing for a stranger: 401 before the body is read', async () => {
    const before = await count();
    const res = await post('MSH|^~\\&|', { authorization: null });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    const huge = await post(Buffer.alloc(HL7_MAX_MESSAGE_BYTES + 10, 'q'), {
      authorization: basic(LOGIN, 'zle-haslo'),
      address: freshAddress(),
    });
    expect(huge.statusCode).toBe(401);
    expect(await count()).toBe(before);
  });

  it('reads the charset parameter of Content-Type', () => {
    expect(charsetOf('text/plain; charset="ISO-8859-2"')).toBe('ISO-8859-2');
    expect(charsetOf('x-application/hl7-v2+er7;charset=windows-1250')).toBe('windows-1250');
    expect(charsetOf('text/plain')).toBeNull();
    expect(charsetOf(undefined)).toBeNull();
  });
});

describe("the connector's password is throttled (ADR 034)", () => {
  const er7 = () => buildFakeOru({ controlId: unique('th'), samples: [normalPanel(unique('N'))] });

  it(`answers 429 with Retry-After after ${LAB.max} wrong passwords from one address, even to the right one`, async () => {
    const address = freshAddress();
    lines.length = 0;
    for (let i = 0; i < LAB.max; i++) {
      const res = await post(er7(), { authorization: basic(LOGIN, `zle-${i}`), address });
      expect(res.statusCode).toBe(401);
    }
    const locked = await post(er7(), { address });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe(String(LAB.lockMs / 1000));
    expect(locked.json()).toEqual({ status: 'too_many_attempts', retry_after: LAB.lockMs / 1000 });

    // Per address: the laboratory elsewhere is not locked out.
    expect((await post(er7(), { address: freshAddress() })).statusCode).toBe(200);

    // Each failure logged as such, with the address; never the password or the body.
    const failures = lines.filter((line) => line.includes('wrong login or password'));
    expect(failures).toHaveLength(LAB.max);
    expect(failures[0]).toContain(address);
    expect(lines.some((line) => line.includes('address locked after wrong passwords'))).toBe(true);
    const logged = lines.join('\n');
    expect(logged).not.toContain('zle-');
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain('MSH|');

    now += LAB.lockMs;
    expect((await post(er7(), { address })).statusCode).toBe(200);
  });

  it('gives a right password its attempt back and does not count a request without credentials', async () => {
    const address = freshAddress();
    for (let i = 0; i < LAB.max * 2; i++) {
      expect((await post(er7(), { address })).statusCode).toBe(200);
      expect((await post(er7(), { address, authorization: null })).statusCode).toBe(401);
    }
    for (let i = 0; i < LAB.max - 1; i++) {
      await post(er7(), { address, authorization: basic('inny', PASSWORD) });
    }
    expect((await post(er7(), { address })).statusCode).toBe(200);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    `checks at most ${LAB.max} of 50 wrong passwords sent at once on PostgreSQL`,
    async () => {
      const address = freshAddress();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          post(er7(), { authorization: basic(LOGIN, `burst-${i}`), address }),
        ),
      );
      const codes = answers.map((res) => res.statusCode);
      expect(codes.filter((code) => code === 401)).toHaveLength(LAB.max);
      expect(codes.filter((code) => code === 429)).toHaveLength(50 - LAB.max);
      expect((await post(er7(), { address })).statusCode).toBe(429);
    },
  );
});

describe('OpenAPI', () => {
  it('lists every status the connector answers', async () => {
    const res = await t.request('GET', '/api/docs/json');
    const doc = res.json<{
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    }>();
    expect(Object.keys(doc.paths['/api/lab/hl7']?.post?.responses ?? {}).sort()).toEqual([
      '200',
      '401',
      '403',
      '413',
      '415',
      '429',
    ]);
  });
});

it('keeps lab_messages rows findable by control id', async () => {
  const controlId = unique('find');
  await post(`MSH|^~\\&|LAB|X|PORTAL|Y|20261120||ORU^R01|${controlId}|P|2.5`, {
    type: 'application/octet-stream',
  });
  const rows = await t.db.select().from(labMessages).where(eq(labMessages.control_id, controlId));
  expect(rows).toHaveLength(1);
});
