import { Agent, request } from 'node:http';

/**
 * The bench's HTTP client: node:http over kept-alive sockets. Not fetch: on two cores shared
 * with the server and PostgreSQL, fetch's own work (about 1 ms a request here) was charged to
 * the API's time, which a client on another machine would not add.
 */
export const keepAlive = (maxSockets = 16) => new Agent({ keepAlive: true, maxSockets });

export interface HttpAnswer {
  status: number;
  body: string;
}

export function httpRequest(
  agent: Agent,
  url: URL,
  options: { method?: string; headers: Record<string, string>; body?: string },
): Promise<HttpAnswer> {
  const headers = options.body
    ? {
        ...options.headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(options.body)),
      }
    : options.headers;
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = request(url, { agent, method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
