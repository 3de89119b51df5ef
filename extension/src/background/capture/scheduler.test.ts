import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptureQuota, type Clock } from './capture-quota.js';
import { CaptureScheduler, type JobSpec, type QueueWait } from './scheduler.js';

const spec = (over: Partial<JobSpec> & { label: string }): JobSpec => ({
  windowId: 1,
  tabId: 10,
  client: 'a',
  ...over,
});

/** A job that records when it starts and ends when `finish` is called. */
function job(scheduler: CaptureScheduler, log: string[], s: JobSpec) {
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const done = scheduler.run(s, async (lease) => {
    log.push(`start ${s.label}`);
    await ended;
    log.push(`end ${s.label}`);
    return lease;
  });
  return { done, finish };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('CaptureScheduler', () => {
  it('runs one job per window at a time, first come first served, each holding it to its end', async () => {
    const s = new CaptureScheduler();
    const log: string[] = [];
    const a = job(s, log, spec({ label: 'A', client: 'x' }));
    const b = job(s, log, spec({ label: 'B', client: 'x' }));
    const c = job(s, log, spec({ label: 'C', client: 'x' }));
    await tick();
    expect(log).toEqual(['start A']);
    expect(s.list().map((j) => [j.label, j.state])).toEqual([
      ['A', 'running'],
      ['B', 'waiting'],
      ['C', 'waiting'],
    ]);
    a.finish();
    await tick();
    expect(log).toEqual(['start A', 'end A', 'start B']);
    b.finish();
    await tick();
    c.finish();
    await c.done;
    expect(log).toEqual(['start A', 'end A', 'start B', 'end B', 'start C', 'end C']);
    expect(s.list()).toEqual([]);
  });

  it('runs jobs of different windows at the same time', async () => {
    const s = new CaptureScheduler();
    const log: string[] = [];
    const a = job(s, log, spec({ label: 'A', windowId: 1 }));
    const b = job(s, log, spec({ label: 'B', windowId: 2 }));
    await tick();
    expect(log).toEqual(['start A', 'start B']);
    a.finish();
    b.finish();
    expect((await a.done).queuedMs).toBe(0);
    expect((await b.done).waitedFor).toEqual([]);
  });

  it('is fair between clients: a client with many jobs queued does not hold another client behind all of them', async () => {
    const s = new CaptureScheduler();
    const log: string[] = [];
    const pages = [1, 2, 3, 4].map((n) => job(s, log, spec({ label: `page${n}`, client: 'long' })));
    const crop = job(s, log, spec({ label: 'crop', client: 'short' }));
    await tick();
    expect(s.list().map((j) => j.label)).toEqual(['page1', 'crop', 'page2', 'page3', 'page4']);
    for (const p of pages) {
      p.finish();
      crop.finish();
      await tick();
    }
    await Promise.all([...pages.map((p) => p.done), crop.done]);
    expect(log.filter((l) => l.startsWith('start'))).toEqual([
      'start page1',
      'start crop',
      'start page2',
      'start page3',
      'start page4',
    ]);
  });

  it('alternates between two busy clients in their own order', async () => {
    const s = new CaptureScheduler();
    const log: string[] = [];
    const jobs = ['a1', 'a2', 'b1', 'b2', 'a3'].map((label) =>
      job(s, log, spec({ label, client: label[0] as string })),
    );
    await tick();
    for (const j of jobs) j.finish();
    await Promise.all(jobs.map((j) => j.done));
    expect(log.filter((l) => l.startsWith('start'))).toEqual([
      'start a1',
      'start b1',
      'start a2',
      'start b2',
      'start a3',
    ]);
  });

  it('tells a waiting job what is ahead, then that it started and how long it waited', async () => {
    let now = 0;
    const s = new CaptureScheduler({ now: () => now });
    const log: string[] = [];
    const waits: QueueWait[] = [];
    const a = job(s, log, spec({ label: 'capture_area', tabId: 5, client: 'agent-1' }));
    const b = job(s, log, spec({ label: 'full_page', tabId: 6, client: 'agent-2' }));
    const c = job(s, log, spec({ label: 'crop', client: 'toolbar', onWait: (w) => waits.push(w) }));
    await tick();
    expect(waits.map((w) => [w.state, w.ahead.map((j) => j.label)])).toEqual([
      ['waiting', ['capture_area', 'full_page']],
    ]);
    now = 400;
    a.finish();
    await tick();
    expect(waits.at(-1)).toMatchObject({ state: 'waiting', ahead: [{ label: 'full_page' }] });
    now = 900;
    b.finish();
    await tick();
    expect(waits.at(-1)).toEqual({ state: 'started', ahead: [], queued_ms: 900 });
    c.finish();
    const lease = await c.done;
    expect(lease.queuedMs).toBe(900);
    expect(lease.waitedFor).toEqual(['capture_area of tab 5 (agent-1)', 'full_page of tab 6 (agent-2)']);
  });

  it('takes a cancelled job out of the queue at once; the others keep their turn', async () => {
    const s = new CaptureScheduler();
    const log: string[] = [];
    const cancel = new AbortController();
    const a = job(s, log, spec({ label: 'A' }));
    const b = job(s, log, spec({ label: 'B', signal: cancel.signal }));
    const c = job(s, log, spec({ label: 'C' }));
    await tick();
    cancel.abort();
    await expect(b.done).rejects.toMatchObject({ code: 'TIMEOUT', details: { cancelled: true } });
    expect(s.list().map((j) => j.label)).toEqual(['A', 'C']);
    a.finish();
    c.finish();
    await c.done;
    expect(log).toEqual(['start A', 'end A', 'start C', 'end C']);
  });

  it('refuses a job whose caller already gave up', async () => {
    const s = new CaptureScheduler();
    await expect(s.acquire(spec({ label: 'A', signal: AbortSignal.abort() }))).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(s.list()).toEqual([]);
  });

  it('frees the window when a job fails', async () => {
    const s = new CaptureScheduler();
    const failed = s.run(spec({ label: 'A' }), async () => {
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    const lease = await s.acquire(spec({ label: 'B' }));
    expect(lease.queuedMs).toBe(0);
    lease.release();
    lease.release(); // a second release does nothing
    expect(s.list()).toEqual([]);
  });

  it('fails a job that waited too long with TIMEOUT naming the job that held the window', async () => {
    vi.useFakeTimers();
    const s = new CaptureScheduler();
    const held = await s.acquire(
      spec({ label: 'capture_screenshot full_page', tabId: 7, client: 'agent-1' }),
    );
    const waiting = s.acquire(spec({ label: 'crop', client: 'toolbar', maxWaitMs: 5_000 }));
    const caught = waiting.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    const err = (await caught) as { code: string; message: string; details: Record<string, unknown> };
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toContain('held all that time by capture_screenshot full_page of tab 7 (agent-1)');
    expect(err.details.waited_for).toEqual(['capture_screenshot full_page of tab 7 (agent-1)']);
    held.release();
    expect(s.list()).toEqual([]);
  });

  it('says whether a window is held', async () => {
    const s = new CaptureScheduler();
    const lease = await s.acquire(spec({ label: 'A', windowId: 4 }));
    expect([s.isBusy(4), s.isBusy(5)]).toEqual([true, false]);
    lease.release();
    expect(s.isBusy(4)).toBe(false);
  });

  it('says when a window has nothing left to run', async () => {
    const idle: number[] = [];
    const s = new CaptureScheduler({ onIdle: (w) => idle.push(w) });
    const a = await s.acquire(spec({ label: 'A', windowId: 3 }));
    const b = s.acquire(spec({ label: 'B', windowId: 3 }));
    a.release();
    expect(idle).toEqual([]);
    (await b).release();
    expect(idle).toEqual([3]);
  });

  it('shares the capture quota between windows: parallel jobs keep to two captures a second in all', async () => {
    let now = 0;
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    };
    const quota = new CaptureQuota(clock, 2, 1_000);
    const s = new CaptureScheduler({ now: () => now });
    const shots: Array<[string, number]> = [];
    const bands = (label: string, windowId: number, n: number) =>
      s.run(spec({ label, windowId, client: label }), async () => {
        for (let i = 0; i < n; i++) shots.push([label, await quota.acquire()]);
      });
    await Promise.all([bands('w1', 1, 3), bands('w2', 2, 3)]);
    const times = shots.map(([, t]) => t).sort((x, y) => x - y);
    for (let i = 2; i < times.length; i++)
      expect((times[i] as number) - (times[i - 2] as number)).toBeGreaterThanOrEqual(1_000);
    // Interleaved, not one window's bands after the other's.
    expect(shots.slice(0, 2).map(([l]) => l)).toEqual(['w1', 'w2']);
  });
});
