import { GENERATED_PASSWORD_LENGTH } from './constants.js';

/** Letters and digits without look-alikes (0/O/o, 1/l/I) so a printed password can be retyped. */
export const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/**
 * A random password from {@link PASSWORD_ALPHABET}. Rejection sampling keeps every character
 * equally likely; `randomBytes` is injected so the server passes its CSPRNG.
 */
export function generatePassword(
  randomBytes: (size: number) => Uint8Array,
  length = GENERATED_PASSWORD_LENGTH,
): string {
  const limit = 256 - (256 % PASSWORD_ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length)
        out += PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length];
    }
  }
  return out;
}
