import { describe, expect, it } from 'vitest';
import { CaptureQuota, type Clock, isQuotaError, withQuotaRetry } from './capture-quota.js';

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
  it('recognises the quota message', () => {
    expect(isQuotaError(new Error('exceeds the MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND quota'))).toBe(true);
    expect(isQuotaError('tab not found')).toBe(false);
  });
});
