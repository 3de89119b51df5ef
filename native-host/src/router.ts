import {
  CAPTURE_QUEUE_EVENT,
  CaptureQueueSnapshot,
  COMMANDS,
  type CommandSpec,
  type QueueEntry,
} from '../../shared/src/commands/index.js';
import { DEFAULT_TOOL_TIMEOUT_MS, PROTOCOL_VERSION } from '../../shared/src/constants.js';
import {
  Envelope,
  type Event,
  type ExtensionInfo,
  type Progress,
  type Request,
  type Response,
} from '../../shared/src/envelopes.js';
import { validationError, XipeError } from '../../shared/src/errors.js';
import { memoizedSafeParse } from '../../shared/src/parse-memo.js';
import { CAPTURE_EVENTS } from '../../shared/src/toolbar-messages.js';
import { ClientCalls } from './client-calls.js';
import { EnvelopeMemo } from './envelope-memo.js';
import { EventBuffer } from './event-buffer.js';
import { EXTENSION_NOT_CONNECTED_MESSAGE, ExtensionRequests } from './extension-requests.js';
import { HandlerRunner } from './handler-runner.js';
import { failure, failureOf, requestIdOf, sendToClient, sendToExtension } from './responses.js';
import type { ClientPort, RequestContextParts, RouterOptions } from './router-ports.js';
import { StagedImages } from './staged-images.js';

/**
 * The host's switchboard, free of I/O so it is unit-tested with fakes: bridge clients' requests go
 * to a host handler or are relayed to the extension under a host-side id; the extension's
 * responses are mapped back to the client's own id; the extension's requests go to the same host
 * handlers; its events are broadcast to every authenticated client.
 */

export const RELAY_TIMEOUT_MARGIN_MS = 1_000;

export class Router {
  private readonly commands: Readonly<Record<string, CommandSpec>>;
  private readonly clients = new Map<ClientPort, AbortController>();
  private readonly requests: ExtensionRequests;
  /** Capture events, numbered, for `events_since`. */
  readonly events: EventBuffer;
  /** The extension's images staged for its saves (`stage_image`); they go with this host. */
  readonly images = new StagedImages();
  private readonly runner: HandlerRunner;
  /** Requests relayed before (envelope and params accepted), by their bytes but for the id. */
  private readonly clientEnvelopes = new EnvelopeMemo(true);
  private extensionAbort = new AbortController();
  /** Host handlers running for clients, each cancellable on its own. */
  private readonly calls = new ClientCalls();
  private queue: QueueEntry[] | null = null;
  private extensionInfoValue: ExtensionInfo | null = null;
  private connected = false;
  private stopped = false;

  constructor(private readonly options: RouterOptions) {
    this.commands = options.commands ?? COMMANDS;
    this.requests = new ExtensionRequests({
      extension: options.extension,
      logger: options.logger,
      relayMarginMs: options.relayMarginMs ?? RELAY_TIMEOUT_MARGIN_MS,
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    });
    this.events = new EventBuffer(options.eventCapacity);
    this.runner = new HandlerRunner(options.handlers, options.logger);
  }

  get extensionConnected(): boolean {
    return this.connected;
  }

  get extensionInfo(): ExtensionInfo | null {
    return this.extensionInfoValue;
  }

  /** The extension's capture queue as it last said; null before it said anything. */
  get captureQueue(): QueueEntry[] | null {
    return this.connected ? this.queue : null;
  }

