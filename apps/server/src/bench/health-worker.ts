import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { httpRequest, keepAlive } from './http-client.js';

/** What `BENCH_ONLY=import-health` asks of its clients. */
export interface HealthOrder {
  baseUrl: string;
  headers: Record<string, string>;
  /** Milliseconds between two health requests (each sent on time, not after the last answer). */
  intervalMs: number;
  /** Milliseconds of polling with no import: the floor. */
  floorMs: number;
  upload: { path: string; fileName: string; bytes: Uint8Array };
}

/** One health request: when it was sent (ms since the epoch, as the server's log) and its time. */
export interface Poll {
  at: number;
  ms: number;
  status: number;
}

export interface HealthResult {
  floor: Poll[];
  during: Poll[];
  upload: { status: number; ms: number; startedAt: number; body: string };
}

const epochNow = () => performance.timeOrigin + performance.now();

/** Polls GET /api/health every `intervalMs` until `until` resolves. */
async function pollUntil(order: HealthOrder, until: Promise<unknown>): Promise<Poll[]> {
  const agent = keepAlive(64);
  const url = new URL(`${order.baseUrl}/api/health`);
  const polls: Promise<Poll>[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const at = epochNow();
    const started = performance.now();
    polls.push(
      httpRequest(agent, url, { headers: {} }).then(
        ({ status }) => ({ at, ms: performance.now() - started, status }),
        // A kept-alive socket the server closed as it was reused: counted, not timed.
        () => ({ at, ms: performance.now() - started, status: 0 }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, order.intervalMs));
  }
  const answered = await Promise.all(polls);
  agent.destroy();
  return answered;
}

/**
 * The health poller and the uploader, in their own thread like load-worker.ts: building and
 * sending a 20 MB form in the server's thread would charge the client's work to the server.
 */
async function run(order: HealthOrder): Promise<HealthResult> {
  const floor = await pollUntil(
    order,
    new Promise((resolve) => setTimeout(resolve, order.floorMs)),
  );
  const form = new FormData();
  form.append('files[0]', new Blob([order.upload.bytes]), order.upload.fileName);
  const startedAt = epochNow();
  const started = performance.now();
  const answer = fetch(order.baseUrl + order.upload.path, {
    method: 'POST',
    headers: order.headers,
    body: form,
  }).then(async (response) => ({
    status: response.status,
    body: (await response.text()).slice(0, 300),
    ms: performance.now() - started,
  }));
  const during = await pollUntil(order, answer);
  const upload = await answer;
  return { floor, during, upload: { ...upload, startedAt } };
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as HealthOrder).then((result) => port.postMessage(result));
}
