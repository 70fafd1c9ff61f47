import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationMessage } from '@portal/shared';
import { createTestApp } from '../test/harness.js';
import type { ReadyDoctor, TestApp } from '../test/harness.js';
import { freshPesel, registerPatient } from '../test/patients-fixture.js';
import { LOG_LINE_MAX, capLine, safeError } from './logger.js';

/** Every line the app logged, as written. */
const lines: string[] = [];
let t: TestApp;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp({ logStream: { write: (line) => void lines.push(line) } });
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(async () => {
  await t.close();
});

function upload(token: string, refId: number, fileName: string, content: string) {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="ref_id"\r\n\r\n${refId}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    `Content-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return t.request('POST', '/api/files', {
    token,
    body: Buffer.from(body, 'utf8'),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe('the log', () => {
  it('never holds a PESEL, a name, a file or a search, and no line is over the cap', async () => {
    const as = { token: doctor.session.token };
    const pesel = freshPesel();
    const surname = `Tajny${randomBytes(4).toString('hex')}`;
    const secret = `wynik-${randomBytes(16).toString('hex')}`;
    const patient = await registerPatient(t, doctor, { surname });

    const nul = await t.request('POST', '/api/patients', {
      ...as,
      body: {
        personal: {
          firstname: 'Jan',
          surname,
          pesel: `${pesel}\u0000`,
          phone_number: '601202303',
          doctor_id: doctor.doctor.id,
          unit_id: doctor.doctor.unit_id,
          acceptance: true,
        },
      },
    });
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toMatchObject({
      status: 'validation_error',
      errors: { 'personal.pesel': [validationMessage('single_line')] },
    });
    const stored = await upload(as.token, patient.id, 'wynik.txt', secret.repeat(1000));
    expect(stored.statusCode).toBe(200);
    const refused = await upload(as.token, patient.id, 'wy\u0000nik.txt', secret);
    expect(refused.statusCode).toBe(422);
    await t.request('GET', '/api/patients', { ...as, query: { search: surname } });

    // A database error carrying the PESEL as a parameter, logged as the error handler does.
    const failure = await t.db
      .execute(sql`select ${`${pesel}\u0000`}::text as pesel`)
      .then(() => null)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    t.app.log.error({ err: failure }, 'request failed');
    // Whatever else lands in a log line, it never exceeds the cap.
    t.app.log.info({ blob: secret.repeat(10_000) }, 'oversized');

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(8);
    expect(log).toContain('request failed');
    expect(log).not.toContain(pesel);
    expect(log).not.toContain(surname);
    expect(log).not.toContain(secret);
    expect(log).not.toMatch(/Failed query|params:/);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(LOG_LINE_MAX);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.find((entry) => entry.msg === 'oversized')).toMatchObject({ truncated: true });
  });
});

describe('safeError', () => {
  it('keeps kind, code and constraint of a database error, never its message or detail', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint'), {
      name: 'error',
      code: '23505',
      constraint: 'patients_pesel_unique',
      detail: 'Key (pesel)=(44051401359) already exists.',
    });
    const error = new Error('Failed query: insert … params: 44051401359,Kowalska', { cause });
    error.name = 'DrizzleQueryError';
    const out = safeError(error);
    expect(JSON.stringify(out)).not.toMatch(/44051401359|Kowalska|Key \(/);
    expect(out).toMatchObject({
      type: 'DrizzleQueryError',
      cause: { code: '23505', constraint: 'patients_pesel_unique' },
    });
  });

  it('shortens the message of any other error', () => {
    const out = safeError(new Error('x'.repeat(10_000)));
    expect(out.message.length).toBeLessThanOrEqual(200);
  });
});

describe('capLine', () => {
  it('leaves a short line alone and replaces a long one by valid JSON', () => {
    const short = `${JSON.stringify({ level: 30, msg: 'ok' })}\n`;
    expect(capLine(short)).toBe(short);
    const long = `${JSON.stringify({ level: 30, time: 1, msg: 'big', body: 'y'.repeat(50_000) })}\n`;
    const capped = capLine(long);
    expect(capped.length).toBeLessThanOrEqual(LOG_LINE_MAX);
    expect(JSON.parse(capped)).toEqual({
      truncated: true,
      length: long.length,
      level: 30,
      time: 1,
      msg: 'big',
    });
  });
});
