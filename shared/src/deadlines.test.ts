import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines, withDeadline } from './deadlines.js';

describe('Deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const clock = () => new Deadlines(() => Date.now());

  it('expires a deadline that is not met, in order, each at its own time', () => {
    const deadlines = clock();
    const expired: string[] = [];
    deadlines.add(300, () => expired.push('late'));
    deadlines.add(100, () => expired.push('early'));
    deadlines.add(200, () => expired.push('middle'));
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['early']);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['early', 'middle']);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['early', 'middle', 'late']);
    expect(deadlines.size).toBe(0);
  });

  it('forgets a met deadline, and arms the timer once for later ones', () => {
    const deadlines = clock();
    const set = vi.spyOn(globalThis, 'setTimeout');
    const expired: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const met = deadlines.add(1_000 + i, () => expired.push(i));
      vi.advanceTimersByTime(1);
      if (i !== 3) met();
    }
    expect(set).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2_000);
    expect(expired).toEqual([3]);
    expect(deadlines.size).toBe(0);
    set.mockRestore();
  });

  it('withDeadline settles with the work, or with the expiry error', async () => {
    const deadlines = clock();
    await expect(withDeadline(deadlines, Promise.resolve(7), 50, () => new Error('late'))).resolves.toBe(7);
    await expect(
      withDeadline(deadlines, Promise.reject(new Error('boom')), 50, () => new Error('late')),
    ).rejects.toThrow('boom');
    const never = withDeadline(deadlines, new Promise<never>(() => {}), 50, () => new Error('late'));
    vi.advanceTimersByTime(50);
    await expect(never).rejects.toThrow('late');
    expect(deadlines.size).toBe(0);
  });
});
