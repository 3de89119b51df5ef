import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('evicts the least recently used entry beyond the entry limit', () => {
    const cache = new LruCache<string, number>(2, 100);
    cache.set('a', 1, 1);
    cache.set('b', 2, 1);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3, 1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('keeps the total weight within budget and skips values heavier than the budget', () => {
    const cache = new LruCache<string, string>(10, 10);
    cache.set('a', 'x', 4);
    cache.set('b', 'y', 4);
    cache.set('c', 'z', 4);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.totalWeight).toBe(8);
    cache.set('huge', 'w', 11);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.totalWeight).toBe(8);
  });

  it('replaces an entry under the same key without counting it twice', () => {
    const cache = new LruCache<string, number>(3, 10);
    cache.set('a', 1, 5);
    cache.set('a', 2, 3);
    expect(cache.get('a')).toBe(2);
    expect(cache.totalWeight).toBe(3);
    expect(cache.size).toBe(1);
  });
});
