import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTimeout } from './with-timeout.js';

describe('withTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('settles with the promise when it is first, and clears its timer', async () => {
    const onTimeout = vi.fn(() => 'late');
    await expect(withTimeout(Promise.resolve(1), 100, onTimeout)).resolves.toBe(1);
    await expect(withTimeout(Promise.reject(new Error('no')), 100, onTimeout)).rejects.toThrow('no');
    expect(vi.getTimerCount()).toBe(0);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it("settles with onTimeout's value or throw when the time is up first", async () => {
    const never = new Promise<number>(() => undefined);
    const value = withTimeout(never, 100, () => 'gave up');
    vi.advanceTimersByTime(100);
    await expect(value).resolves.toBe('gave up');
    const thrown = withTimeout(never, 50, () => {
      throw new Error('too slow');
    });
    vi.advanceTimersByTime(50);
    await expect(thrown).rejects.toThrow('too slow');
  });
});
