/**
 * Chrome allows at most MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND (2) captureVisibleTab calls in a
 * rolling second; the third fails at once. This gate spaces calls so they never hit the quota,
 * and `withQuotaRetry` still retries if another caller (an agent's capture_screenshot) spent it.
 */

export const CAPTURES_PER_WINDOW = 2;
/** A little over a second: Chrome's window and ours are measured on different clocks. */
export const CAPTURE_WINDOW_MS = 1_050;

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

  constructor(
    private readonly clock: Clock = realClock,
    private readonly perWindow = CAPTURES_PER_WINDOW,
    private readonly windowMs = CAPTURE_WINDOW_MS,
  ) {}

  /** Resolves when a capture may start; callers are served in order. */
  acquire(): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        const now = this.clock.now();
        while (this.starts.length > 0 && now - (this.starts[0] ?? 0) >= this.windowMs) this.starts.shift();
        if (this.starts.length < this.perWindow) {
          this.starts.push(now);
          return;
        }
        await this.clock.sleep(this.windowMs - (now - (this.starts[0] ?? now)));
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
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

/** Runs `capture` through the gate, retrying quota failures (up to `attempts`) after a window. */
export async function withQuotaRetry<T>(
  quota: CaptureQuota,
  capture: () => Promise<T>,
  clock: Clock = realClock,
  attempts = 4,
): Promise<T> {
  for (let i = 1; ; i++) {
    await quota.acquire();
    try {
      return await capture();
    } catch (err) {
      if (!isQuotaError(err) || i >= attempts) throw err;
      await clock.sleep(CAPTURE_WINDOW_MS / CAPTURES_PER_WINDOW);
    }
  }
}
