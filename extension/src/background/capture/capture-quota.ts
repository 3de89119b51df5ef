/**
 * Chrome allows at most MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND (2) captureVisibleTab calls in a
 * rolling second; the third fails at once. This gate spaces calls so they never hit the quota,
 * and `withQuotaRetry` still retries if another caller (an agent's capture_screenshot) spent it.
 */

export const CAPTURES_PER_WINDOW = 2;
/**
 * Chrome's window is one second from the first call in it, on the browser's clock; ours starts a
 * moment earlier (before the call crosses to the browser), so 20 ms of margin. A call that still
 * lands inside Chrome's window fails at once and is retried QUOTA_RETRY_MS later, not a window later.
 */
export const CAPTURE_WINDOW_MS = 1_020;
export const QUOTA_RETRY_MS = 40;

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class CaptureQuota {
  private readonly starts: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  /** Acquires not served yet. */
  private waiting = 0;

  constructor(
    private readonly clock: Clock = realClock,
    private readonly perWindow = CAPTURES_PER_WINDOW,
    private readonly windowMs = CAPTURE_WINDOW_MS,
  ) {}

  /** Resolves when a capture may start, with the start it recorded; callers are served in order. */
  acquire(): Promise<number> {
    this.waiting += 1;
    const turn = this.queue.then(async () => {
      for (;;) {
        const now = this.clock.now();
        while (this.starts.length > 0 && now - (this.starts[0] ?? 0) >= this.windowMs) this.starts.shift();
        if (this.starts.length < this.perWindow) {
          this.starts.push(now);
          return now;
        }
        await this.clock.sleep(this.windowMs - (now - (this.starts[0] ?? now)));
      }
    });
    const done = () => {
      this.waiting -= 1;
    };
    this.queue = turn.then(done, done);
    return turn;
  }

  /**
   * A capture that Chrome refused is tried again now: it keeps its slot, which moves to now (the
   * window of the captures after it counts from the call that succeeds). Returns the new start.
   */
  restamp(start: number): number {
    const now = this.clock.now();
    const i = this.starts.indexOf(start);
    if (i >= 0) this.starts.splice(i, 1);
    // Keep the list sorted: a later start may already be recorded.
    let at = this.starts.length;
    while (at > 0 && (this.starts[at - 1] ?? 0) > now) at -= 1;
    this.starts.splice(at, 0, now);
    return now;
  }

  /**
   * Takes a slot now only if that leaves `reserve` free in the window and nobody is waiting: for
   * captures that are worth making only when they delay no other (the rest-frame preview).
   */
  tryAcquire(reserve = 1): number | null {
    if (this.waiting > 0) return null;
    const now = this.clock.now();
    while (this.starts.length > 0 && now - (this.starts[0] ?? 0) >= this.windowMs) this.starts.shift();
    if (this.starts.length + 1 + reserve > this.perWindow) return null;
    this.starts.push(now);
    return now;
  }

  /** How long the next acquire would wait, in ms (for progress text). */
  waitEstimate(): number {
    const now = this.clock.now();
    const live = this.starts.filter((t) => now - t < this.windowMs);
    if (live.length < this.perWindow) return 0;
    return Math.max(0, this.windowMs - (now - (live[0] ?? now)));
  }
}

export function isQuotaError(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND|quota/i.test(message);
}

/**
 * Runs `capture` through the gate. A quota failure (Chrome's window and ours disagree by a few ms)
 * is retried every QUOTA_RETRY_MS in the same slot, for at most about a window and a half.
 */
export async function withQuotaRetry<T>(
  quota: CaptureQuota,
  capture: () => Promise<T>,
  clock: Clock = realClock,
  attempts = Math.ceil((1.5 * CAPTURE_WINDOW_MS) / QUOTA_RETRY_MS),
): Promise<T> {
  let slot = await quota.acquire();
  for (let i = 1; ; i++) {
    try {
      return await capture();
    } catch (err) {
      if (!isQuotaError(err) || i >= attempts) throw err;
      await clock.sleep(QUOTA_RETRY_MS);
      slot = quota.restamp(slot);
    }
  }
}
