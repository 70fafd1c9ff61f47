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
 * The booking clients, in their own thread like load-worker.ts: each posts its next visit as
 * soon as the last answer is read, so that `bodies.length` bookings are always in flight.
 */
async function book({ baseUrl, headers, bodies }: BookingOrder): Promise<BookingResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const started = performance.now();
  await Promise.all(
    bodies.map(async (mine) => {
      for (const body of mine) {
        const sent = performance.now();
        const response = await fetch(`${baseUrl}/api/visits`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - sent);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }),
  );
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

if (parentPort) {
  const port = parentPort;
  void book(workerData as BookingOrder).then((result) => port.postMessage(result));
}
