import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryIdField } from '@portal/shared';
import { errorsPlugin } from '../plugins/errors.js';
import { multipartPlugin, readMultipart } from './multipart.js';

const LIMIT = 1024;
const fields = z.object({
  ref_id: queryIdField('required'),
  note: z.string().max(10, { error: 'too_long' }).optional(),
});

let app: FastifyInstance;
let sizesSeen: number[] = [];

beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(errorsPlugin);
  await app.register(multipartPlugin);
  app.post('/one', async (request) => {
    const upload = await readMultipart(request, { fields, fileField: 'file', maxFileBytes: LIMIT });
    sizesSeen = upload.files.map((f) => f.size);
    return { fields: upload.fields, files: upload.files.map((f) => [f.field, f.fileName, f.size]) };
  });
  app.post('/many', async (request) => {
    const upload = await readMultipart(request, {
      fields: z.object({}),
      fileField: /^files\[\d+\]$/,
      maxFileBytes: LIMIT,
      maxFiles: 3,
    });
    return { files: upload.files.map((f) => [f.field, f.content.toString()]) };
  });
  await app.ready();
});
afterAll(() => app.close());

type Part = { name: string; value: string } | { name: string; file: string; content: Buffer };

function form(parts: Part[]) {
  const boundary = '----helper-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'file' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.file}"\r\nContent-Type: application/octet-stream\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`;
    chunks.push(
      Buffer.from(head),
      'file' in part ? part.content : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const post = (url: string, parts: Part[]) => app.inject({ method: 'POST', url, ...form(parts) });
const file = (size: number, name = 'file'): Part => ({
  name,
  file: 'a.txt',
  content: Buffer.alloc(size, 0x61),
});

describe('readMultipart', () => {
  it('hands back the checked fields and the file, fields before or after it', async () => {
    const before = await post('/one', [{ name: 'ref_id', value: '12' }, file(LIMIT)]);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ fields: { ref_id: 12 }, files: [['file', 'a.txt', LIMIT]] });
    const after = await post('/one', [
      file(3),
      { name: 'note', value: 'ok' },
      { name: 'ref_id', value: '5' },
    ]);
    expect(after.json()).toEqual({
      fields: { ref_id: 5, note: 'ok' },
      files: [['file', 'a.txt', 3]],
    });
  });

  it('refuses a file one byte over its limit, keeping no more than the limit', async () => {
    sizesSeen = [];
    const res = await post('/one', [{ name: 'ref_id', value: '1' }, file(LIMIT + 1)]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: { file: ['Plik jest za duży (maksymalnie 20 MB)'] },
    });
    expect(sizesSeen).toEqual([]);
  });

  it('refuses a body announced larger than allowed before reading it', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/one',
      ...form([{ name: 'ref_id', value: '1' }, file(10)]),
      headers: {
        'content-type': 'multipart/form-data; boundary=----helper-boundary',
        'content-length': String(LIMIT + 2 * 1024 * 1024),
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: object }>().errors).toEqual({
      file: ['Plik jest za duży (maksymalnie 20 MB)'],
    });
  });

  it('lists bad fields and a missing file together', async () => {
    const res = await post('/one', [{ name: 'note', value: 'far too long a note' }]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        ref_id: ['To pole musi być wypełnione'],
        note: ['Wartość tego pola jest za długa'],
        file: ['To pole musi być wypełnione'],
      },
    });
  });

  it('refuses a file in a field that takes none, and a request that is not multipart', async () => {
    const res = await post('/one', [{ name: 'ref_id', value: '1' }, file(3, 'other')]);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: object }>().errors).toEqual({
      other: ['Niektóre pola są nieprawidłowe'],
    });
    const json = await app.inject({ method: 'POST', url: '/one', payload: { ref_id: 1 } });
    expect(json.statusCode).toBe(422);
    expect(json.json<{ errors: object }>().errors).toEqual({
      file: ['To pole musi być wypełnione'],
    });
  });

  it('takes several files up to maxFiles and answers 413 beyond', async () => {
    const ok = await post('/many', [file(2, 'files[0]'), file(3, 'files[1]')]);
    expect(ok.json()).toEqual({
      files: [
        ['files[0]', 'aa'],
        ['files[1]', 'aaa'],
      ],
    });
    const tooMany = await post(
      '/many',
      [0, 1, 2, 3].map((i) => file(1, `files[${i}]`)),
    );
    expect(tooMany.statusCode).toBe(413);
  });
});
