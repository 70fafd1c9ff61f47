import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as digests; a fast hash suffices for 256-bit random secrets. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
