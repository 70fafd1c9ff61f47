import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { forgetListTotals, rememberListTotals } from './list-totals.js';

/** The PostgreSQL notification channel on which nodes tell each other that data changed. */
export const LIST_TOTALS_CHANNEL = 'portal_list_totals';

const RECONNECT_MS = 1_000;

interface WarnLog {
  warn(details: object, message: string): void;
}

export interface ListTotalsChannel {
  /** Tells every node (this one included) to forget its remembered totals; awaited before a write's answer. */
  notify(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Several API nodes on one PostgreSQL (ADR 056): each remembers list totals for a while
 * (list-totals.ts), so a write on one node must make the others forget theirs at once. The
 * writing node sends NOTIFY after the write committed and before its answer leaves; every node
 * LISTENs on a connection of its own and forgets on each notification. PostgreSQL delivers a
 * notification to the listening connection when the notifying statement commits, before the
 * writer's answer can reach the client and the client ask another node.
 *
 * While the listening connection is down the node remembers no totals (it would not hear a
 * write), and it reconnects every second.
 */
export async function openListTotalsChannel(
  db: Database,
  url: string,
  log: WarnLog,
): Promise<ListTotalsChannel> {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const listener = new pg.Client({ connectionString: url });
    client = listener;
    const lost = (error?: Error) => {
      if (client !== listener) return;
      client = null;
      rememberListTotals(db, false);
      listener.removeAllListeners('notification');
      listener.end().catch(() => undefined);
      if (closed) return;
      if (error) log.warn({ err: error }, 'list totals channel lost; reconnecting');
      retry = setTimeout(() => {
        retry = null;
        connect().catch(() => undefined);
      }, RECONNECT_MS);
    };
    listener.on('error', lost);
    listener.on('end', () => lost());
    listener.on('notification', () => forgetListTotals(db));
    try {
      await listener.connect();
      await listener.query(`LISTEN ${LIST_TOTALS_CHANNEL}`);
      // Anything written while it was not listening is unknown: count again from here on.
      rememberListTotals(db, true);
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  };

  rememberListTotals(db, false);
  await connect().catch(() => undefined);

  return {
    async notify() {
      forgetListTotals(db);
      try {
        await db.execute(sql`select pg_notify(${LIST_TOTALS_CHANNEL}, '')`);
      } catch (error) {
        // The write itself committed: its answer stands; other nodes count again within the TTL.
        log.warn({ err: error }, 'list totals: could not notify the other nodes');
      }
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const listener = client;
      client = null;
      if (listener) await listener.end().catch(() => undefined);
    },
  };
}