  get pendingCount(): number {
    return this.requests.size;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  // ── extension side ────────────────────────────────────────────────────────────────────────

  /** `payload`: the frame's bytes, when it came in one frame (a response is relayed as them). */
  handleExtensionEnvelope(envelope: Envelope, payloadBytes: number, payload?: Buffer): void {
    if (this.stopped) return;
    switch (envelope.type) {
      case 'hello':
        this.onExtensionHello(envelope);
        return;
      case 'request':
        void this.onExtensionRequest(envelope, payloadBytes);
        return;
      case 'response':
        this.onExtensionResponse(envelope, payload);
        return;
      case 'event':
        if (!this.connected) {
          this.options.logger.warn('dropped an event sent before the extension hello', {
            event: envelope.event,
          });
          return;
        }
        this.onExtensionEvent(envelope);
        return;
      case 'error':
        this.options.logger.warn('extension reported a link error', {
          code: envelope.error.code,
          message: envelope.error.message,
        });
        return;
      case 'progress':
        this.requests.progress(envelope);
        return;
      case 'ping':
      case 'cancel':
        return; // a ping only keeps the service worker alive; the host's handlers are not cancelled
      case 'chunk':
        return; // reassembled by the native link before it reaches us
    }
  }

  /** A frame from the extension that is JSON but not an envelope: answer it if it was a request. */
  handleExtensionInvalid(raw: unknown, error: string): void {
    if (this.stopped) return; // like handleExtensionEnvelope: nothing is answered once stopping
    this.options.logger.warn('ignored an invalid message from the extension', { error });
    const id = requestIdOf(raw);
    if (id !== null) {
      this.sendToExtension(failureOf(id, 'VALIDATION_ERROR', `Invalid message: ${error}`));
    }
  }

  /** The native link is gone (or the host is stopping): nothing can be relayed any more. */
  extensionGone(reason: string): void {
    if (this.connected) this.options.logger.info('extension disconnected', { reason });
    this.connected = false;
    this.queue = null;
    this.extensionAbort.abort();
    this.extensionAbort = new AbortController();
    this.requests.failAll(reason);
  }

  private onExtensionHello(hello: Extract<Envelope, { type: 'hello' }>): void {
    if (hello.role !== 'extension' || hello.protocol !== PROTOCOL_VERSION) {
      const message =
        hello.role !== 'extension'
          ? `Expected an extension hello on the native link, got role '${hello.role}'`
          : `Protocol mismatch: the extension speaks version ${hello.protocol}, this host speaks ${PROTOCOL_VERSION}. ` +
            'Rebuild/reinstall so the extension and `x-ipe-uiux install` come from the same version.';
      this.options.logger.error('native link handshake failed', {
        role: hello.role,
        protocol: hello.protocol,
      });
      this.sendToExtension({ type: 'error', error: { code: 'PROTOCOL_ERROR', message } });
      this.options.onFatal('protocol mismatch on the native link');
      return;
    }
    const first = !this.connected;
    this.extensionInfoValue = hello.extension;
    this.connected = true;
    this.options.logger.info(first ? 'extension connected' : 'extension said hello again', {
      extension_id: hello.extension.id,
      extension_version: hello.extension.version,
      browser: hello.extension.browser.browser_id,
      user_scripts_allowed: hello.extension.user_scripts_allowed,
    });
    this.sendToExtension({
      type: 'hello',
      role: 'host',
      protocol: PROTOCOL_VERSION,
      host: this.options.hostInfo(),
    });
  }

  private onExtensionResponse(response: Response, payload: Buffer | undefined): void {
    if (!this.requests.settle(response, payload)) {
      this.options.logger.debug('dropped a late or unknown response from the extension', { id: response.id });
    }
  }

  private async onExtensionRequest(request: Request, payloadBytes: number): Promise<void> {
    if (!this.connected) {
      this.sendToExtension(
        failureOf(request.id, 'PROTOCOL_ERROR', 'Send the extension hello before any request'),
      );
      return;
    }
    const spec = this.commandSpec(request.command);
    if (spec === undefined) {
      this.sendToExtension(this.unknownCommand(request));
      return;
    }
    if (spec.handledBy !== 'host') {
      this.sendToExtension(
        failureOf(
          request.id,
          'VALIDATION_ERROR',
          `'${request.command}' is handled by the extension, not the host`,
        ),
      );
      return;
    }
    const response = await this.runHandler(request, {
      source: 'extension',
      workspace: undefined,
      payloadBytes,
      signal: this.extensionAbort.signal,
    });
    this.sendToExtension(response);
  }

  // ── bridge side ───────────────────────────────────────────────────────────────────────────

  addClient(client: ClientPort): void {
    this.clients.set(client, new AbortController());
  }

  /** A client went away: forget what it was waiting for (a late answer is dropped). */
  removeClient(client: ClientPort): void {
    const abort = this.clients.get(client);
    if (abort === undefined) return;
    this.clients.delete(client);
    abort.abort();
    const dropped = this.requests.forgetClient(client);
    if (dropped > 0)
      this.options.logger.info('dropped pending requests of a departed client', {
        client: client.id,
        dropped,
      });
  }

  /**
   * A frame from an authenticated client that repeats, under another id, a request relayed
   * before (envelope-memo.ts): relayed without decoding or checking it again, its envelope and
   * params being those the host accepted. False when it is not one.
   */
  handleClientFrame(client: ClientPort, payload: Buffer): boolean {
    if (this.stopped || !this.clients.has(client)) return false;
    const envelope = this.clientEnvelopes.lookup(payload);
    if (envelope?.type !== 'request') return false;
    this.relay(client, envelope, payload);
    return true;
  }

  /** One decoded frame from an authenticated client; `payload` its bytes (a request is relayed as them). */
  handleClientValue(client: ClientPort, value: unknown, payloadBytes: number, payload?: Buffer): void {
    if (this.stopped || !this.clients.has(client)) return;
    const parsed = Envelope.safeParse(value);
    if (!parsed.success) {
      const id = requestIdOf(value);
      this.options.logger.warn('ignored an invalid message from a bridge client', { client: client.id });
      if (id !== null)
        this.sendToClient(client, failure(id, validationError(parsed.error, 'request', value).toPayload()));
      return;
    }
    const envelope = parsed.data;
    if (envelope.type === 'request') {
      void this.onClientRequest(client, envelope, payloadBytes, payload);
    } else if (envelope.type === 'cancel') {
      // A host handler stops (and cancels what it asked the extension), or a relayed request does.
      if (!this.calls.cancel(client, envelope.id)) this.requests.cancelRelayed(client, envelope.id);
    } else if (envelope.type !== 'ping') {
      this.options.logger.debug('ignored a non-request message from a bridge client', {
        client: client.id,
        type: envelope.type,
      });
    }
  }

  private async onClientRequest(
    client: ClientPort,
    request: Request,
    payloadBytes: number,
    payload: Buffer | undefined,
  ): Promise<void> {
    const spec = this.commandSpec(request.command);
    if (spec === undefined) {
      this.sendToClient(client, this.unknownCommand(request));
      return;
    }
    if (spec.handledBy === 'host') {
      const abort = this.clients.get(client);
      if (abort === undefined) return;
      const signal = this.calls.start(client, request.id, abort.signal);
      const response = await this.runHandler(
        request,
        { source: 'bridge', workspace: client.workspace, payloadBytes, signal },
        client,
      ).finally(() => this.calls.end(client, request.id));
      if (this.clients.has(client)) this.sendToClient(client, response);
      return;
    }
    // Checked here so a bad request is refused before it reaches the browser; the same params
    // come again call after call, so a repeat is not parsed again.
    const params = memoizedSafeParse(spec.params, request.params ?? {});
    if (!params.success) {
      this.sendToClient(
        client,
        failure(
          request.id,
          validationError(params.error, `${request.command} params`, request.params ?? {}).toPayload(),
        ),
      );
      return;
    }
    if (payload !== undefined) this.clientEnvelopes.remember(payload, request);
    this.relay(client, request, payload);
  }

  private relay(client: ClientPort, request: Request, payload: Buffer | undefined): void {
    if (!this.connected) {
      this.sendToClient(
        client,
        failureOf(request.id, 'EXTENSION_NOT_CONNECTED', EXTENSION_NOT_CONNECTED_MESSAGE, {
          command: request.command,
        }),
      );
      return;
    }
    this.requests.relay(client, request, (response) => this.sendToClient(client, response), payload);
  }

  /**
   * Capture events are validated, numbered and kept (stripped to their schema, so no image bytes)
   * before every client gets them; other events are passed on as they are.
   */
  private onExtensionEvent(envelope: Event): void {
    if (envelope.event === CAPTURE_QUEUE_EVENT) {
      // Kept for host_status (bridge_status), not passed on: it changes with every capture.
      const snapshot = CaptureQueueSnapshot.safeParse(envelope.data);
      if (snapshot.success) this.queue = snapshot.data.jobs;
      return;
    }
    if (!(CAPTURE_EVENTS as readonly string[]).includes(envelope.event)) {
      this.broadcast(envelope);
      return;
    }
    const stored = this.events.add(
      envelope.event,
      envelope.data,
      this.extensionInfoValue?.browser.browser_id ?? null,
    );
    if (stored === null) {
      this.options.logger.warn('dropped an invalid capture event from the extension', {
        event: envelope.event,
      });
      return;
    }
    this.broadcast({ type: 'event', event: envelope.event, data: stored, seq: stored.seq });
  }

  /**
   * The host's own request to the extension, under a relay id like relayed ones (ids never clash).
   * Used by host handlers through `ctx.extension`.
   */
  requestExtension(
    command: string,
    params: unknown,
    options: { timeoutMs: number; signal?: AbortSignal; onProgress?: (progress: Progress) => void },
  ): Promise<unknown> {
    if (this.stopped || !this.connected) {
      return Promise.reject(
        new XipeError('EXTENSION_NOT_CONNECTED', EXTENSION_NOT_CONNECTED_MESSAGE, { command }),
      );
    }
    return this.requests.request(command, params, options);
  }

  private broadcast(event: Event): void {
    for (const client of this.clients.keys()) {
      try {
        client.send(event);
      } catch (err) {
        this.options.logger.warn('could not forward an event to a bridge client', {
          client: client.id,
          event: event.event,
          error: (err as Error).message,
        });
      }
    }
  }

  // ── shared ────────────────────────────────────────────────────────────────────────────────

  /** `client`: the bridge client that asked (none for the extension), told where a capture waits. */
  private runHandler(request: Request, parts: RequestContextParts, client?: ClientPort): Promise<Response> {
    return this.runner.run(request, () => ({
      ...this.options.context(parts),
      requester: client === undefined ? 'toolbar' : `${client.label} #${client.id}`,
      progress: (p) => {
        if (client === undefined || !this.clients.has(client)) return;
        try {
          client.send({ type: 'progress', ...p, id: request.id });
        } catch {
          // the client's link is failing: its request ends with it
        }
      },
      extension: { request: (command, params, options) => this.requestExtension(command, params, options) },
      events: {
        since: (afterSeq) => this.events.since(afterSeq),
        record: (name, data) => this.onExtensionEvent({ type: 'event', event: name, data }),
      },
      images: this.images,
    }));
  }

  /** Resolves when every host handler running now has finished (shutdown lets saves complete). */
  settled(): Promise<void> {
    return this.runner.settled();
  }

  /** Stops routing: pending relays fail with EXTENSION_NOT_CONNECTED, handlers are aborted. */
  stop(reason: string): void {
    if (this.stopped) return;
    this.extensionGone(reason);
    this.stopped = true;
    for (const abort of this.clients.values()) abort.abort();
  }

  private commandSpec(command: string): CommandSpec | undefined {
    return Object.hasOwn(this.commands, command) ? this.commands[command] : undefined;
  }

  private unknownCommand(request: Request): Response {
    return failureOf(request.id, 'VALIDATION_ERROR', `Unknown command '${request.command}'`, {
      command: request.command,
      known: Object.keys(this.commands),
    });
  }

  private sendToClient(client: ClientPort, response: Response): void {
    sendToClient(client, response, this.options.logger);
  }

  private sendToExtension(message: Envelope): void {
    sendToExtension(this.options.extension, message, this.options.logger);
  }
}
