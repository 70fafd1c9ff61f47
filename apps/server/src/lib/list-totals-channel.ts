import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { forgetSessions, rememberSessions } from '../plugins/session-check.js';
import { forgetListTotals, rememberListTotals } from './list-totals.js';

/**
 * The PostgreSQL notification channel on which nodes tell each other that data changed: each
 * forgets its remembered list totals (ADR 056) and session checks (ADR 057). The name stays that
 * of its first use, so that nodes of the previous build hear the new ones during an upgrade.
 */
export const LIST_TOTALS_CHANNEL = 'portal_list_totals';

const RECONNECT_MS = 1_000;
/** How long a write's answer waits for its own notification to come back (notify()). */
const ECHO_WAIT_MS = 250;

interface WarnLog {
  warn(details: object, message: string): void;
}

export interface ListTotalsChannel {
  /** Tells every node (this one included) to forget what it remembers; awaited before a write's answer. */
  notify(): Promise<void>;
  close(): Promise<void>;
}

/** The open channel of each database (main.ts and the tests' PostgreSQL apps have one). */
const channels = new WeakMap<Database, ListTotalsChannel>();

/** Forgets what this process remembers of the database: list totals and session checks. */
function forgetHere(db: Database): void {
  forgetListTotals(db);
  forgetSessions(db);
}

function rememberHere(db: Database, remember: boolean): void {
  rememberListTotals(db, remember);
  rememberSessions(db, remember);
}

/**
 * Data of this database changed and the change is committed: every node forgets its remembered
 * totals and session checks before this resolves (this process at once; the others by NOTIFY).
 * Called after every successful write request (app.ts) and by the writes no such request
 * announces: a refresh token's reuse (answered 401), a retention run (a background job). Without
 * a channel (the embedded database: one process) it forgets in this process only.
 */
export async function announceWrite(db: Database): Promise<void> {
  const channel = channels.get(db);
  if (channel) await channel.notify();
  else forgetHere(db);
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
  // This node's own notifications, by payload, waiting to be heard back (notify()).
  const echoes = new Map<string, () => void>();
  const self = randomBytes(6).toString('hex');
  let serial = 0;

  const connect = async (): Promise<void> => {
    const listener = new pg.Client({ connectionString: url });
    client = listener;
    const lost = (error?: Error) => {
      if (client !== listener) return;
      client = null;
      rememberHere(db, false);
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
    listener.on('notification', (message) => {
      forgetHere(db);
      echoes.get(message.payload ?? '')?.();
    });
    try {
      await listener.connect();
      await listener.query(`LISTEN ${LIST_TOTALS_CHANNEL}`);
      // Anything written while it was not listening is unknown: count again from here on.
      rememberHere(db, true);
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  };

  rememberHere(db, false);
  await connect().catch(() => undefined);

  const channel: ListTotalsChannel = {
    async notify() {
      forgetHere(db);
      // PostgreSQL signals every listening session at the commit, but each passes the message on
      // to its node on its own time: the answer waits until this node's own listener hears it
      // back (at most ECHO_WAIT_MS), by when the other nodes' listeners have had it too.
      serial += 1;
      const id = `${self}:${serial}`;
      let timer: NodeJS.Timeout | undefined;
      const heard = client
        ? new Promise<void>((resolve) => {
            echoes.set(id, resolve);
            timer = setTimeout(resolve, ECHO_WAIT_MS);
          })
        : Promise.resolve();
      try {
        await db.execute(sql`select pg_notify(${LIST_TOTALS_CHANNEL}, ${id})`);
        await heard;
      } catch (error) {
        // The write itself committed: its answer stands; other nodes count again within the TTL.
        log.warn({ err: error }, 'list totals: could not notify the other nodes');
      } finally {
        echoes.delete(id);
        clearTimeout(timer);
      }
    },
    async close() {
      closed = true;
      if (channels.get(db) === channel) channels.delete(db);
      if (retry) clearTimeout(retry);
      const listener = client;
      client = null;
      // Nothing will be heard any more: what this process remembers could go stale.
      rememberHere(db, false);
      if (listener) await listener.end().catch(() => undefined);
    },
  };
  channels.set(db, channel);
  return channel;
}
