import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

/** What `measureBooking` asks of the booking clients: one list of bodies per client. */
export interface BookingOrder {
  baseUrl: string;
  headers: Record<string, string>;
  /** Client i posts bodies[i] one after another; no two bodies share a slot or a patient. */
  bodies: unknown[][];
}

export interface BookingResult {
  /** Milliseconds of every answered booking, in no particular order. */
  latencies: number[];
  statuses: Record<string, number>;
  seconds: number;
}

/**
 * One POST over a kept-alive connection; resolves with the status once the answer is read.
 * node:http rather than fetch: on two cores shared with the server and PostgreSQL, fetch's own
 * work (about 1.4 ms a request here) was a fifth of the machine, charged to the server's
 * latency; a load generator on another machine would charge nothing.
 */
function post(agent: Agent, url: URL, headers: Record<string, string>, body: string) {
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The booking clients, in their own thread like load-worker.ts: each posts its next visit as
 * soon as the last answer is read, so that `bodies.length` bookings are always in flight.
 */
async function book({ baseUrl, headers, bodies }: BookingOrder): Promise<BookingResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const agent = new Agent({ keepAlive: true, maxSockets: bodies.length });
  const url = new URL(`${baseUrl}/api/visits`);
  const started = performance.now();
  await Promise.all(
    bodies.map(async (mine) => {
      for (const body of mine) {
        const sent = performance.now();
        const status = await post(agent, url, headers, JSON.stringify(body));
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
