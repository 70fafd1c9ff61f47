import net from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import { readSetting } from '../settings/index.js';
import {
  HL7_KEPT_HEAD_BYTES,
  HL7_MAX_MESSAGE_BYTES,
  processHl7,
  recordUnread,
  refusalAck,
} from './hl7-transport.js';
import type { Hl7Answer } from './hl7-transport.js';

/**
 * HL7 v2 over MLLP (Minimal Lower Layer Protocol, HL7 v2.5 appendix C): the laboratory opens a
 * TCP connection and sends each message as VT (0x0B) message FS (0x1C) CR (0x0D); each gets an
 * ACK framed the same way. Same processing and limits as the HTTP route (hl7-transport.ts);
 * no credentials, so only allowed addresses may connect (ADR 034).
 */

export const VT = 0x0b;
export const FS = 0x1c;
export const CR = 0x0d;

/** One framed message: its bytes, or only its first 64 KiB when it is over the limit. */
export interface MllpFrame {
  bytes: Buffer;
  size: number;
  tooLarge: boolean;
}

/**
 * Splits a byte stream into frames, whatever the TCP packets: a frame may arrive in pieces and
 * several in one piece. Bytes outside a frame are discarded (counted); a VT inside a frame
 * starts the frame again (the sender gave up on the first); FS ends a frame, with or without the
 * CR after it. A frame over the limit keeps only its head, so memory stays bounded.
 */
export class MllpFramer {
  private inFrame = false;
  /** The byte just before was an FS: a CR now is the frame's end, not stray data. */
  private afterEnd = false;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes discarded outside frames, and frames abandoned by a new VT: for the log. */
  discarded = 0;
  abandoned = 0;

  constructor(
    private readonly limit = HL7_MAX_MESSAGE_BYTES,
    private readonly keep = HL7_KEPT_HEAD_BYTES,
  ) {}

  /** Whether a frame has begun and not ended. */
  get receiving(): boolean {
    return this.inFrame;
  }

  push(data: Buffer): MllpFrame[] {
    const frames: MllpFrame[] = [];
    let i = 0;
    if (this.afterEnd && data.length > 0) {
      this.afterEnd = false;
      if (data[0] === CR) i = 1;
    }
    while (i < data.length) {
      if (!this.inFrame) {
        const start = data.indexOf(VT, i);
        this.discarded += (start < 0 ? data.length : start) - i;
        if (start < 0) break;
        this.begin();
        i = start + 1;
        continue;
      }
      const end = data.indexOf(FS, i);
      const restart = data.indexOf(VT, i);
      const stop = Math.min(end < 0 ? data.length : end, restart < 0 ? data.length : restart);
      this.append(data.subarray(i, stop));
      if (stop === data.length) break;
      if (stop === restart) {
        this.abandoned += 1;
        this.begin();
        i = stop + 1;
        continue;
      }
      frames.push(this.finish());
      i = stop + 1;
      if (i === data.length) this.afterEnd = true;
      else if (data[i] === CR) i += 1;
    }
    return frames;
  }

  private begin() {
    this.inFrame = true;
    this.chunks = [];
    this.size = 0;
  }

  private append(part: Buffer) {
    if (part.length === 0) return;
    const before = this.size;
    this.size += part.length;
    if (this.size <= this.limit) this.chunks.push(part);
    else if (before <= this.limit) {
      // Just went over: from now on only the head is kept.
      this.chunks = [Buffer.concat([...this.chunks, part]).subarray(0, this.keep)];
    }
  }

  private finish(): MllpFrame {
    this.inFrame = false;
    const tooLarge = this.size > this.limit;
    const bytes = Buffer.concat(this.chunks);
    this.chunks = [];
    return { bytes: tooLarge ? bytes.subarray(0, this.keep) : bytes, size: this.size, tooLarge };
  }
}

/** A frame around an ACK. */
export function mllpFrame(message: Buffer): Buffer {
  return Buffer.concat([Buffer.of(VT), message, Buffer.of(FS, CR)]);
}

export interface MllpOptions {
  port: number;
  host: string;
  /** Client addresses allowed to connect (IPv4 or IPv6, as written). */
  allow: readonly string[];
  /** Connections open at once; more are closed as they come. */
  maxConnections?: number;
  /** A connection with no traffic this long (and no message being processed) is closed. */
  idleMs?: number;
  /** On stop, how long messages being processed may take before their connections are cut. */
  stopGraceMs?: number;
  /** What processes a message: processHl7 (tests wrap it to hold a message in flight). */
  processMessage?: typeof processHl7;
}

export const MLLP_MAX_CONNECTIONS = 16;
export const MLLP_IDLE_MS = 5 * 60_000;
const MLLP_STOP_GRACE_MS = 15_000;

/** A client's address as written in an allow list (IPv4 clients of a dual-stack socket). */
const plainAddress = (address: string | undefined) => (address ?? '').replace(/^::ffff:/i, '');

interface Connection {
  socket: Socket;
  busy: boolean;
}

