import type pg from 'pg';

const SESSIONS_LINGER_MS = 200;

/**
 * Drops a database (tests, bench) on a connection to another database of the server.
 * `WITH (FORCE)` ends other sessions, but refuses (42501) when one of them is an autovacuum
 * worker that the role may not signal, as after writing many rows; a plain DROP DATABASE stops
 * autovacuum by itself, so it is the fallback, retried while sessions are still closing.
 */
export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  const quoted = `"${name.replaceAll('"', '""')}"`;
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${quoted}`);
      return;
    } catch (error) {
      // 55006: still accessed by other users (sessions closing, autovacuum stopping).
      if ((error as { code?: string }).code !== '55006' || attempt >= 25) throw error;
      await new Promise((resolve) => setTimeout(resolve, SESSIONS_LINGER_MS));
    }
  }
}
