import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENERATED_PASSWORD_LENGTH } from './constants.js';
import { PASSWORD_ALPHABET, generatePassword } from './password.js';

const random = (size: number) => new Uint8Array(randomBytes(size));

describe('PASSWORD_ALPHABET', () => {
  it('has letters and digits without look-alikes', () => {
    for (const c of ['0', 'O', 'o', '1', 'l', 'I']) expect(PASSWORD_ALPHABET).not.toContain(c);
    expect(new Set(PASSWORD_ALPHABET).size).toBe(PASSWORD_ALPHABET.length);
    expect(PASSWORD_ALPHABET).toMatch(/^[A-Za-z2-9]+$/);
    expect(PASSWORD_ALPHABET).toHaveLength(56);
  });
});

describe('generatePassword', () => {
  it('makes 12 characters from the alphabet', () => {
    expect(GENERATED_PASSWORD_LENGTH).toBe(12);
    for (let i = 0; i < 200; i++) {
      const password = generatePassword(random);
      expect(password).toHaveLength(12);
      for (const c of password) expect(PASSWORD_ALPHABET).toContain(c);
    }
    expect(generatePassword(random, 30)).toHaveLength(30);
  });

  it('skips bytes that would bias the choice (rejection sampling)', () => {
    // 56 letters: bytes 224..255 would make the first 32 letters likelier, so they are skipped.
    const queue = [255, 224, 0, 1, 223, 56, 57, 111, 112, 230, 2, 3, 4, 5, 6, 7];
    const source = (size: number) => Uint8Array.from(queue.splice(0, size));
    const password = generatePassword(source, 12);
    const a = PASSWORD_ALPHABET;
    expect(password).toBe(
      [a[0], a[1], a[223 % 56], a[0], a[1], a[111 % 56], a[0], a[2], a[3], a[4], a[5], a[6]].join(
        '',
      ),
    );
  });

  it('asks for more bytes until the password is complete', () => {
    let calls = 0;
    const source = (size: number) => {
      calls += 1;
      // Only the first byte of each batch is usable.
      return Uint8Array.from({ length: size }, (_, i) => (i === 0 ? 5 : 250));
    };
    expect(generatePassword(source, 4)).toBe(PASSWORD_ALPHABET[5]!.repeat(4));
    expect(calls).toBe(4);
  });

  it('uses every character about equally often', () => {
    const counts = new Map<string, number>();
    const passwords = 20_000;
    for (let i = 0; i < passwords; i++) {
      for (const c of generatePassword(random)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(PASSWORD_ALPHABET.length);
    const expected = (passwords * GENERATED_PASSWORD_LENGTH) / PASSWORD_ALPHABET.length;
    // About 4300 each with a standard deviation near 65: 15% is more than 9 deviations.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(expected * 0.85);
      expect(count).toBeLessThan(expected * 1.15);
    }
  });

  it('does not repeat itself', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generatePassword(random)));
    expect(seen.size).toBe(1000);
  });
});
