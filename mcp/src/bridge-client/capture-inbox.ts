import { CAPTURE_EVENT_BUFFER, type CaptureEvent } from '#shared/capture-events.js';
import type { EventsSinceResult } from '#shared/commands/events-since.js';
import type { Logger } from '#shared/node/logger.js';

/**
 * This MCP server's (this agent's) queue of capture events. Every host numbers its events and
 * keeps the latest ones; the inbox keeps one cursor per host and pulls what is new with
 * `events_since` — when a wait starts, when a host pushes an event, and every `rescanMs` while
 * waiting (a browser started meanwhile is found). Pulls from one host never overlap, and only
 * events after the cursor are taken, so nothing is delivered twice; `take` hands over the whole
 * queue in one step, so nothing is lost between two waits. Bounded: the oldest events fall out
 * and are counted in `dropped`.
 */

export interface InboxHost {
  /** Identity of one host process for its lifetime (pid and start time). */
  readonly key: string;
  fetch(afterSeq: number, signal?: AbortSignal): Promise<EventsSinceResult>;
}

export interface InboxSource {
  /** Every reachable host; throws (BACKEND_UNREACHABLE…) when there is none. */
  hosts(signal?: AbortSignal): Promise<InboxHost[]>;
}

export interface CaptureBatch {
  events: CaptureEvent[];
  /** Events this agent will never see: fell out of a host's ring or of this queue. */
  dropped: number;
}

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export class CaptureInbox {
  private readonly cursors = new Map<string, number>();
  private readonly pulling = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly wakers = new Set<() => void>();
  private queue: CaptureEvent[] = [];
  private droppedCount = 0;

  constructor(
    private readonly source: InboxSource,
    private readonly options: { logger: Logger; capacity?: number; rescanMs?: number },
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  /** A host pushed an event: pull what is new from it (in the background). */
  notify(host: InboxHost): void {
    void this.pull(host);
  }

  /** Pulls from every reachable host. Throws when no host is reachable. */
  async sync(signal?: AbortSignal): Promise<void> {
    const hosts = await this.source.hosts(signal);
    await Promise.all(hosts.map((host) => this.pull(host, signal)));
  }

  /**
   * Returns at once with everything queued, else waits for the first event(s) until the timeout
   * (then with an empty list). The first sync's failure (no host at all) is thrown; later rescans
   * failing (a browser closed meanwhile) just keep waiting.
   */
  async wait(options: WaitOptions): Promise<CaptureBatch> {
    const deadline = Date.now() + options.timeoutMs;
    await this.sync(options.signal);
    const rescanMs = this.options.rescanMs ?? 1_000;
    for (;;) {
      if (this.queue.length > 0 || options.signal?.aborted === true) return this.take();
      const remaining = deadline - Date.now();
      if (remaining <= 0) return this.take();
      const woke = await this.sleep(Math.min(rescanMs, remaining), options.signal);
      if (!woke && Date.now() < deadline) {
        await this.sync(options.signal).catch((err: unknown) =>
          this.options.logger.debug('capture rescan failed', { error: (err as Error).message }),
        );
      }
    }
  }

  /** Hands over the whole queue and the dropped count, atomically. */
  take(): CaptureBatch {
    const batch = { events: this.queue, dropped: this.droppedCount };
    this.queue = [];
    this.droppedCount = 0;
    return batch;
  }

  private pull(host: InboxHost, signal?: AbortSignal): Promise<void> {
    const running = this.pulling.get(host.key);
    if (running !== undefined) {
      this.again.add(host.key);
      return running;
    }
    const run = (async () => {
      do {
        this.again.delete(host.key);
        const result = await host.fetch(this.cursors.get(host.key) ?? 0, signal);
        this.accept(host.key, result);
      } while (this.again.has(host.key));
    })()
      .catch((err: unknown) =>
        this.options.logger.debug('events_since failed', { host: host.key, error: (err as Error).message }),
      )
      .finally(() => this.pulling.delete(host.key));
    this.pulling.set(host.key, run);
    return run;
  }

  private accept(key: string, result: EventsSinceResult): void {
    let cursor = this.cursors.get(key) ?? 0;
    if (result.last_seq < cursor) cursor = 0; // not the host we knew under this key: start over
    this.droppedCount += result.dropped;
    let added = 0;
    for (const event of result.events) {
      if (event.seq <= cursor) continue;
      this.queue.push(event);
      cursor = event.seq;
      added += 1;
    }
    this.cursors.set(key, cursor);
    const capacity = this.options.capacity ?? CAPTURE_EVENT_BUFFER;
    if (this.queue.length > capacity) {
      this.droppedCount += this.queue.length - capacity;
      this.queue.splice(0, this.queue.length - capacity);
    }
    if (added > 0) for (const wake of [...this.wakers]) wake();
  }

  /** Resolves true when events arrived, false when `ms` passed (or the signal aborted). */
  private sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (woke: boolean): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        signal?.removeEventListener('abort', onAbort);
        resolve(woke);
      };
      const wake = (): void => done(true);
      const onAbort = (): void => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.wakers.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
