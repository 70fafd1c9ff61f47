import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dropDatabase } from './drop-database.js';

/** A client whose queries fail with the given codes, in turn, then succeed. */
function clientFailing(...codes: string[]) {
  const sent: string[] = [];
  const client = {
    query: (text: string) => {
      sent.push(text);
      const code = codes.shift();
      return code ? Promise.reject(Object.assign(new Error(code), { code })) : Promise.resolve();
    },
  };
  return { client: client as unknown as pg.Client, sent };
}

describe('dropDatabase', () => {
  it('drops with FORCE when it may', async () => {
    const { client, sent } = clientFailing();
    await dropDatabase(client, 'portal_x');
    expect(sent).toEqual(['DROP DATABASE IF EXISTS "portal_x" WITH (FORCE)']);
  });

  it('falls back to a plain drop when FORCE may not end autovacuum, waiting for closing sessions', async () => {
    const { client, sent } = clientFailing('42501', '55006', '55006');
    await dropDatabase(client, 'portal_x');
    expect(sent).toEqual([
      'DROP DATABASE IF EXISTS "portal_x" WITH (FORCE)',
      'DROP DATABASE IF EXISTS "portal_x"',
      'DROP DATABASE IF EXISTS "portal_x"',
      'DROP DATABASE IF EXISTS "portal_x"',
    ]);
  });

  it('passes any other failure on', async () => {
    await expect(dropDatabase(clientFailing('3D000').client, 'portal_x')).rejects.toThrow('3D000');
    await expect(dropDatabase(clientFailing('42501', '42501').client, 'x')).rejects.toThrow(
      '42501',
    );
  });
});
