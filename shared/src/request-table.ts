import type { ErrorPayload } from './errors.js';
import { toErrorPayload, XipeError } from './errors.js';

/**
 * Requests sent over a link and not yet answered, by id: each with its own timer, optionally an
 * abort signal, settled once by the answer, the timer, the signal or the link going away —
 * whichever comes first; later ones find nothing and are ignored. Every link end uses it (the
 * host's relays and own requests to the extension, the MCP server's connection to a host, the
 * extension's requests to its host), so a TIMEOUT reads the same wherever it comes from.
 * Browser-safe: no Node APIs.
 */

/** What a table knows of each request; the owner may carry more (and mutate it while pending). */
export interface PendingMeta {
  readonly command: string;
}

export type Outcome = { ok: true; result: unknown } | { ok: false; error: XipeError };

/** An answer as the wire carries it (a response envelope has this shape). */
export type Answer = { ok: true; result?: unknown } | { ok: false; error: ErrorPayload };

export interface WaitOptions {
  /** How long to wait for the answer: TIMEOUT after it. */
  waitMs: number;
  /** Aborting it settles the request with a cancelled TIMEOUT (the answer, if any, is dropped). */
  signal?: AbortSignal | undefined;
}

export interface RequestTableOptions<M> {
  /** Who is asked, for messages: "The extension", "Host pid 42". */
  peer: string;
  /** Extra details for this request's TIMEOUT (e.g. the host's pid). */
  details?: (meta: M) => Record<string, unknown>;
}

/** The one TIMEOUT for a request that got no answer in time. */
export function noAnswerError(
  peer: string,
  command: string,
  waitMs: number,
  details: Record<string, unknown> = {},
): XipeError {
  return new XipeError(
    'TIMEOUT',
    `${peer} did not answer '${command}' within ${waitMs} ms; the browser or page may be busy: ` +
      'retry, or pass a larger timeout_ms (bridge_status shows every link).',
    { command, timeout_ms: waitMs, ...details },
  );
}

/** The one TIMEOUT for a request its caller gave up on. */
export function cancelledError(peer: string, command: string): XipeError {
  return new XipeError('TIMEOUT', `'${command}' was cancelled before ${peer} answered.`, {
    command,
    cancelled: true,
  });
}

interface Entry<M> {
  readonly meta: M;
  readonly done: (outcome: Outcome) => void;
  timer: ReturnType<typeof setTimeout>;
  readonly waitMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
}

export class RequestTable<K, M extends PendingMeta> {
  private readonly entries = new Map<K, Entry<M>>();

  constructor(private readonly options: RequestTableOptions<M>) {}

  get size(): number {
    return this.entries.size;
  }

  /** The request's meta while it is pending. */
  get(key: K): M | undefined {
    return this.entries.get(key)?.meta;
  }

  /**
   * Registers a request under `key`; `done` is called exactly once with its outcome (synchronously
   * from `settle`/`fail`/`failAll`, so an answer is passed on in the order it arrived). Returns
   * false, having called `done` with the cancellation, when the signal is already aborted.
   */
  track(key: K, meta: M, wait: WaitOptions, done: (outcome: Outcome) => void): boolean {
    const { signal } = wait;
    if (signal?.aborted === true) {
      done({ ok: false, error: cancelledError(this.options.peer, meta.command) });
      return false;
    }
    const timer = this.arm(key, meta, wait.waitMs, wait.waitMs);
    const onAbort =
      signal !== undefined
        ? () => this.fail(key, cancelledError(this.options.peer, meta.command))
        : undefined;
    if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true });
    this.entries.set(key, { meta, done, timer, waitMs: wait.waitMs, signal, onAbort });
    return true;
  }

  private arm(key: K, meta: M, ms: number, reported: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      const details = this.options.details?.(meta);
      this.fail(key, noAnswerError(this.options.peer, meta.command, reported, details));
    }, ms);
    // A pending request alone never keeps a stopping Node process alive (no-op in a browser).
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  /**
   * The peer says the request waits its turn (`queued`) or now runs (`started`): its time limit
   * stops while it waits (bounded by `maxQueueMs` only), and counts again in full once it runs.
   * False when nothing is pending under `key`.
   */
  hold(key: K, state: 'queued' | 'started', maxQueueMs: number): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    clearTimeout(entry.timer);
    const ms = state === 'queued' ? maxQueueMs + entry.waitMs : entry.waitMs;
    entry.timer = this.arm(key, entry.meta, ms, ms);
    return true;
  }

  /**
   * `track` as a promise: registers the request, then calls `send`. If `send` throws, the request
   * is forgotten and the promise rejects with that error (a XipeError as it is, else as its payload).
   */
  request(key: K, meta: M, wait: WaitOptions, send: () => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const tracked = this.track(key, meta, wait, (outcome) => {
        if (outcome.ok) resolve(outcome.result);
        else reject(outcome.error);
      });
      if (!tracked) return;
      try {
        send();
      } catch (err) {
        this.fail(key, err instanceof XipeError ? err : XipeError.from(toErrorPayload(err)));
      }
    });
  }

  /** Settles the request with the peer's answer. False when nothing is pending under `key`. */
  settle(key: K, answer: Answer): boolean {
    const entry = this.take(key);
    if (entry === undefined) return false;
    entry.done(
      answer.ok ? { ok: true, result: answer.result } : { ok: false, error: XipeError.from(answer.error) },
    );
    return true;
  }

  fail(key: K, error: XipeError): boolean {
    const entry = this.take(key);
    if (entry === undefined) return false;
    entry.done({ ok: false, error });
    return true;
  }

  /** Forgets the request without settling it (its asker is gone); a late answer finds nothing. */
  drop(key: K): boolean {
    return this.take(key) !== undefined;
  }

  /** The keys of the pending requests whose meta matches. */
  keysWhere(matches: (meta: M) => boolean): K[] {
    return [...this.entries].flatMap(([key, entry]) => (matches(entry.meta) ? [key] : []));
  }

  /** Forgets every request whose meta matches; returns how many. */
  dropWhere(matches: (meta: M) => boolean): number {
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (matches(entry.meta) && this.take(key) !== undefined) dropped += 1;
    }
    return dropped;
  }

  /** The link is gone: every pending request fails, with one error or one per request. */
  failAll(error: XipeError | ((meta: M) => XipeError)): void {
    for (const [key, entry] of [...this.entries]) {
      if (this.take(key) === undefined) continue;
      entry.done({ ok: false, error: typeof error === 'function' ? error(entry.meta) : error });
    }
  }

  private take(key: K): Entry<M> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    clearTimeout(entry.timer);
    if (entry.onAbort !== undefined) entry.signal?.removeEventListener('abort', entry.onAbort);
    return entry;
  }
}
