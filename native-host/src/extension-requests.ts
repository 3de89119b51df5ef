import { QUEUE_WAIT_LIMIT_MS, QUEUE_WAIT_MARGIN_MS } from '#shared/commands/capture-queue.js';
import type { Progress, Request, RequestId, Response } from '#shared/envelopes.js';
import { toErrorPayload, XipeError } from '#shared/errors.js';
import type { Logger } from '#shared/node/logger.js';
import { cancelledError, RequestTable } from '#shared/request-table.js';
import { failure } from './responses.js';
import type { ClientPort, ExtensionPort } from './router-ports.js';

export const EXTENSION_NOT_CONNECTED_MESSAGE =
  'No browser extension is connected to this host. Open Chrome (or `x-ipe-uiux start`) with the ' +
  'X-IPE UI/UX Reference extension enabled, then retry; `x-ipe-uiux doctor` shows which link is broken.';

/** A request waiting for the extension: relayed for a client, or the host's own (client null). */
interface Pending {
  readonly command: string;
  readonly client: ClientPort | null;
  /** The id the client gave the request (relayed ones). */
  readonly clientId?: RequestId;
  /** The host's own request: told when the extension says it waits its turn, or starts. */
  readonly onProgress?: ((progress: Progress) => void) | undefined;
}

/** How long a request the extension says is queued may wait (the extension's own limit first). */
const QUEUED_MAX_MS = QUEUE_WAIT_LIMIT_MS + QUEUE_WAIT_MARGIN_MS;

export interface ExtensionRequestsOptions {
  extension: ExtensionPort;
  logger: Logger;
  /** Added to a request's timeout_ms so the extension's own, more precise TIMEOUT wins the race. */
  relayMarginMs: number;
  /** Used when a relayed request carries no timeout_ms. */
  defaultTimeoutMs: number;
}

/**
 * Requests sent to the extension, relayed for bridge clients or the host's own, all under host-side
 * relay ids from one counter (so they never clash, whatever ids the clients chose), and their
 * answers mapped back.
 */
export class ExtensionRequests {
  private readonly pending = new RequestTable<number, Pending>({ peer: 'The extension' });
  private nextId = 1;

  constructor(private readonly options: ExtensionRequestsOptions) {}

  get size(): number {
    return this.pending.size;
  }

  /** Relays a client's request; its answer (or TIMEOUT, or the link's loss) goes to `answer`. */
  relay(client: ClientPort, request: Request, answer: (response: Response) => void): void {
    const { logger } = this.options;
    const relayId = this.nextId++;
    const waitMs =
      request.timeout_ms !== undefined
        ? request.timeout_ms + this.options.relayMarginMs
        : this.options.defaultTimeoutMs;
    const meta: Pending = { command: request.command, client, clientId: request.id };
    this.pending.track(relayId, meta, { waitMs }, (outcome) => {
      if (outcome.ok) {
        answer({ type: 'response', id: request.id, ok: true, result: outcome.result });
        return;
      }
      if (outcome.error.code === 'TIMEOUT') {
        logger.warn('relayed request timed out', {
          client: client.id,
          command: request.command,
          wait_ms: waitMs,
        });
      }
      answer(failure(request.id, outcome.error.toPayload()));
    });
    try {
      const forwarded: Request = {
        type: 'request',
        id: relayId,
        command: request.command,
        params: request.params ?? {},
      };
      if (request.timeout_ms !== undefined) forwarded.timeout_ms = request.timeout_ms;
      this.options.extension.send(forwarded);
    } catch (err) {
      this.pending.drop(relayId);
      logger.warn('could not relay a request to the extension', {
        command: request.command,
        error: (err as Error).message,
      });
      answer(failure(request.id, toErrorPayload(err)));
    }
  }

  /** The host's own request (host handlers use it through `ctx.extension`). */
  request(
    command: string,
    params: unknown,
    options: { timeoutMs: number; signal?: AbortSignal; onProgress?: (progress: Progress) => void },
  ): Promise<unknown> {
    const relayId = this.nextId++;
    const waitMs = options.timeoutMs + this.options.relayMarginMs;
    const { signal } = options;
    // The asker gave up: the extension stops the request too (a queued capture leaves the queue).
    const onAbort = () => this.cancelInExtension(relayId);
    signal?.addEventListener('abort', onAbort, { once: true });
    const meta: Pending = { command, client: null, onProgress: options.onProgress };
    return this.pending
      .request(relayId, meta, { waitMs, signal }, () =>
        this.options.extension.send({
          type: 'request',
          id: relayId,
          command,
          params,
          timeout_ms: options.timeoutMs,
        }),
      )
      .finally(() => signal?.removeEventListener('abort', onAbort));
  }

  /**
   * The extension says a request waits its turn or starts: its time limit pauses or counts again
   * from now, and whoever asked is told (a client under its own id). False when nothing waits.
   */
  progress(progress: Progress): boolean {
    if (typeof progress.id !== 'number') return false;
    const meta = this.pending.get(progress.id);
    if (meta === undefined) return false;
    this.pending.hold(progress.id, progress.state, QUEUED_MAX_MS);
    if (meta.client !== null && meta.clientId !== undefined) {
      try {
        meta.client.send({ ...progress, id: meta.clientId });
      } catch {
        // the client's link is failing: its request ends with it
      }
    }
    meta.onProgress?.(progress);
    return true;
  }

  /** A client gave up on a relayed request: it fails as cancelled, and the extension drops it. */
  cancelRelayed(client: ClientPort, clientId: RequestId): boolean {
    const [relayId] = this.pending.keysWhere((m) => m.client === client && m.clientId === clientId);
    const command = relayId === undefined ? undefined : this.pending.get(relayId)?.command;
    if (relayId === undefined || command === undefined) return false;
    this.pending.fail(relayId, cancelledError('The extension', command));
    this.cancelInExtension(relayId);
    return true;
  }

  private cancelInExtension(relayId: number): void {
    try {
      this.options.extension.send({ type: 'cancel', id: relayId });
    } catch {
      // the link is gone: the extension's requests went with it
    }
  }

  /**
   * The extension's answer; false when nothing waits for it (late, or unknown). The result inside
   * is the client's to parse.
   */
  settle(response: Response): boolean {
    if (typeof response.id !== 'number') return false;
    return this.pending.settle(response.id, response);
  }

  /** A client left: its requests are forgotten (a late answer is dropped). Returns how many. */
  forgetClient(client: ClientPort): number {
    const relayIds = this.pending.keysWhere((entry) => entry.client === client);
    for (const relayId of relayIds) {
      this.pending.drop(relayId);
      this.cancelInExtension(relayId);
    }
    return relayIds.length;
  }

  /** The extension went away: everything pending fails with EXTENSION_NOT_CONNECTED. */
  failAll(reason: string): void {
    this.pending.failAll(
      (entry) =>
        new XipeError(
          'EXTENSION_NOT_CONNECTED',
          `The extension went away (${reason}). ${EXTENSION_NOT_CONNECTED_MESSAGE}`,
          { command: entry.command },
        ),
    );
  }
}
