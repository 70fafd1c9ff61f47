import { performance } from 'node:perf_hooks';

/** What the report bench asks of its downloading client. */
export interface DownloadOrder {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type DownloadAnswer = { bytes: number; ms: number } | { error: string };

/**
 * The report bench's client, in a child process of its own (report-bench.ts forks it): reading
 * 40 MB of response in the server's thread would charge the client's work to the server, and
 * its memory to the server's peak, as a browser on another machine would not.
 */
async function download({ url, headers, body }: DownloadOrder): Promise<DownloadAnswer> {
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers, body });
  if (!response.ok || !response.body) return { error: `report answered ${response.status}` };
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).byteLength;
  return { bytes, ms: performance.now() - started };
}

process.once('message', (order: DownloadOrder) => {
  void download(order)
    .catch((error: unknown) => ({ error: String(error) }))
    .then((answer) => process.send?.(answer, () => process.exit(0)));
});
