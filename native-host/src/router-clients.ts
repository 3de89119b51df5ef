import { Envelope, type Request, type Response } from '#shared/envelopes.js';
import { validationError } from '#shared/errors.js';
import { ClientCalls } from './client-calls.js';
import { EXTENSION_NOT_CONNECTED_MESSAGE } from './extension-requests.js';
import { failure, failureOf, requestIdOf, sendToClient } from './responses.js';
import type { ClientPort, RouterCore } from './router-ports.js';

/**
 * The bridge side of the router: the authenticated clients (MCP servers, the CLI). A client's
 * request runs a host handler or is relayed to the extension under a host-side id, and its answer
 * goes back under the client's own id. Each client has an abort signal its host handlers see: it
 * fires when the client leaves, so a handler stops working for nobody.
 */
export class ClientSide {
  private readonly clients = new Map<ClientPort, AbortController>();
  /** Host handlers running for clients, each cancellable on its own. */
  private readonly calls = new ClientCalls();

  constructor(
    private readonly core: RouterCore,
    /** Whether the extension is attached now (relayed requests need it). */
    private readonly extensionConnected: () => boolean,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  ports(): Iterable<ClientPort> {
    return this.clients.keys();
  }

  add(client: ClientPort): void {
    this.clients.set(client, new AbortController());
  }

  /** A client went away: forget what it was waiting for (a late answer is dropped). */
  remove(client: ClientPort): void {
    const abort = this.clients.get(client);
    if (abort === undefined) return;
    this.clients.delete(client);
    abort.abort();
    const dropped = this.core.requests.forgetClient(client);
    if (dropped > 0)
      this.core.options.logger.info('dropped pending requests of a departed client', {
        client: client.id,
        dropped,
      });
  }

  /** The host is stopping: every client's host handlers are aborted. */
  abortAll(): void {
    for (const abort of this.clients.values()) abort.abort();
  }

  /** One decoded frame from an authenticated client. */
  handleValue(client: ClientPort, value: unknown, payloadBytes: number): void {
    if (this.core.isStopped() || !this.clients.has(client)) return;
    const parsed = Envelope.safeParse(value);
    if (!parsed.success) {
      const id = requestIdOf(value);
      this.core.options.logger.warn('ignored an invalid message from a bridge client', { client: client.id });
      if (id !== null)
        this.send(client, failure(id, validationError(parsed.error, 'request', value).toPayload()));
      return;
    }
    const envelope = parsed.data;
    if (envelope.type === 'request') {
      void this.onRequest(client, envelope, payloadBytes);
    } else if (envelope.type === 'cancel') {
      // A host handler stops (and cancels what it asked the extension), or a relayed request does.
      if (!this.calls.cancel(client, envelope.id)) this.core.requests.cancelRelayed(client, envelope.id);
    } else if (envelope.type !== 'ping') {
      this.core.options.logger.debug('ignored a non-request message from a bridge client', {
        client: client.id,
        type: envelope.type,
      });
    }
  }

  private async onRequest(client: ClientPort, request: Request, payloadBytes: number): Promise<void> {
    const spec = this.core.spec(request.command);
    if (spec === undefined) {
      this.send(client, this.core.unknownCommand(request));
      return;
    }
    if (spec.handledBy === 'host') {
      const abort = this.clients.get(client);
      if (abort === undefined) return;
      const signal = this.calls.start(client, request.id, abort.signal);
      const response = await this.core
        .runHandler(request, { source: 'bridge', workspace: client.workspace, payloadBytes, signal }, client)
        .finally(() => this.calls.end(client, request.id));
      if (this.clients.has(client)) this.send(client, response);
      return;
    }
    // Checked here so a bad request is refused before it reaches the browser.
    const params = spec.params.safeParse(request.params ?? {});
    if (!params.success) {
      const error = validationError(params.error, `${request.command} params`, request.params ?? {});
      this.send(client, failure(request.id, error.toPayload()));
      return;
    }
    if (!this.extensionConnected()) {
      this.send(
        client,
        failureOf(request.id, 'EXTENSION_NOT_CONNECTED', EXTENSION_NOT_CONNECTED_MESSAGE, {
          command: request.command,
        }),
      );
      return;
    }
    this.core.requests.relay(client, request, (response) => this.send(client, response));
  }

  private send(client: ClientPort, response: Response): void {
    sendToClient(client, response, this.core.options.logger);
  }
}
