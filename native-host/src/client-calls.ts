import type { RequestId } from '#shared/envelopes.js';
import type { ClientPort } from './router-ports.js';

/**
 * The host handlers running for each bridge client, by the client's request id, each with its own
 * abort: a client's `cancel` for one stops that handler (and what it asked the extension, such as
 * a capture waiting in the queue); the client going away stops them all.
 */
export class ClientCalls {
  private readonly calls = new Map<ClientPort, Map<RequestId, AbortController>>();

  /** A signal for one call, aborted by its cancel or by `parent` (the client's own). */
  start(client: ClientPort, id: RequestId, parent: AbortSignal): AbortSignal {
    const abort = new AbortController();
    if (parent.aborted) abort.abort();
    else parent.addEventListener('abort', () => abort.abort(), { once: true, signal: abort.signal });
    const calls = this.calls.get(client) ?? new Map<RequestId, AbortController>();
    this.calls.set(client, calls);
    calls.set(id, abort);
    return abort.signal;
  }

  end(client: ClientPort, id: RequestId): void {
    const calls = this.calls.get(client);
    calls?.delete(id);
    if (calls?.size === 0) this.calls.delete(client);
  }

  /** Cancels the call; false when the client has none running under `id`. */
  cancel(client: ClientPort, id: RequestId): boolean {
    const abort = this.calls.get(client)?.get(id);
    if (abort === undefined) return false;
    abort.abort();
    return true;
  }
}
