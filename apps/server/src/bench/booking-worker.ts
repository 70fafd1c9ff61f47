import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { httpRequest, keepAlive } from './http-client.js';

/** What `measureBooking` asks of the booking clients: one list of bodies per client. */
export interface BookingOrder {
  baseUrl: string;
  headers: Record<string, string>;
  /** Client i posts bodies[i] one after another; no two bodies share a slot or a patient. */
  bodies: unknown[][];
  /**
   * Posted first by client i, untimed: they open the clients' sockets and the server's pool
   * connections, so that the timed bookings measure the steady state, not connection setup.
   */
  warmup?: unknown[][];
}

export interface BookingResult {
  /** Milliseconds of every answered booking, in no particular order. */
  latencies: number[];
  statuses: Record<string, number>;
  seconds: number;
}

/**
 * The booking clients, in their own thread like load-worker.ts: each posts its next visit as
 * soon as the last answer is read, so that `bodies.length` bookings are always in flight.
 */
async function book({ baseUrl, headers, bodies, warmup }: BookingOrder): Promise<BookingResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const agent = keepAlive(bodies.length);
  const url = new URL(`${baseUrl}/api/visits`);
  await Promise.all(
    (warmup ?? []).map(async (mine) => {
      for (const body of mine)
        await httpRequest(agent, url, { method: 'POST', headers, body: JSON.stringify(body) });
    }),
  );
  const started = performance.now();
  await Promise.all(
    bodies.map(async (mine) => {
      for (const body of mine) {
        const sent = performance.now();
        const { status } = await httpRequest(agent, url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        latencies.push(performance.now() - sent);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

if (parentPort) {
  const port = parentPort;
  void book(workerData as BookingOrder).then((result) => port.postMessage(result));
}
