import { describe, expect, it, vi } from 'vitest';
import type { CollectedElement } from '#shared/toolbar-messages.js';

// The messaging is exercised in app.test.ts and in Chromium; these are the pure parts.
vi.mock('./runtime.js', () => ({ send: vi.fn() }));
const { creep, deepStatus } = await import('./deep-capture.js');

describe('deep capture progress', () => {
  it('creeps towards the end at the typical pace and never claims to be done', () => {
    expect(creep(0)).toBe(0);
    expect(creep(1200)).toBeCloseTo(0.5);
    expect(creep(2400)).toBeCloseTo(0.75);
    expect(creep(60_000)).toBe(0.95);
  });

  it('reports the counts, and what could not be fetched', () => {
    const item = {
      selector: 'section.pricing',
      deep: { instruction: '', element_count: 143, resource_count: 1, skipped_count: 0, elapsed_ms: 1 },
    } as CollectedElement;
    expect(deepStatus(item, 950)).toBe(
      'Deep-captured section.pricing: 143 elements, 1 font and image in 950 ms.',
    );
    const skipped = {
      ...item,
      deep: { ...item.deep, resource_count: 5, skipped_count: 2 },
    } as CollectedElement;
    expect(deepStatus(skipped, 950)).toBe(
      'Deep-captured section.pricing: 143 elements, 5 fonts and images (2 could not be fetched) in 950 ms.',
    );
  });
});
