import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { labMessages } from '../../db/schema.js';
import { PUBLIC_URL, createTestApp, unique } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';
import { buildFakeOru, normalPanel } from './fake-lab.js';
import { HL7_KEPT_HEAD_BYTES, HL7_MAX_MESSAGE_BYTES, processHl7 } from './hl7-transport.js';
import { CR, FS, MllpFramer, MllpListener, VT, mllpFrame } from './mllp.js';
import type { MllpOptions } from './mllp.js';

/** HL7 over MLLP (ADR 034): framing, the same processing as HTTP, refusals, start and stop. */

const frame = (text: string | Buffer) => mllpFrame(Buffer.from(text));
const texts = (frames: { bytes: Buffer }[]) => frames.map((f) => f.bytes.toString());

describe('MllpFramer', () => {
  it('finds a frame split over many packets, byte by byte', () => {
    const framer = new MllpFramer();
    const bytes = frame('MSH|one\rPID|1');
    const found = [];
    for (const byte of bytes) found.push(...framer.push(Buffer.of(byte)));
    expect(texts(found)).toEqual(['MSH|one\rPID|1']);
    expect(framer.discarded).toBe(0);
  });

  it('finds two frames in one packet, and the end split between FS and CR', () => {
    const framer = new MllpFramer();
    const both = Buffer.concat([frame('A'), frame('B')]);
    expect(texts(framer.push(both))).toEqual(['A', 'B']);
    const third = frame('C');
    expect(texts(framer.push(third.subarray(0, third.length - 1)))).toEqual(['C']);
    expect(texts(framer.push(Buffer.concat([Buffer.of(CR), frame('D')])))).toEqual(['D']);
    expect(framer.discarded).toBe(0);
  });

  it('discards bytes outside frames, takes FS without CR, and restarts on a VT inside a frame', () => {
    const framer = new MllpFramer();
    const stream = Buffer.concat([
      Buffer.from('noise\r\n'),
      frame('A'),
      Buffer.from('more'),
      Buffer.of(VT),
      Buffer.from('B'),
      Buffer.of(FS),
      Buffer.of(VT),
      Buffer.from('lost'),
      Buffer.of(VT),
      Buffer.from('C'),
      Buffer.of(FS, CR),
    ]);
    expect(texts(framer.push(stream))).toEqual(['A', 'B', 'C']);
    expect(framer.discarded).toBe('noise\r\n'.length + 'more'.length);
    expect(framer.abandoned).toBe(1);
  });

  it('keeps only the head of a frame over the limit, with its size', () => {
    const framer = new MllpFramer(1000, 100);
    const found = framer.push(Buffer.concat([Buffer.of(VT), Buffer.alloc(700, 'a')]));
    found.push(...framer.push(Buffer.alloc(700, 'b')));
    found.push(...framer.push(Buffer.concat([Buffer.alloc(700, 'c'), Buffer.of(FS, CR)])));
    found.push(...framer.push(frame('next')));
    expect(found.map((f) => [f.size, f.tooLarge, f.bytes.length])).toEqual([
      [2100, true, 100],
      [4, false, 4],
    ]);
    expect(found[0]!.bytes.toString()).toBe('a'.repeat(100));
  });
});

/** A logger that keeps what it is told (the level and message; never more than the test needs). */
function memoryLog(lines: string[]): FastifyBaseLogger {
  const record =
    (level: string) =>
    (details: unknown, message?: string): void => {
      lines.push(
        `${level} ${typeof details === 'string' ? details : `${message} ${JSON.stringify(details)}`}`,
      );
    };
  const log = {
    level: 'trace',
    fatal: record('fatal'),
    error: record('error'),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
    trace: record('trace'),
    silent: () => undefined,
    child: () => log,
  };
  return log;
}

/** A client that reads ACKs as they are framed. */
class Client {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  readonly closed: Promise<void>;

  constructor(readonly socket: net.Socket) {
    socket.on('data', (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
  }

  static connect(port: number, localAddress?: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({
        port,
        host: '127.0.0.1',
        ...(localAddress ? { localAddress } : {}),
      });
      socket.once('connect', () => resolve(new Client(socket)));
      socket.once('error', reject);
    });
  }

  /** The next whole ACK frame, as text (fails the test after 10 s). */
  async ack(): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const start = this.buffer.indexOf(VT);
      const end = this.buffer.indexOf(Buffer.of(FS, CR));
      if (start === 0 && end > 0) {
        const text = this.buffer.subarray(1, end).toString();
        this.buffer = this.buffer.subarray(end + 2);
        return text;
      }
      if (start > 0) throw new Error('bytes before an ACK frame');
      if (Date.now() > deadline) throw new Error('no ACK within 10 s');
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
  }

  write(bytes: Buffer | string) {
    this.socket.write(bytes);
  }
}

