import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../config.js';

/**
 * Secrets stored in the database (the laboratory password) are encrypted with AES-256-GCM under
 * PORTAL_SECRET_KEY (ADR 010), so a database dump alone does not reveal them.
 */
const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/** The file that holds the generated key of an embedded database, inside DATA_DIR. */
export const SECRET_KEY_FILE = 'portal-secret.key';

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
    this.#key = key;
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url; a fresh 96-bit IV each time. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The plain text; throws when the text was changed or encrypted under another key. */
  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined)
      throw new Error('not a sealed secret');
    const decipher = createDecipheriv(ALGORITHM, this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

interface WarnLog {
  warn(details: object, message: string): void;
}

/**
 * The key to seal secrets with: PORTAL_SECRET_KEY when set; on the embedded database without it,
 * a key generated once into DATA_DIR (mode 0600) with a warning; otherwise (PostgreSQL without
 * a key, or an in-memory database) none, and saving a secret is refused.
 */
export async function resolveSecretKey(config: AppConfig, log: WarnLog): Promise<Buffer | null> {
  if (config.secretKey) return config.secretKey;
  if (config.database.kind === 'postgres') {
    log.warn(
      {},
      'PORTAL_SECRET_KEY is not set: secrets such as the laboratory password cannot be saved',
    );
    return null;
  }
  if (!config.database.dataDir) return null;
  const file = path.join(config.database.dataDir, SECRET_KEY_FILE);
  try {
    const text = (await readFile(file, 'utf8')).trim();
    if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${file} does not hold a 64-hex-digit key`);
    return Buffer.from(text, 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  await mkdir(config.database.dataDir, { recursive: true });
  // 'wx' never overwrites a key another start wrote meanwhile; mode covers a new file only.
  await writeFile(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  log.warn(
    { file },
    'PORTAL_SECRET_KEY is not set: generated a key for stored secrets in DATA_DIR; back it up with the data, or set PORTAL_SECRET_KEY',
  );
  return key;
}
