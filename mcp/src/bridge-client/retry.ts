import { neverDelivered } from '../../../shared/src/node/bridge/host-connection.js';

/**
 * The one retry rule: a request that failed before it could reach any host (connect refused, the
 * socket already closed, no live host yet — a host may be restarting) is sent once more after a
 * short pause; anything a host may have received (an injection, a save) is never repeated.
 */

export const RETRY_DELAY_MS = 200;

export interface RetryOptions {
  delayMs: number;
  /** False once the client is closing: no second attempt then. */
  mayRetry: () => boolean;
  onRetry?: (err: unknown) => void;
}

/** Runs `attempt`, and once more when it failed with an error that `neverDelivered` says is safe. */
export async function retryOnce<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    if (!neverDelivered(err) || !options.mayRetry()) throw err;
    options.onRetry?.(err);
    await delay(options.delayMs);
    return attempt();
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
