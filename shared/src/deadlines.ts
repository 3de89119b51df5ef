/**
 * Deadlines on one timer. An agent injects again and again, each call with a deadline (30 s by
 * default) that it nearly always beats: a timer set and cleared per call cost the service worker
 * ~0.02 ms of a repeated call, and the MCP server a Node timer list armed and dropped per tool
 * call. Here a new deadline arms the timer only when it is the earliest; one that is met is just
 * forgotten, and the timer, when it fires, expires what is due and waits for the next one left.
 * The timer never keeps a stopping Node process alive. Browser-safe.
 */
export class Deadlines {
  private readonly waiting = new Map<number, { at: number; expire: () => void }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private lastId = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Calls `expire` after `ms` unless the returned function (the deadline was met) runs first. */
  add(ms: number, expire: () => void): () => void {
    const id = ++this.lastId;
    const at = this.now() + ms;
    this.waiting.set(id, { at, expire });
    if (at < this.timerAt) this.arm(at);
    return () => {
      this.waiting.delete(id);
    };
  }

  /** Deadlines not yet met nor expired. */
  get size(): number {
    return this.waiting.size;
  }

  private arm(at: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - this.now()));
    (this.timer as { unref?: () => void }).unref?.();
  }

  private fire(): void {
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [id, deadline] of this.waiting) {
      if (deadline.at <= now) {
        this.waiting.delete(id);
        deadline.expire();
      } else {
        next = Math.min(next, deadline.at);
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}

/** `work`, or `onExpired()`'s error if it has not settled after `ms`. */
export function withDeadline<T>(
  deadlines: Deadlines,
  work: Promise<T>,
  ms: number,
  onExpired: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const met = deadlines.add(ms, () => reject(onExpired()));
    work.then(
      (value) => {
        met();
        resolve(value);
      },
      (err: unknown) => {
        met();
        reject(err);
      },
    );
  });
}
