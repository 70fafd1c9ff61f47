import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';
import { generatePassword as generateFrom } from '@portal/shared';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. The enum is const (2 = Argon2id), and
// verbatimModuleSyntax forbids reading an ambient const enum.
const ARGON2ID = 2 as Algorithm;
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Verifies against a throwaway hash so that an unknown login costs as much time as a known one
 * and the answer's timing does not reveal which logins exist.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
}

export function generatePassword(): string {
  return generateFrom((size) => randomBytes(size));
}
