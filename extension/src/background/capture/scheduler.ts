import { XipeError } from '#shared/errors.js';

/**
 * One queue for every capture that needs a visible tab (docs/architecture.md, "Captures take
 * turns"). captureVisibleTab shows only the active tab of a window, so two jobs in one window
 * cannot both be on screen: a job holds its window from its first step (bringing its tab to the
 * front) until its last band is shot and the page put back. Jobs of other windows run at the same
 * time; Chrome's two captures a second are shared through the quota gate (capture-quota.ts),
 * which serves captures in the order they ask, so no window's captures wait on another's job.
 *
 * Within a window, the next job is the oldest of the client served least recently: first come
 * first served between clients, and one client's long run of captures does not hold another's
 * single crop behind all of them.
 */

/** A job waits at most this long for its window, then fails with TIMEOUT naming what held it. */
export const MAX_QUEUE_WAIT_MS = 300_000;

export interface JobSpec {
  windowId: number;
  tabId: number;
  /** What the job does, for listings and errors ("capture_screenshot full_page"). */
  label: string;
  /** Who asked ("toolbar", an MCP client): the unit of fairness. */
  client: string;
  /** Aborting it takes a waiting job out of the queue at once. */
  signal?: AbortSignal | undefined;
  /** Called when the job has to wait, with what is ahead of it; and again when it starts. */
  onWait?: ((wait: QueueWait) => void) | undefined;
  maxWaitMs?: number;
}

/** A job as listed (bridge_status, errors). */
export interface JobInfo {
  id: number;
  window_id: number;
  tab_id: number;
  label: string;
  client: string;
  state: 'running' | 'waiting';
  /** ms since it was queued (waiting) or started (running). */
  for_ms: number;
}

export interface QueueWait {
  state: 'waiting' | 'started';
  /** The jobs that go before it in its window (the running one first). */
  ahead: JobInfo[];
  queued_ms: number;
}

export interface Lease {
  /** How long the job waited for its window. */
  readonly queuedMs: number;
  /** The jobs it waited for, as "capture_area of tab 5" (empty when it did not wait). */
  readonly waitedFor: readonly string[];
  /** Frees the window for the next job; later calls do nothing. */
  release(): void;
}

interface Job {
  id: number;
  spec: JobSpec;
  queuedAt: number;
  startedAt: number | null;
  waitedFor: Set<string>;
  /** How many jobs were ahead when it was last told (told again only when that changes). */
  told: number;
  start: () => void;
}

export function describeJob(job: Pick<JobInfo, 'label' | 'tab_id' | 'client'>): string {
  return `${job.label} of tab ${job.tab_id} (${job.client})`;
}

export class CaptureScheduler {
  private nextId = 1;
  /** Waiting jobs, in arrival order. */
  private readonly waiting: Job[] = [];
  private readonly running = new Map<number, Job>();
  /** Per window: when each client last started a job there (a serial number). */
  private readonly served = new Map<number, Map<string, number>>();
  private serial = 0;

  private readonly now: () => number;
  private readonly onIdle: (windowId: number) => void;
  private readonly onChange: () => void;

  constructor(
    options: {
      now?: () => number;
      /** Called when a window has no job left (the capture side puts its active tab back). */
      onIdle?: (windowId: number) => void;
      /** Called whenever a job is queued, starts, ends or leaves (for the queue's listing). */
      onChange?: () => void;
    } = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.onIdle = options.onIdle ?? (() => undefined);
    this.onChange = options.onChange ?? (() => undefined);
  }