/** The MLLP server: started with the app (after migrations), stopped with it (ADR 034). */
export class MllpListener {
  private server: net.Server | null = null;
  private readonly connections = new Set<Connection>();
  private stopping = false;
  private readonly allowed: Set<string>;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: MllpOptions,
  ) {
    this.allowed = new Set(options.allow.map(plainAddress));
  }

  /** The port it listens on (the one chosen when asked for port 0). */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : null;
  }

  async start(): Promise<void> {
    if (this.server) return;
    this.stopping = false;
    const server = net.createServer((socket) => this.accept(socket));
    server.maxConnections = this.options.maxConnections ?? MLLP_MAX_CONNECTIONS;
    server.on('drop', (data?: { remoteAddress?: string }) => {
      this.log.warn(
        { address: plainAddress(data?.remoteAddress), max: server.maxConnections },
        'MLLP connection closed: too many connections',
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: this.options.port, host: this.options.host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.log.error({ err: error }, 'MLLP listener failed'));
    this.server = server;
    this.log.info(
      { host: this.options.host, port: this.port, allow: [...this.allowed] },
      'MLLP listener started',
    );
  }

  /**
   * Stops accepting, lets each message being processed finish and get its ACK, then closes every
   * connection. A message not yet complete gets no ACK: the sender sends it again.
   */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const connection of this.connections) {
      if (!connection.busy) connection.socket.destroy();
    }
    const grace = this.options.stopGraceMs ?? MLLP_STOP_GRACE_MS;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), grace);
    });
    if ((await Promise.race([closed, late])) === 'late') {
      this.log.warn({ open: this.connections.size }, 'MLLP stop: connections cut after the grace');
      for (const connection of this.connections) connection.socket.destroy();
      await closed;
    }
    clearTimeout(timer);
    this.server = null;
    this.log.info('MLLP listener stopped');
  }

  private accept(socket: Socket) {
    const address = plainAddress(socket.remoteAddress);
    if (this.stopping || !this.allowed.has(address)) {
      if (!this.stopping)
        this.log.warn({ address }, 'MLLP connection refused: address not allowed');
      socket.destroy();
      return;
    }
    const connection: Connection = { socket, busy: false };
    this.connections.add(connection);
    const framer = new MllpFramer();
    const queue: MllpFrame[] = [];
    const log = this.log.child({ address });
    log.debug('MLLP connection opened');

    const drain = async () => {
      if (connection.busy) return;
      connection.busy = true;
      while (queue.length > 0 && !socket.destroyed) {
        const frame = queue.shift()!;
        // An empty frame is no message (some senders use one to keep the line open): no ACK.
        if (!frame.tooLarge && frame.bytes.toString('latin1').trim() === '') continue;
        const answer = await this.answer(frame, log);
        if (!socket.destroyed) socket.write(mllpFrame(answer.ackBytes));
        // Stopping: this message is answered; any queued after it get none and are sent again.
        if (this.stopping) break;
      }
      connection.busy = false;
      if (this.stopping) socket.end(() => socket.destroy());
      else if (!socket.destroyed) socket.resume();
    };

    socket.setTimeout(this.options.idleMs ?? MLLP_IDLE_MS);
    socket.on('timeout', () => {
      // Processing a large message is not idleness; writing its ACK restarts the timer.
      if (connection.busy) return;
      log.info({ receiving: framer.receiving }, 'MLLP connection closed: idle');
      socket.destroy();
    });
    socket.on('data', (data: Buffer) => {
      const discarded = framer.discarded;
      const abandoned = framer.abandoned;
      queue.push(...framer.push(data));
      if (framer.discarded > discarded) {
        log.warn({ bytes: framer.discarded - discarded }, 'MLLP bytes outside a frame discarded');
      }
      if (framer.abandoned > abandoned) {
        log.warn('MLLP frame abandoned: a new start block came before its end');
      }
      if (queue.length > 0) {
        // One message at a time per connection, in order; the sender waits meanwhile (TCP).
        socket.pause();
        void drain();
      }
    });
    socket.on('error', (error) => log.debug({ err: error }, 'MLLP connection error'));
    socket.on('close', () => {
      this.connections.delete(connection);
      log.debug('MLLP connection closed');
    });
  }

  /** The ACK for one frame; never throws (a failure answers AR, and the sender tries again). */
  private async answer(frame: MllpFrame, log: FastifyBaseLogger): Promise<Hl7Answer> {
    try {
      // MLLP carries no credentials, but the switch still holds: AR, as HTTP's 403 (ADR 034).
      if (!(await importEnabled(this.db))) {
        log.warn('MLLP message refused: results import is switched off');
        return refusalAck(frame.bytes, 'AR', 'results import is switched off in the portal');
      }
      if (frame.tooLarge) {
        log.warn({ size: frame.size }, 'laboratory message refused: too large');
        return await recordUnread(
          this.db,
          frame.bytes,
          `message of ${frame.size} bytes over the limit of ${HL7_MAX_MESSAGE_BYTES}; its first ${frame.bytes.length} bytes kept`,
          'message_too_large',
        );
      }
      const process = this.options.processMessage ?? processHl7;
      const answer = await process(this.db, frame.bytes, null);
      if (answer.refused) log.warn({ reason: answer.reason }, 'laboratory message refused');
      return answer;
    } catch (error) {
      log.error({ err: error }, 'MLLP message failed');
      return refusalAck(
        frame.bytes,
        'AR',
        'the portal could not process the message; send it again',
      );
    }
  }
}

async function importEnabled(db: Database): Promise<boolean> {
  const { value } = await readSetting(db, 'synevo');
  return (
    typeof value === 'object' &&
    value !== null &&
    'enable_results_import' in value &&
    value.enable_results_import === true
  );
}

/** Runs the listener with the app when LAB_MLLP_PORT is set: ready starts it, close stops it. */
export function startMllpWithApp(
  app: FastifyInstance,
  deps: { db: Database; config: AppConfig['labMllp'] },
): MllpListener | null {
  const { port, host, allow } = deps.config;
  if (port === null) return null;
  const listener = new MllpListener(deps.db, app.log.child({ transport: 'mllp' }), {
    port,
    host,
    allow,
  });
  app.addHook('onReady', () => listener.start());
  app.addHook('onClose', () => listener.stop());
  return listener;
}