const msa = (ack: string) => ack.split('\r').find((s) => s.startsWith('MSA|')) ?? '';
const err = (ack: string) => ack.split('\r').find((s) => s.startsWith('ERR|')) ?? '';
const message = (controlId = unique('mllp')) => ({
  controlId,
  er7: buildFakeOru({ controlId, samples: [normalPanel(unique('NOPE'))] }),
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestApp;
let admin: ReadyAdmin;
const lines: string[] = [];
const listeners: MllpListener[] = [];

async function setImport(enabled: boolean) {
  const res = await t.request('POST', '/api/settings/synevo', {
    token: admin.session.token,
    body: {
      value: {
        login: 'synevo-mllp',
        password: 'Haslo-Laboratorium-Mllp-1',
        unit_code: 'POR-1',
        enable_results_import: enabled,
      },
    },
  });
  expect(res.statusCode).toBe(200);
}

async function listen(options: Partial<MllpOptions> = {}): Promise<MllpListener> {
  const listener = new MllpListener(t.db, memoryLog(lines), {
    port: 0,
    host: '127.0.0.1',
    allow: ['127.0.0.1'],
    ...options,
  });
  listeners.push(listener);
  await listener.start();
  return listener;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  await setImport(true);
});
afterAll(async () => {
  for (const listener of listeners) await listener.stop();
  await t?.close();
});

const rowsOf = (controlId: string) =>
  t.db.select().from(labMessages).where(eq(labMessages.control_id, controlId));

describe('MLLP listener', () => {
  it('answers framed ACKs to several messages on one connection, stored as over HTTP', async () => {
    const listener = await listen();
    const client = await Client.connect(listener.port!);
    for (let i = 0; i < 3; i++) {
      const { controlId, er7 } = message();
      client.write(frame(er7));
      expect(msa(await client.ack())).toBe(`MSA|AA|${controlId}|OK`);
      expect(await rowsOf(controlId)).toMatchObject([{ status: 'accepted' }]);
    }
    client.socket.destroy();
  });

  it('takes a message split across packets and two messages in one packet, with noise between', async () => {
    const listener = await listen();
    const client = await Client.connect(listener.port!);
    client.socket.setNoDelay(true);
    const first = message();
    const bytes = frame(first.er7);
    for (let at = 0; at < bytes.length; at += 50) {
      client.write(bytes.subarray(at, at + 50));
      await pause(5);
    }
    expect(msa(await client.ack())).toBe(`MSA|AA|${first.controlId}|OK`);

    const second = message();
    const third = message();
    client.write(
      Buffer.concat([Buffer.from('\r\nstray bytes'), frame(second.er7), frame(third.er7)]),
    );
    expect(msa(await client.ack())).toBe(`MSA|AA|${second.controlId}|OK`);
    expect(msa(await client.ack())).toBe(`MSA|AA|${third.controlId}|OK`);
    expect(lines.some((line) => line.includes('MLLP bytes outside a frame discarded'))).toBe(true);
    client.socket.destroy();
  });

  it('answers AE to garbage and to an oversized frame (recorded with its head), and goes on', async () => {
    const listener = await listen();
    const client = await Client.connect(listener.port!);
    client.write(
      frame(Buffer.from(randomBytes(2000).map((b) => (b === VT || b === FS ? 0x41 : b)))),
    );
    expect(msa(await client.ack())).toMatch(/^MSA\|AE\|/);

    const { controlId, er7 } = message();
    const huge = Buffer.alloc(HL7_MAX_MESSAGE_BYTES + 1, 'x');
    huge.write(`${er7}\rNTE|1||`);
    client.write(mllpFrame(huge));
    const ack = await client.ack();
    expect(msa(ack)).toMatch(
      new RegExp(`^MSA\\|AE\\|${controlId}\\|message of ${huge.length} bytes`),
    );
    expect(err(ack)).toMatch(/^ERR\|\|\|207\^/);
    const [row] = await rowsOf(controlId);
    expect(row).toMatchObject({ status: 'rejected', results_count: 0 });
    expect(row!.raw).toHaveLength(HL7_KEPT_HEAD_BYTES);

    // The connection is still good.
    const next = message();
    client.write(frame(next.er7));
    expect(msa(await client.ack())).toBe(`MSA|AA|${next.controlId}|OK`);
    client.socket.destroy();
  });

  it('answers AR with an ERR saying so while the import is switched off, recording nothing', async () => {
    const listener = await listen();
    const client = await Client.connect(listener.port!);
    await setImport(false);
    try {
      const { controlId, er7 } = message();
      client.write(frame(er7));
      const ack = await client.ack();
      expect(msa(ack)).toMatch(new RegExp(`^MSA\\|AR\\|${controlId}\\|`));
      expect(err(ack)).toContain('results import is switched off');
      expect(await rowsOf(controlId)).toHaveLength(0);
    } finally {
      await setImport(true);
    }
    client.socket.destroy();
  });

  it('closes at once a connection from an address not allowed, and logs it', async () => {
    let localAddress = '127.0.0.2';
    let listener = await listen();
    // Where the kernel cannot bind another loopback address, the allow list leaves 127.0.0.1 out.
    const canBind = await Client.connect(listener.port!, localAddress).then(
      (client) => (client.socket.destroy(), true),
      () => false,
    );
    if (!canBind) {
      localAddress = '127.0.0.1';
      listener = await listen({ allow: ['10.11.12.13'] });
    }
    lines.length = 0;
    const client = await Client.connect(listener.port!, localAddress);
    client.write(frame(message().er7));
    await client.closed;
    expect(lines.some((l) => l.includes('address not allowed') && l.includes(localAddress))).toBe(
      true,
    );
  });

  it('closes idle connections, and connections beyond its bound', async () => {
    const listener = await listen({ idleMs: 300, maxConnections: 2 });
    const a = await Client.connect(listener.port!);
    const b = await Client.connect(listener.port!);
    const c = await Client.connect(listener.port!);
    await c.closed;
    const started = Date.now();
    await Promise.all([a.closed, b.closed]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(lines.some((l) => l.includes('too many connections'))).toBe(true);
    expect(lines.some((l) => l.includes('closed: idle'))).toBe(true);
  });

  it('answers the message being processed when stopped, then starts again on its port', async () => {
    let started!: () => void;
    let release!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const listener = await listen({
      processMessage: async (...args) => {
        started();
        await held;
        return processHl7(...args);
      },
    });
    const port = listener.port!;
    const client = await Client.connect(port);
    const { controlId, er7 } = message();
    client.write(frame(er7));
    // Stop while the message is being processed: it is answered before the connection closes.
    await inFlight;
    const stopped = listener.stop();
    // Stopping: no new connection is taken.
    await expect(Client.connect(port)).rejects.toThrow();
    release();
    await stopped;
    expect(msa(await client.ack())).toBe(`MSA|AA|${controlId}|OK`);
    await client.closed;
    await expect(Client.connect(port)).rejects.toThrow();

    const restarted = new MllpListener(t.db, memoryLog(lines), {
      port,
      host: '127.0.0.1',
      allow: ['127.0.0.1'],
    });
    listeners.push(restarted);
    await restarted.start();
    const again = await Client.connect(port);
    const next = message();
    again.write(frame(next.er7));
    expect(msa(await again.ack())).toBe(`MSA|AA|${next.controlId}|OK`);
    again.socket.destroy();
  });
});

describe('MLLP with the app', () => {
  it('starts with LAB_MLLP_PORT when the app is ready and stops when it closes', async () => {
    const port = await freePort();
    const config = loadConfig(
      { PUBLIC_URL, LOG_LEVEL: 'silent', LAB_MLLP_PORT: String(port) },
      null,
    );
    expect(config.labMllp).toEqual({ port, host: '127.0.0.1', allow: ['127.0.0.1'] });
    const app = await buildApp({ db: t.db, config, logger: false });
    try {
      await app.ready();
      const client = await Client.connect(port);
      const { controlId, er7 } = message();
      client.write(frame(er7));
      expect(msa(await client.ack())).toBe(`MSA|AA|${controlId}|OK`);
      client.socket.destroy();
    } finally {
      await app.close();
    }
    await expect(Client.connect(port)).rejects.toThrow();
    const [latest] = await t.db.select().from(labMessages).orderBy(desc(labMessages.id)).limit(1);
    expect(latest?.status).toBe('accepted');
  });

  it('is off by default, and refuses an allow list that is not addresses', () => {
    expect(loadConfig({}, null).labMllp).toEqual({
      port: null,
      host: '127.0.0.1',
      allow: ['127.0.0.1'],
    });
    expect(
      loadConfig({ LAB_MLLP_PORT: '2575', LAB_MLLP_ALLOW: '10.0.0.5, ::1' }, null).labMllp.allow,
    ).toEqual(['10.0.0.5', '::1']);
    expect(() => loadConfig({ LAB_MLLP_ALLOW: 'lab.example' }, null)).toThrow(/LAB_MLLP_ALLOW/);
    expect(() => loadConfig({ LAB_MLLP_PORT: '70000' }, null)).toThrow(/LAB_MLLP_PORT/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
