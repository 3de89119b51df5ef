import { describe, expect, it } from 'vitest';
import {
  CAPTURE_WINDOW_MS,
  CaptureQuota,
  type Clock,
  isQuotaError,
  QUOTA_RETRY_MS,
  withQuotaRetry,
} from './capture-quota.js';

/** A virtual clock: sleep advances time instantly, so the tests are deterministic. */
function fakeClock(): Clock & { t: number } {
  const c = {
    t: 0,
    now: () => c.t,
    sleep: async (ms: number) => {
      c.t += ms;
    },
  };
  return c;
}

describe('CaptureQuota', () => {
  it('lets two captures start at once, then spaces the rest a window apart', async () => {
    const clock = fakeClock();
    const quota = new CaptureQuota(clock, 2, 1000);
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await quota.acquire();
      starts.push(clock.t);
    }
    expect(starts).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('never allows more than N starts in any window (concurrent callers)', async () => {
    const clock = fakeClock();
    const quota = new CaptureQuota(clock, 2, 1000);
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 7 }, () => quota.acquire().then(() => starts.push(clock.t))));
    for (const s of starts)
      expect(starts.filter((t) => t >= s && t < s + 1000).length).toBeLessThanOrEqual(2);
    expect(starts).toHaveLength(7);
  });

  it('estimates the wait', async () => {
    const clock = fakeClock();
    const quota = new CaptureQuota(clock, 2, 1000);
    expect(quota.waitEstimate()).toBe(0);
    await quota.acquire();
    await quota.acquire();
    clock.t = 300;
    expect(quota.waitEstimate()).toBe(700);
  });
});

describe('withQuotaRetry', () => {
  it('retries quota errors and gives other errors back at once', async () => {
    const clock = fakeClock();
    const quota = new CaptureQuota(clock, 2, 1000);
    let calls = 0;
    const value = await withQuotaRetry(
      quota,
      async () => {
        calls += 1;
        if (calls < 3)
          throw new Error('This request exceeds the MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND quota.');
        return 'png';
      },
      clock,
    );
    expect(value).toBe('png');
    expect(calls).toBe(3);
    await expect(
      withQuotaRetry(quota, async () => Promise.reject(new Error('Cannot access contents of url')), clock),
    ).rejects.toThrow('Cannot access');
  });
  it('retries in the same slot after a short pause, not after a window, and the next window counts from the retry', async () => {
    const clock = fakeClock();
    const quota = new CaptureQuota(clock);
    const calls: number[] = [];
    const refusals = [false, false, true, false];
    const capture = async () => {
      calls.push(clock.t);
      if (refusals[calls.length - 1])
        throw new Error('exceeds the MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND quota');
      return calls.length;
    };
    await withQuotaRetry(quota, capture, clock);
    await withQuotaRetry(quota, capture, clock);
    // The third waits for the window, is refused once (Chrome's clock is a little behind), retries.
    await withQuotaRetry(quota, capture, clock);
    expect(calls).toEqual([0, 0, CAPTURE_WINDOW_MS, CAPTURE_WINDOW_MS + QUOTA_RETRY_MS]);
    // The fourth shares the third's window, which starts at its successful retry.
    await withQuotaRetry(quota, capture, clock);
    expect(calls[4]).toBe(CAPTURE_WINDOW_MS + QUOTA_RETRY_MS);
    await withQuotaRetry(quota, async () => clock.t, clock);
    expect(clock.t).toBe(2 * CAPTURE_WINDOW_MS + QUOTA_RETRY_MS);
  });

  it('gives up on a quota that never frees', async () => {
    const clock = fakeClock();
    const quota = new CaptureQuota(clock);
    const refuse = async () => Promise.reject(new Error('MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND'));
    await expect(withQuotaRetry(quota, refuse, clock)).rejects.toThrow('MAX_CAPTURE');
    expect(clock.t).toBeLessThanOrEqual(2 * CAPTURE_WINDOW_MS);
  });

  it('recognises the quota message', () => {
    expect(isQuotaError(new Error('exceeds the MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND quota'))).toBe(true);
    expect(isQuotaError('tab not found')).toBe(false);
  });
});

describe('CaptureQuota.tryAcquire', () => {
  it('takes a slot only when one stays free for others and nobody waits', async () => {
    let now = 0;
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
    };
    const quota = new CaptureQuota(clock);
    expect(quota.tryAcquire()).toBe(0);
    // One slot left in this window: it is kept for a real capture.
    expect(quota.tryAcquire()).toBeNull();
    expect(await quota.acquire()).toBe(0);
    now = 1_100;
    expect(quota.tryAcquire()).toBe(1_100);
  });
});
