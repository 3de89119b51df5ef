import type net from 'node:net';
import { QUEUE_WAIT_LIMIT_MS, QUEUE_WAIT_MARGIN_MS } from '../../commands/capture-queue.js';
import { BRIDGE_MAX_FRAME_BYTES } from '../../constants.js';
import { type ClientProof, Event, type HostInfo, LinkError, Progress, Response } from '../../envelopes.js';
import { XipeError } from '../../errors.js';
import { RequestTable } from '../../request-table.js';
import type { EndpointDescriptor } from '../endpoint-descriptor.js';
import { decodePayload, encodeFrame, FrameError, type FrameReader } from '../framing.js';
import type { Logger } from '../logger.js';
import { helloHost } from './host-hello.js';
import { LinkLost } from './link-lost.js';

export interface HostConnectionOptions {
  /** Descriptor file name (`h-<pid>.json`): identifies the host for its lifetime. */
  key: string;
  descriptor: EndpointDescriptor;
  token: string;
  client: ClientProof['client'];
  helloTimeoutMs: number;
  logger: Logger;
  onEvent?: (event: Event, connection: HostConnection) => void;
  onClose?: () => void;
}

interface Pending {
  readonly command: string;
  /** The frame was handed to the OS: the host may have it. */
  written: boolean;
  /** Told when the host says the request waits its turn (its time limit is then paused) or starts. */
  readonly onProgress?: ((progress: Progress) => void) | undefined;
}

/** How long a request the host says is queued may wait (the extension's own limit comes first). */
const QUEUED_MAX_MS = QUEUE_WAIT_LIMIT_MS + 2 * QUEUE_WAIT_MARGIN_MS;

/**
 * One authenticated connection to one host: connect, the handshake (each side proves it holds
 * the token, `handshake.ts`), then requests matched
 * to responses by id, each with its own timeout. Events are passed on. Pure transport: it does not
 * know commands; callers parse results. The MCP server keeps one per host for its lifetime; the
 * CLI (`doctor`, `start`) opens one for a single question (`probeHost`).
 */
export class HostConnection {
  info: HostInfo;
  private readonly pending: RequestTable<number, Pending>;
  private nextId = 1;
  private closedReason: string | null = null;

  private constructor(
    private readonly socket: net.Socket,
    private readonly reader: FrameReader,
    info: HostInfo,
    private readonly options: HostConnectionOptions,
  ) {
    this.info = info;
    const pid = options.descriptor.pid;
    this.pending = new RequestTable({ peer: `Host pid ${pid}`, details: () => ({ pid }) });
  }

  get pid(): number {
    return this.options.descriptor.pid;
  }

  get key(): string {
    return this.options.key;
  }

  get descriptor(): EndpointDescriptor {
    return this.options.descriptor;
  }

  get closed(): boolean {
    return this.closedReason !== null;
  }

  /** Connects and completes the hello (host-hello.ts). LinkLost when the endpoint is not there or hangs up. */
  static async open(options: HostConnectionOptions): Promise<HostConnection> {
    const hello = await helloHost(options);
    const connection = new HostConnection(hello.socket, hello.reader, hello.host, options).attach();
    // Frames that arrived with the hello (e.g. an event) are handled once the caller has the connection.
    if (hello.rest.length > 0) setImmediate(() => connection.onFrames(hello.rest));
    return connection;
  }

  /**
   * Sends one request and resolves with its raw result (the caller parses it). Rejects with the
   * host's error, TIMEOUT after `waitMs`, or LinkLost when the connection closes first.
   */
  request(
    command: string,
    params: unknown,
    timeoutMs: number,
    waitMs: number,
    signal?: AbortSignal,
    onProgress?: (progress: Progress) => void,
  ): Promise<unknown> {
    if (this.closedReason !== null) return Promise.reject(new LinkLost(this.closedReason, { pid: this.pid }));
    const id = this.nextId++;
    let frame: Buffer;
    try {
      frame = encodeFrame(
        { type: 'request', id, command, params, timeout_ms: timeoutMs },
        BRIDGE_MAX_FRAME_BYTES,
      );
    } catch (err) {
      return Promise.reject(
        new XipeError(
          'PAYLOAD_TOO_LARGE',
          `The ${command} request is too large for the bridge: ${(err as Error).message}`,
        ),
      );
    }
    // (An aborted call is answered as cancelled by the table, whatever the socket's state.)
    if (signal?.aborted !== true && (this.socket.destroyed || !this.socket.writable)) {
      return Promise.reject(
        new LinkLost(`The connection to host pid ${this.pid} was already closed; ${command} was not sent`, {
          pid: this.pid,
        }),
      );
    }
    const entry: Pending = { command, written: false, onProgress };
    // The caller gave up: the host stops the request too (a queued capture leaves the queue).
    const onAbort = () => this.sendCancel(id);
    signal?.addEventListener('abort', onAbort, { once: true });
    return this.pending
      .request(id, entry, { waitMs, signal }, () => {
        // The callback runs once the OS has taken the whole frame (before any later close or reply
        // is read), or with EPIPE/ECONNRESET when the host was already gone: then it never got it.
        this.socket.write(frame, (err) => {
          if (err == null) entry.written = true;
        });
      })
      .finally(() => signal?.removeEventListener('abort', onAbort));
  }

