import type { Request, RequestId, Response } from '../../shared/src/envelopes.js';
import { toErrorPayload, XipeError } from '../../shared/src/errors.js';
import type { Logger } from '../../shared/src/node/logger.js';
import { RequestTable } from '../../shared/src/request-table.js';
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
}

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
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<unknown> {
    const relayId = this.nextId++;
    const waitMs = options.timeoutMs + this.options.relayMarginMs;
    return this.pending.request(relayId, { command, client: null }, { waitMs, signal: options.signal }, () =>
      this.options.extension.send({
        type: 'request',
        id: relayId,
        command,
        params,
        timeout_ms: options.timeoutMs,
      }),
    );
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
    return this.pending.dropWhere((entry) => entry.client === client);
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
