import { LinkLost, neverDelivered } from '#shared/node/bridge/link-lost.js';

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

/**
 * Worth sending again: it never reached a host, and a host was there (a lost or refused link: it
 * may be restarting). With no host at all there is nothing to wait for.
 */
export function retryable(err: unknown): boolean {
  return err instanceof LinkLost && neverDelivered(err);
}

/** Runs `attempt`, and once more when it failed in a way `retryable` says is safe. */
export async function retryOnce<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    if (!retryable(err) || !options.mayRetry()) throw err;
    options.onRetry?.(err);
    await delay(options.delayMs);
    return attempt();
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
