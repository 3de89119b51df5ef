import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeferredRemoval } from './deferred-removal.js';

describe('deferred removal', () => {
  const removed: string[] = [];
  let removal: DeferredRemoval;
  beforeEach(() => {
    vi.useFakeTimers();
    removed.length = 0;
    removal = new DeferredRemoval(async (key) => void removed.push(key), 6000);
  });
  afterEach(() => vi.useRealTimers());

  it('removes for good once the moment passes', async () => {
    await removal.defer('a');
    expect(removal.key).toBe('a');
    expect(removed).toEqual([]);
    await vi.advanceTimersByTimeAsync(6000);
    expect(removed).toEqual(['a']);
    expect(removal.key).toBeNull();
  });

  it('takes a removal back: nothing reaches the worker', async () => {
    await removal.defer('a');
    expect(removal.undo()).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(removed).toEqual([]);
    expect(removal.undo()).toBe(false);
  });

  it('removes the waiting item for good when the next one is removed, or on flush', async () => {
    await removal.defer('a');
    await removal.defer('b');
    expect(removed).toEqual(['a']);
    expect(removal.key).toBe('b');
    await removal.flush();
    expect(removed).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(removed).toEqual(['a', 'b']);
  });
});
