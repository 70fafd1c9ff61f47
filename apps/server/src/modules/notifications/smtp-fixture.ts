import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerOptions } from 'smtp-server';

/** One message as the test server received it. */
export interface Received {
  from: string;
  to: string[];
  raw: string;
  secure: boolean;
  user: string | null;
}

export interface TestSmtp {
  port: number;
  received: Received[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on the loopback, as the tests' mail server:
 * `user`/`password` require that login; `reject` answers 550 to those recipients; `tls` offers
 * STARTTLS with that certificate and refuses a login or a message before it.
 */
export function testSmtp(
  port: number,
  options: {
    user?: string;
    password?: string;
    reject?: string[];
    tls?: { key: string; cert: string };
  } = {},
): TestSmtp {
  const received: Received[] = [];
  let server: SMTPServer | null = null;
  const config: SMTPServerOptions = {
    authOptional: !options.user,
    disabledCommands: options.tls ? [] : ['STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    logger: false,
    onAuth(auth, session, callback) {
      if (options.tls && !session.secure) return callback(new Error('STARTTLS first'));
      if (auth.username === options.user && auth.password === options.password) {
        return callback(null, { user: auth.username });
      }
      return callback(new Error('Invalid username or password'));
    },
    onMailFrom(_address, session, callback) {
      if (options.tls && !session.secure) {
        const error = new Error('Must issue a STARTTLS command first') as Error & {
          responseCode: number;
        };
        error.responseCode = 530;
        return callback(error);
      }
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (options.reject?.includes(address.address)) {
        const error = new Error('No such mailbox') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : null,
        });
        callback();
      });
    },
  };
  return {
    port,
    received,
    start: () =>
      new Promise<void>((resolve, reject) => {
        server = new SMTPServer(config);
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        const running = server;
        server = null;
        if (!running) return resolve();
        running.close(() => resolve());
      }),
  };
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with the openssl command. */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'smtp-cert-'));
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ]);
    return {
      key: await readFile(path.join(dir, 'key.pem'), 'utf8'),
      cert: await readFile(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
