import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { httpRequest, keepAlive } from './http-client.js';

/** What `throughput` asks of the load generator. */
export interface LoadOrder {
  baseUrl: string;
  headers: Record<string, string>;
  url: string;
  clients: number;
  ms: number;
}

export interface LoadResult {
  clients: number;
  seconds: number;
  requests: number;
  failed: number;
  perSecond: number;
  /** Latency of the answered requests, in ms (ADR 057 compares one node with two behind nginx). */
  p50Ms: number;
  p95Ms: number;
}

/**
 * The throughput clients, in their own thread: generating the load on the server's event loop
 * would charge the clients' work to the server (as an external load generator would not).
 */
async function load({ baseUrl, headers, url, clients, ms }: LoadOrder): Promise<LoadResult> {
  let done = 0;
  let failed = 0;
  const latencies: number[] = [];
  const until = Date.now() + ms;
  const agent = keepAlive(clients);
  const target = new URL(baseUrl + url);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const sent = performance.now();
        const { status } = await httpRequest(agent, target, { headers });
        latencies.push(performance.now() - sent);
        if (status === 200) done++;
        else failed++;
      }
    }),
  );
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    clients,
    seconds,
    requests: done,
    failed,
    perSecond: done / seconds,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
  };
}

if (parentPort) {
  const port = parentPort;
  void load(workerData as LoadOrder).then((result) => port.postMessage(result));
}
