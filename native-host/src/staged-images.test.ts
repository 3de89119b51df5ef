import { describe, expect, it } from 'vitest';
import { StagedImages, TTL_MS } from './staged-images.js';

describe('StagedImages', () => {
  it('hands an image over once', () => {
    const images = new StagedImages();
    images.put('a', Buffer.from('png'));
    expect(images.heldBytes).toBe(3);
    expect(images.take('a')?.toString()).toBe('png');
    expect(images.take('a')).toBeNull();
    expect(images.heldBytes).toBe(0);
  });

  it('forgets images after the TTL, without a timer', () => {
    let now = 1_000;
    const images = new StagedImages(() => now);
    images.put('old', Buffer.alloc(10));
    now += TTL_MS + 1;
    images.put('new', Buffer.alloc(5));
    expect(images.heldBytes).toBe(5);
    expect(images.take('old')).toBeNull();
  });

  it('refuses an image over the total cap, and a restaged id replaces the old bytes', () => {
    const images = new StagedImages(Date.now, 100);
    images.put('a', Buffer.alloc(60));
    images.put('a', Buffer.alloc(70));
    expect(images.heldBytes).toBe(70);
    expect(() => images.put('b', Buffer.alloc(40))).toThrow(/PAYLOAD|limit/);
    expect(images.take('a')?.length).toBe(70);
  });
});
