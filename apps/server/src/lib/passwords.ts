import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';
import { generatePassword as generateFrom } from '@portal/shared';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. The enum is const (2 = Argon2id), and
// verbatimModuleSyntax forbids reading an ambient const enum.
const ARGON2ID = 2 as Algorithm;
const baseline = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
let options = baseline;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/**
 * Tests only (the server tests' setup file): argon2id at its smallest cost, so that the hundreds
 * of accounts the API tests create and sign in cost milliseconds instead of a CPU-second each
 * few. Verification reads the cost from the stored hash, so nothing else changes. Refuses to run
 * outside Vitest: production always hashes at the baseline.
 */
export function useMinimalHashCostInTests(): void {
  if (!process.env.VITEST) throw new Error('The minimal password hash cost is for tests only');
  options = { ...baseline, memoryCost: 8, timeCost: 1 };
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
