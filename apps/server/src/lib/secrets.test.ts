import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { SECRET_KEY_FILE, SecretBox, resolveSecretKey } from './secrets.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-secrets-'));
  dirs.push(dir);
  return dir;
}

function recordingLog() {
  const warnings: string[] = [];
  return { warnings, log: { warn: (_: object, message: string) => void warnings.push(message) } };
}

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips text, Polish letters included, with a fresh IV each time', () => {
    const a = box.encrypt('Zażółć gęślą jaźń');
    const b = box.encrypt('Zażółć gęślą jaźń');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(box.decrypt(a)).toBe('Zażółć gęślą jaźń');
    expect(box.decrypt(box.encrypt(''))).toBe('');
  });

  it('refuses a changed text and another key', () => {
    const sealed = box.encrypt('haslo');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3] ?? '', 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    parts[3] = data.toString('base64url');
    expect(() => box.decrypt(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => box.decrypt('plain text')).toThrow(/not a sealed secret/);
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('the secret key', () => {
  it('is validated at start: 64 hexadecimal digits', () => {
    const key = randomBytes(32).toString('hex');
    expect(loadConfig({ PORTAL_SECRET_KEY: key }, null).secretKey?.toString('hex')).toBe(key);
    expect(loadConfig({}, null).secretKey).toBeNull();
    for (const bad of ['abc', 'g'.repeat(64), key.slice(0, 63)]) {
      expect(() => loadConfig({ PORTAL_SECRET_KEY: bad }, null)).toThrow(/PORTAL_SECRET_KEY/);
    }
  });

  it('comes from PORTAL_SECRET_KEY when set, without touching DATA_DIR', async () => {
    const dir = await tempDir();
    const key = randomBytes(32).toString('hex');
    const { warnings, log } = recordingLog();
    const found = await resolveSecretKey(
      loadConfig({ PORTAL_SECRET_KEY: key, DATA_DIR: dir }, null),
      log,
    );
    expect(found?.toString('hex')).toBe(key);
    await expect(stat(path.join(dir, SECRET_KEY_FILE))).rejects.toThrow();
    expect(warnings).toEqual([]);
  });

  it('is generated once into DATA_DIR (mode 0600) with a warning on the embedded database', async () => {
    const dir = path.join(await tempDir(), 'data');
    const config = loadConfig({ DATA_DIR: dir }, null);
    const first = recordingLog();
    const key = await resolveSecretKey(config, first.log);
    expect(key).toHaveLength(32);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toMatch(/PORTAL_SECRET_KEY is not set/);
    const file = path.join(dir, SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(key?.toString('hex'));

    const second = recordingLog();
    expect((await resolveSecretKey(config, second.log))?.equals(key!)).toBe(true);
    expect(second.warnings).toEqual([]);
  });

  it('stops the start when the key file is damaged', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, SECRET_KEY_FILE), 'not a key\n');
    await expect(
      resolveSecretKey(loadConfig({ DATA_DIR: dir }, null), recordingLog().log),
    ).rejects.toThrow(/64-hex-digit/);
  });

  it('is absent on PostgreSQL without PORTAL_SECRET_KEY, with a warning', async () => {
    const { warnings, log } = recordingLog();
    const config = loadConfig({ DATABASE_URL: 'postgres://portal@db.test/portal' }, null);
    expect(await resolveSecretKey(config, log)).toBeNull();
    expect(warnings[0]).toMatch(/cannot be saved/);
  });
});