  private sendCancel(id: number): void {
    if (this.closedReason !== null || this.socket.destroyed || !this.socket.writable) return;
    try {
      this.socket.write(encodeFrame({ type: 'cancel', id }, BRIDGE_MAX_FRAME_BYTES));
    } catch {
      // nothing to tell a host we cannot write to
    }
  }

  close(): void {
    this.shutdown(`${this.options.client.name} closed the connection`);
    this.socket.destroy();
  }

  private attach(): this {
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err: NodeJS.ErrnoException) => {
      this.options.logger.debug('host socket error', { pid: this.pid, error: err.code ?? err.message });
    });
    this.socket.on('close', () =>
      this.shutdown(`The connection to host pid ${this.pid} closed before it answered`),
    );
    return this;
  }

  private onData(chunk: Buffer): void {
    let frames: Buffer[];
    try {
      frames = this.reader.push(chunk);
    } catch (err) {
      // Answers that arrived before the bad header are still good: settle them first.
      if (err instanceof FrameError) this.onFrames(err.frames);
      if (this.closedReason === null) this.protocolFailure(`unreadable frame: ${(err as Error).message}`);
      return;
    }
    this.onFrames(frames);
  }

  private onFrames(frames: Buffer[]): void {
    for (const frame of frames) {
      if (this.closedReason !== null) return;
      let value: unknown;
      try {
        value = decodePayload(frame);
      } catch (err) {
        this.protocolFailure((err as Error).message);
        return;
      }
      this.onValue(value);
    }
  }

  private onValue(value: unknown): void {
    const response = Response.safeParse(value);
    if (response.success) {
      const { id } = response.data;
      if (typeof id !== 'number' || !this.pending.settle(id, response.data)) {
        this.options.logger.debug('late or unknown response ignored', { pid: this.pid, id });
      }
      return;
    }
    const progress = Progress.safeParse(value);
    if (progress.success) {
      const { id, state } = progress.data;
      const entry = typeof id === 'number' ? this.pending.get(id) : undefined;
      if (entry !== undefined && typeof id === 'number') {
        this.pending.hold(id, state, QUEUED_MAX_MS);
        entry.onProgress?.(progress.data);
      }
      return;
    }
    const event = Event.safeParse(value);
    if (event.success) {
      this.options.onEvent?.(event.data, this);
      return;
    }
    const linkError = LinkError.safeParse(value);
    if (linkError.success) {
      this.options.logger.warn('host closed the link', { pid: this.pid, error: linkError.data.error });
      this.shutdown(`Host pid ${this.pid} closed the link: ${linkError.data.error.message}`);
      this.socket.end();
      return;
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (type === 'ping') return;
    // A response we cannot parse may still carry our id: fail that request instead of letting it hang.
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'number' && this.pending.get(id) !== undefined) {
      this.pending.fail(
        id,
        new XipeError(
          'PROTOCOL_ERROR',
          `Host pid ${this.pid} sent a malformed response. Use the same x-ipe-uiux version for every process (reinstall with \`x-ipe-uiux install\`).`,
        ),
      );
      return;
    }
    this.options.logger.warn('ignored an unknown message from the host', {
      pid: this.pid,
      type: String(type),
    });
  }

  private protocolFailure(reason: string): void {
    this.options.logger.warn('host link broken', { pid: this.pid, reason });
    this.pending.failAll(
      new XipeError(
        'PROTOCOL_ERROR',
        `Host pid ${this.pid} broke the bridge protocol (${reason}). Use the same x-ipe-uiux version for every process (reinstall with \`x-ipe-uiux install\`).`,
      ),
    );
    this.shutdown(`host pid ${this.pid}: ${reason}`);
    this.socket.destroy();
  }

  private shutdown(reason: string): void {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    this.pending.failAll((entry) =>
      entry.written
        ? new LinkLost(
            `${reason}. The ${entry.command} request had been sent, so it may have run; it was not repeated. Check its effect (list_tabs, bridge_status) before calling again.`,
            { pid: this.pid, command: entry.command, maybe_delivered: true },
            true,
          )
        : new LinkLost(reason, { pid: this.pid }),
    );
    this.options.onClose?.();
  }
}
