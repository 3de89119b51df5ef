import type { Envelope, ExtensionHello, Request, Response } from '#shared/index.js';
import {
  Chunk,
  ChunkAssembler,
  Envelope as EnvelopeSchema,
  EXTENSION_CHUNK_CHARS,
  PROTOCOL_VERSION,
  RequestTable,
  splitIntoChunks,
  toErrorPayload,
  XipeError,
} from '#shared/index.js';
import { browser, disconnectReason, type Runtime } from '../platform/browser.js';
import type { RequestScope } from './handlers/types.js';

/**
 * The service worker's side of the native-messaging link. Connects on demand, says hello, answers
 * requests, and reconnects by itself after the host exits or the port fails: exponential back-off
 * (100 ms doubling to 30 s, reset by a successful hello), never a tight loop; the heartbeat alarm
 * calls `ensureConnected` as a safety net. While the port is open Chrome keeps the worker alive.
 */

export const INITIAL_BACKOFF_MS = 100;
export const MAX_BACKOFF_MS = 30_000;

export interface NativeLinkDeps {
  hostName: string;
  /** Builds the hello (user-scripts permission and browser info are read fresh each time). */
  hello(): Promise<ExtensionHello>;
  /** `scope`: the asker's cancel, and where to tell it the request waits its turn. */
  onRequest(request: Request, scope: RequestScope): Promise<Response>;
  log?: Pick<Console, 'info' | 'warn' | 'error'>;
  /** Injected for tests. */
  connectNative?: (name: string) => Runtime.Port;
  now?: () => number;
}

export type LinkState = 'idle' | 'connecting' | 'connected' | 'waiting';

export class NativeHostLink {
  private port: Runtime.Port | null = null;
  private helloDone = false;
  private backoffMs = INITIAL_BACKOFF_MS;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lastHello: ExtensionHello | null = null;
  private readonly assembler = new ChunkAssembler();
  private readonly log: Pick<Console, 'info' | 'warn' | 'error'>;
  private readonly connectNative: (name: string) => Runtime.Port;
  /** Requests this extension sent to host commands (the toolbar's save_reference, list_ideas…). */
  private readonly pendingHost = new RequestTable<string, { command: string }>({ peer: 'The native host' });
  private nextHostRequestId = 1;
  /** The host's requests being answered, by id: a `cancel` for one aborts it. */
  private readonly answering = new Map<Request['id'], AbortController>();
  private nextStream = 1;

  constructor(private readonly deps: NativeLinkDeps) {
    this.log = deps.log ?? console;
    this.connectNative = deps.connectNative ?? ((name) => browser.runtime.connectNative(name));
  }

  get state(): LinkState {
    if (this.port !== null) return this.helloDone ? 'connected' : 'connecting';
    return this.retryTimer !== null ? 'waiting' : 'idle';
  }

  /** The port is open and the host answered the hello. */
  get connected(): boolean {
    return this.port !== null && this.helloDone;
  }

  /** Sends a request to a command the host answers itself and resolves with its result. */
  request(command: string, params: unknown, timeoutMs = 30_000): Promise<unknown> {
    if (!this.connected) {
      return Promise.reject(
        new XipeError(
          'BACKEND_UNREACHABLE',
          'The X-IPE native host is not connected. Run `x-ipe-uiux install` (or `x-ipe-uiux doctor`) and retry.',
        ),
      );
    }
    const id = `ext-${this.nextHostRequestId++}`;
    return this.pendingHost.request(id, { command }, { waitMs: timeoutMs }, () => {
      try {
        this.postLarge({ type: 'request', id, command, params, timeout_ms: timeoutMs });
      } catch (err) {
        throw new XipeError('PAYLOAD_TOO_LARGE', `Could not send '${command}': ${(err as Error).message}`);
      }
    });
  }

  /** Sends an `event` envelope (capture events for MCP clients); dropped while disconnected. */
  emit(event: string, data: unknown): void {
    if (this.connected) this.post({ type: 'event', event, data });
  }

  /**
   * Connects unless a port is open or a back-off retry is already scheduled (so bursts of tab
   * events cannot spawn host processes in a loop).
   */
  ensureConnected(reason: string): void {
    if (this.port !== null || this.retryTimer !== null) return;
    this.connect(reason);
  }

  /** Heartbeat: reconnect if needed, keep the link busy, re-announce a changed permission. */
  async heartbeat(): Promise<void> {
    this.ensureConnected('heartbeat');
    if (this.port === null || !this.helloDone) return;
    this.post({ type: 'ping' });
    const hello = await this.deps.hello();
    if (
      this.lastHello !== null &&
      hello.extension.user_scripts_allowed !== this.lastHello.extension.user_scripts_allowed
    ) {
      this.sendHello(hello);
    }
  }