  /** Waits for the window; resolves with the lease once the job may start. */
  acquire(spec: JobSpec): Promise<Lease> {
    const signal = spec.signal;
    if (signal?.aborted) return Promise.reject(cancelled(spec));
    return new Promise<Lease>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        spec,
        queuedAt: this.now(),
        startedAt: null,
        waitedFor: new Set(),
        told: -1,
        start: () => undefined,
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = (error: XipeError) => {
        const at = this.waiting.indexOf(job);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        clearTimeout(timer);
        reject(error);
        this.notifyWaiting(spec.windowId);
      };
      const onAbort = () => leave(cancelled(spec));
      job.start = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(this.lease(job));
      };
      this.waiting.push(job);
      this.pump(spec.windowId);
      if (job.startedAt !== null) return;
      signal?.addEventListener('abort', onAbort, { once: true });
      const maxWait = spec.maxWaitMs ?? MAX_QUEUE_WAIT_MS;
      timer = setTimeout(() => leave(this.waitedTooLong(job, maxWait)), maxWait);
      this.notifyWaiting(spec.windowId);
    });
  }

  /** Runs `work` holding the window, and frees it however `work` ends. */
  async run<T>(spec: JobSpec, work: (lease: Lease) => Promise<T>): Promise<T> {
    const lease = await this.acquire(spec);
    try {
      return await work(lease);
    } finally {
      lease.release();
    }
  }

  /** Running jobs first, then waiting ones in the order they would start. */
  list(): JobInfo[] {
    const now = this.now();
    const out: JobInfo[] = [...this.running.values()].map((j) => this.info(j, now));
    const windows = new Set(this.waiting.map((j) => j.spec.windowId));
    for (const w of windows) out.push(...this.order(w).map((j) => this.info(j, now)));
    return out;
  }

  private info(job: Job, now: number): JobInfo {
    const { windowId, tabId, label, client } = job.spec;
    const state = job.startedAt === null ? 'waiting' : 'running';
    return {
      id: job.id,
      window_id: windowId,
      tab_id: tabId,
      label,
      client,
      state,
      for_ms: Math.round(now - (job.startedAt ?? job.queuedAt)),
    };
  }

  /** The waiting jobs of a window, in the order they would start (see the class comment). */
  private order(windowId: number): Job[] {
    const served = this.served.get(windowId);
    const rank = (j: Job) => served?.get(j.spec.client) ?? -1;
    const jobs = this.waiting.filter((j) => j.spec.windowId === windowId);
    // Each client's jobs in arrival order; clients by when they were last served.
    const out: Job[] = [];
    const simulated = new Map<string, number>();
    let tick = this.serial;
    while (jobs.length > 0) {
      let best = 0;
      for (let i = 1; i < jobs.length; i++) {
        const a = jobs[i] as Job;
        const b = jobs[best] as Job;
        const ra = simulated.get(a.spec.client) ?? rank(a);
        const rb = simulated.get(b.spec.client) ?? rank(b);
        if (ra < rb || (ra === rb && a.id < b.id)) best = i;
      }
      const [next] = jobs.splice(best, 1) as [Job];
      simulated.set(next.spec.client, ++tick);
      out.push(next);
    }
    return out;
  }

  /** Whether a job holds the window now. */
  isBusy(windowId: number): boolean {
    return this.busy(windowId) !== undefined;
  }

  private busy(windowId: number): Job | undefined {
    for (const job of this.running.values()) if (job.spec.windowId === windowId) return job;
    return undefined;
  }

  /** Starts the window's next job if the window is free. */
  private pump(windowId: number): void {
    if (this.busy(windowId) !== undefined) return;
    const next = this.order(windowId)[0];
    if (next === undefined) {
      this.onIdle(windowId);
      return;
    }
    this.waiting.splice(this.waiting.indexOf(next), 1);
    next.startedAt = this.now();
    this.running.set(next.id, next);
    const clients = this.served.get(windowId) ?? new Map<string, number>();
    this.served.set(windowId, clients);
    this.serial += 1;
    clients.set(next.spec.client, this.serial);
    const waited = next.startedAt - next.queuedAt;
    if (next.waitedFor.size > 0)
      next.spec.onWait?.({ state: 'started', ahead: [], queued_ms: Math.round(waited) });
    next.start();
    this.notifyWaiting(windowId);
  }

  private lease(job: Job): Lease {
    let released = false;
    return {
      queuedMs: Math.round((job.startedAt ?? job.queuedAt) - job.queuedAt),
      waitedFor: [...job.waitedFor],
      release: () => {
        if (released) return;
        released = true;
        this.running.delete(job.id);
        this.pump(job.spec.windowId);
        this.onChange();
      },
    };
  }

  /** Tells each waiting job of the window what is ahead of it now. */
  private notifyWaiting(windowId: number): void {
    this.onChange();
    const now = this.now();
    const running = this.busy(windowId);
    const ahead: JobInfo[] = running ? [this.info(running, now)] : [];
    for (const job of this.order(windowId)) {
      for (const a of ahead) job.waitedFor.add(describeJob(a));
      if (job.told !== ahead.length) {
        job.told = ahead.length;
        job.spec.onWait?.({ state: 'waiting', ahead: [...ahead], queued_ms: Math.round(now - job.queuedAt) });
      }
      ahead.push(this.info(job, now));
    }
  }

  private waitedTooLong(job: Job, maxWait: number): XipeError {
    const holder = this.busy(job.spec.windowId);
    const held = holder ? describeJob(this.info(holder, this.now())) : 'another capture';
    return new XipeError(
      'TIMEOUT',
      `${describeJob(this.info(job, this.now()))} waited ${maxWait} ms for window ${job.spec.windowId}, ` +
        `held all that time by ${held} and the captures before it. Retry when it is done ` +
        '(bridge_status lists the capture queue).',
      { waited_ms: maxWait, waited_for: [...job.waitedFor], window_id: job.spec.windowId },
    );
  }
}

function cancelled(spec: JobSpec): XipeError {
  return new XipeError(
    'TIMEOUT',
    `${describeJob({ ...spec, tab_id: spec.tabId })} was cancelled while queued.`,
    {
      cancelled: true,
    },
  );
}
