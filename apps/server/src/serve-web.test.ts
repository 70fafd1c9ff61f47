import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { IMMUTABLE, REVALIDATE, SHORT } from './plugins/web-app.js';
import { openTestDatabase } from './test/harness.js';
import type { TestDatabase } from './test/harness.js';

const INDEX = '<!doctype html><title>Portal</title>' + '<!-- padding -->'.repeat(20);
const BUNDLE = 'export const greeting = "dzień dobry";\n'.repeat(50);
const ONLY_GZ = 'export const small = 1;\n'.repeat(40);

/** A file and the .br and .gz siblings the build writes beside it. */
async function writeCompressed(file: string, content: string, encodings: ('br' | 'gz')[]) {
  await writeFile(file, content);
  if (encodings.includes('br')) await writeFile(`${file}.br`, brotliCompressSync(content));
  if (encodings.includes('gz')) await writeFile(`${file}.gz`, gzipSync(content));
}

let webRoot: string;
let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(tmpdir(), 'portal-web-'));
  await writeCompressed(path.join(webRoot, 'index.html'), INDEX, ['br', 'gz']);
  await writeFile(path.join(webRoot, 'app.js'), 'console.log(1)');
  await writeFile(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await mkdir(path.join(webRoot, 'assets'));
  await writeCompressed(path.join(webRoot, 'assets', 'index-Ab12Cd34.js'), BUNDLE, ['br', 'gz']);
  await writeCompressed(path.join(webRoot, 'assets', 'tiny-Ef56Gh78.js'), ONLY_GZ, ['gz']);
  await writeFile(path.join(webRoot, 'app.js.map'), '{"version":3,"sources":["secret.ts"]}');
  database = await openTestDatabase();
  app = await buildApp({
    db: database.handle.db,
    config: loadConfig({ LOG_LEVEL: 'silent' }, webRoot),
    logger: false,
  });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it.each(['/', '/login', '/units/calendar/3', '/patients/card/12'])(
    'answers the deep link %s with the app',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<title>Portal</title>');
    },
  );

  it('serves assets and answers unknown API paths and files with 404', async () => {
    expect((await app.inject({ method: 'GET', url: '/app.js' })).statusCode).toBe(200);
    const api = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ status: 'not_found' });
    expect((await app.inject({ method: 'GET', url: '/missing.js' })).statusCode).toBe(404);
  });

  it('never serves a source map, even when a build left one', async () => {
    for (const url of ['/app.js.map', '/APP.JS.MAP', '/app.js.map?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('secret.ts');
    }
  });

  it('sends security headers with a content security policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/login' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    // The browser may talk to the label printer's local service and nothing else outside.
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:9100 https://127.0.0.1:9101");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a JSON body over 1 MiB', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login/admin',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ login: 'x'.repeat(1_100_000), password: 'x' }),
    });
    expect(res.statusCode).toBe(413);
  });
});

describe('compression and caching of the web app', () => {
  const BR = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const ASSET = '/assets/index-Ab12Cd34.js';

  it('sends the brotli copy to a browser that accepts it', async () => {
    const res = await app.inject({ method: 'GET', url: ASSET, headers: BR });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(BUNDLE.length / 5);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(BUNDLE);
  });

  it('falls back to gzip, then to the file itself, by what the browser accepts', async () => {
    const gz = await app.inject({
      method: 'GET',
      url: ASSET,
      headers: { 'accept-encoding': 'gzip, deflate' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BUNDLE);

    // A file without a brotli copy (the build skips one that would not be smaller): gzip.
    const tiny = await app.inject({ method: 'GET', url: '/assets/tiny-Ef56Gh78.js', headers: BR });
    expect(tiny.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(tiny.rawPayload).toString()).toBe(ONLY_GZ);

    for (const headers of [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0' },
    ]) {
      const plain = await app.inject({ method: 'GET', url: ASSET, headers });
      expect(plain.statusCode, JSON.stringify(headers)).toBe(200);
      expect(plain.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(BUNDLE);
    }
    // Only brotli accepted, and the file has none: the file itself.
    const onlyBr = await app.inject({
      method: 'GET',
      url: '/assets/tiny-Ef56Gh78.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(onlyBr.headers['content-encoding']).toBeUndefined();
    expect(onlyBr.body).toBe(ONLY_GZ);
  });

  it('caches hashed assets for a year as immutable, in every encoding', async () => {
    for (const headers of [BR, { 'accept-encoding': 'gzip' }, {}]) {
      const res = await app.inject({ method: 'GET', url: ASSET, headers });
      expect(res.headers['cache-control'], JSON.stringify(headers)).toBe(IMMUTABLE);
    }
    expect(IMMUTABLE).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/', '/index.html', '/login', '/patients/card/12'])(
    'answers %s with index.html, compressed and never cached without asking',
    async (url) => {
      const res = await app.inject({ method: 'GET', url, headers: BR });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe(REVALIDATE);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);

      const plain = await app.inject({ method: 'GET', url });
      expect(plain.headers['cache-control']).toBe(REVALIDATE);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(INDEX);
    },
  );

  it('revalidates index.html with its ETag (304, no body)', async () => {
    const first = await app.inject({ method: 'GET', url: '/', headers: BR });
    const etag = String(first.headers.etag);
    expect(etag).not.toBe('undefined');
    const again = await app.inject({
      method: 'GET',
      url: '/',
      headers: { ...BR, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('gives files under fixed names a short cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/favicon.svg', headers: BR });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(SHORT);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD with the same headers and no body', async () => {
    for (const url of [ASSET, '/', '/login']) {
      const res = await app.inject({ method: 'HEAD', url, headers: BR });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe(url === ASSET ? IMMUTABLE : REVALIDATE);
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length']), url).toBeGreaterThan(0);
      expect(res.rawPayload.length, url).toBe(0);
    }
  });

  it('never serves a compressed copy under its own name', async () => {
    for (const url of [`${ASSET}.br`, `${ASSET}.gz`, '/index.html.br', '/INDEX.HTML.GZ']) {
      const res = await app.inject({ method: 'GET', url, headers: BR });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