  private connect(reason: string): void {
    let port: Runtime.Port;
    try {
      port = this.connectNative(this.deps.hostName);
    } catch (err) {
      this.log.warn(`[x-ipe] connectNative threw: ${(err as Error).message}`);
      this.scheduleRetry();
      return;
    }
    this.port = port;
    this.helloDone = false;
    this.assembler.clear();
    this.log.info(`[x-ipe] connecting to ${this.deps.hostName} (${reason})`);
    port.onMessage.addListener((message: unknown) => {
      if (this.port === port) this.onMessage(message);
    });
    port.onDisconnect.addListener(() => {
      // Reading lastError marks it as checked (no "Unchecked runtime.lastError" noise).
      const why = disconnectReason(port) ?? 'host exited';
      if (this.port !== port) return;
      this.port = null;
      this.helloDone = false;
      this.assembler.clear();
      for (const abort of this.answering.values()) abort.abort();
      this.answering.clear();
      this.pendingHost.failAll(
        new XipeError(
          'BACKEND_UNREACHABLE',
          `The native host disconnected (${why}) before answering; retry.`,
        ),
      );
      this.log.warn(`[x-ipe] native host disconnected: ${why}; retrying in ${this.backoffMs} ms`);
      this.scheduleRetry();
    });
    void this.deps.hello().then(
      (hello) => {
        if (this.port === port) this.sendHello(hello);
      },
      (err: unknown) => this.log.error(`[x-ipe] could not build the hello: ${(err as Error).message}`),
    );
  }

  private sendHello(hello: ExtensionHello): void {
    this.lastHello = hello;
    this.post(hello);
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== null) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.ensureConnected('retry');
    }, delay);
  }

  private onMessage(raw: unknown): void {
    let envelope: Envelope;
    try {
      envelope = this.parse(raw);
    } catch (err) {
      this.log.warn(`[x-ipe] dropped an invalid message from the host: ${(err as Error).message}`);
      return;
    }
    switch (envelope.type) {
      case 'chunk':
        return; // parts of a stream: nothing to do until it is complete
      case 'hello':
        if (envelope.role !== 'host') {
          this.log.warn(`[x-ipe] unexpected hello from role ${envelope.role}`);
        } else if (envelope.protocol !== PROTOCOL_VERSION) {
          this.log.error(
            `[x-ipe] host speaks protocol ${envelope.protocol}, extension ${PROTOCOL_VERSION}: rebuild and reinstall both from one version`,
          );
        } else {
          this.helloDone = true;
          this.backoffMs = INITIAL_BACKOFF_MS;
          this.log.info(`[x-ipe] connected to host pid ${envelope.host.pid} (${envelope.host.host_version})`);
        }
        return;
      case 'request':
        void this.answer(envelope);
        return;
      case 'cancel':
        this.answering.get(envelope.id)?.abort();
        return;
      case 'response':
        if (typeof envelope.id === 'string') this.pendingHost.settle(envelope.id, envelope);
        return;
      case 'error':
        this.log.error(`[x-ipe] host reported: ${envelope.error.code}: ${envelope.error.message}`);
        return;
      default:
        return; // ping, events and responses need no answer yet
    }
  }

  /** Parses one inbound message; a completed chunk stream yields the whole envelope it carried. */
  private parse(raw: unknown): Envelope {
    const envelope = EnvelopeSchema.parse(raw);
    if (envelope.type !== 'chunk') return envelope;
    const whole = this.assembler.push(Chunk.parse(envelope));
    if (whole === null) return envelope;
    const inner = EnvelopeSchema.parse(JSON.parse(whole));
    if (inner.type === 'chunk') throw new Error('a chunk stream carried another chunk');
    return inner;
  }

  private async answer(request: Request): Promise<void> {
    const abort = new AbortController();
    this.answering.set(request.id, abort);
    const port = this.port;
    const scope: RequestScope = {
      signal: abort.signal,
      progress: (p) => {
        if (this.port === port) this.post({ type: 'progress', id: request.id, ...p });
      },
    };
    const response = await this.deps.onRequest(request, scope).finally(() => {
      if (this.answering.get(request.id) === abort) this.answering.delete(request.id);
    });
    try {
      this.post(response, true);
    } catch (err) {
      // Over Chrome's 64 MiB extension→host cap (postMessage throws synchronously).
      const error = new XipeError(
        'PAYLOAD_TOO_LARGE',
        `The result of '${request.command}' is too large to send (${(err as Error).message}). Return less data.`,
      );
      this.post({ type: 'response', id: request.id, ok: false, error: toErrorPayload(error) });
    }
  }

  /**
   * Sends a message that may be large (a staged image): over EXTENSION_CHUNK_CHARS of JSON it goes
   * as `chunk` envelopes, which the host reassembles, so nothing meets Chrome's 64 MiB cap.
   */
  private postLarge(message: Envelope): void {
    const json = JSON.stringify(message);
    if (json.length <= EXTENSION_CHUNK_CHARS) {
      this.post(message, true);
      return;
    }
    const stream = `x${this.nextStream++}-${Date.now().toString(36)}`;
    for (const chunk of splitIntoChunks(json, stream, EXTENSION_CHUNK_CHARS)) this.post(chunk, true);
  }

  private post(message: Envelope, rethrow = false): void {
    const port = this.port;
    if (port === null) return;
    try {
      port.postMessage(message);
    } catch (err) {
      if (rethrow && /exceed|too large|size/i.test((err as Error).message)) throw err;
      this.log.warn(`[x-ipe] could not send to the host: ${(err as Error).message}`);
    }
  }
}
