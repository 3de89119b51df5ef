import type { QueueEntry } from '#shared/commands/capture-queue.js';
import { COMMANDS, type CommandSpec } from '#shared/commands/index.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '#shared/constants.js';
import type { Envelope, ExtensionInfo, Progress, Request, Response } from '#shared/envelopes.js';
import type { EventBuffer } from './event-buffer.js';
import { ExtensionRequests } from './extension-requests.js';
import { HandlerRunner } from './handler-runner.js';
import { failureOf } from './responses.js';
import { EventBroadcast } from './router-broadcast.js';
import { ClientSide } from './router-clients.js';
import { ExtensionSide } from './router-extension.js';
import type { ClientPort, RequestContextParts, RouterCore, RouterOptions } from './router-ports.js';
import { StagedImages } from './staged-images.js';

/**
 * The host's switchboard, free of I/O so it is unit-tested with fakes. Three sides, one file each:
 * - the extension (router-extension.ts): its hello, its answers to relayed requests, its own
 *   requests to host handlers, and its events;
 * - the bridge clients (router-clients.ts): their requests run a host handler or are relayed to
 *   the extension under a host-side id, and answered under the client's own id;
 * - the broadcast (router-broadcast.ts): the extension's events to every authenticated client.
 * This file wires them to what they share: the command table, the host handlers (which may ask the
 * extension, read and record events, and use staged images) and the requests waiting for the
 * extension.
 */

export const RELAY_TIMEOUT_MARGIN_MS = 1_000;

export class Router {
  /** Capture events, numbered, for `events_since`. */
  readonly events: EventBuffer;
  /** The extension's images staged for its saves (`stage_image`); they go with this host. */
  readonly images = new StagedImages();
  private readonly commands: Readonly<Record<string, CommandSpec>>;
  private readonly requests: ExtensionRequests;
  private readonly runner: HandlerRunner;
  private readonly extension: ExtensionSide;
  private readonly clients: ClientSide;
  private readonly broadcast: EventBroadcast;
  private stopped = false;

  constructor(private readonly options: RouterOptions) {
    this.commands = options.commands ?? COMMANDS;
    this.requests = new ExtensionRequests({
      extension: options.extension,
      logger: options.logger,
      relayMarginMs: options.relayMarginMs ?? RELAY_TIMEOUT_MARGIN_MS,
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    });
    this.runner = new HandlerRunner(options.handlers, options.logger);
    const core: RouterCore = {
      options,
      requests: this.requests,
      isStopped: () => this.stopped,
      spec: (command) => (Object.hasOwn(this.commands, command) ? this.commands[command] : undefined),
      unknownCommand: (request) => this.unknownCommand(request),
      runHandler: (request, parts, client) => this.runHandler(request, parts, client),
    };
    this.clients = new ClientSide(core, () => this.extension.connected);
    this.broadcast = new EventBroadcast(() => this.clients.ports(), options.logger, options.eventCapacity);
    this.events = this.broadcast.events;
    this.extension = new ExtensionSide(core, (event) => this.broadcast.publish(event, this.browserId()));
  }

  get extensionConnected(): boolean {
    return this.extension.connected;
  }

  get extensionInfo(): ExtensionInfo | null {
    return this.extension.info;
  }

  /** The extension's capture queue as it last said; null before it said anything. */
  get captureQueue(): QueueEntry[] | null {
    return this.extension.captureQueue;
  }

  get pendingCount(): number {
    return this.requests.size;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  handleExtensionEnvelope(envelope: Envelope, payloadBytes: number): void {
    this.extension.handleEnvelope(envelope, payloadBytes);
  }

  /** A frame from the extension that is JSON but not an envelope: answer it if it was a request. */
  handleExtensionInvalid(raw: unknown, error: string): void {
    this.extension.handleInvalid(raw, error);
  }

  /** The native link is gone (or the host is stopping): nothing can be relayed any more. */
  extensionGone(reason: string): void {
    this.extension.gone(reason);
  }

  addClient(client: ClientPort): void {
    this.clients.add(client);
  }

  /** A client went away: forget what it was waiting for (a late answer is dropped). */
  removeClient(client: ClientPort): void {
    this.clients.remove(client);
  }

  /** One decoded frame from an authenticated client. */
  handleClientValue(client: ClientPort, value: unknown, payloadBytes: number): void {
    this.clients.handleValue(client, value, payloadBytes);
  }

  /** The host's own request to the extension (host handlers use it through `ctx.extension`). */
  requestExtension(
    command: string,
    params: unknown,
    options: { timeoutMs: number; signal?: AbortSignal; onProgress?: (progress: Progress) => void },
  ): Promise<unknown> {
    return this.extension.request(command, params, options);
  }

  /** Resolves when every host handler running now has finished (shutdown lets saves complete). */
  settled(): Promise<void> {
    return this.runner.settled();
  }

  /** Stops routing: pending relays fail with EXTENSION_NOT_CONNECTED, handlers are aborted. */
  stop(reason: string): void {
    if (this.stopped) return;
    this.extension.gone(reason);
    this.stopped = true;
    this.clients.abortAll();
  }

  /** `client`: the bridge client that asked (none for the extension), told where a capture waits. */
  private runHandler(request: Request, parts: RequestContextParts, client?: ClientPort): Promise<Response> {
    return this.runner.run(request, () => ({
      ...this.options.context(parts),
      requester: client === undefined ? 'toolbar' : `${client.label} #${client.id}`,
      progress: (p) => {
        if (client === undefined) return;
        try {
          client.send({ type: 'progress', ...p, id: request.id });
        } catch {
          // the client's link is failing: its request ends with it
        }
      },
      extension: { request: (command, params, options) => this.extension.request(command, params, options) },
      events: {
        since: (afterSeq) => this.events.since(afterSeq),
        record: (name, data) =>
          this.broadcast.publish({ type: 'event', event: name, data }, this.browserId()),
      },
      images: this.images,
    }));
  }

  private browserId(): string | null {
    return this.extension.info?.browser.browser_id ?? null;
  }

  private unknownCommand(request: Request): Response {
    return failureOf(request.id, 'VALIDATION_ERROR', `Unknown command '${request.command}'`, {
      command: request.command,
      known: Object.keys(this.commands),
    });
  }
}
