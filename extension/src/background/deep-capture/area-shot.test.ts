import { describe, expect, it, vi } from 'vitest';
import type { PageMetrics } from '../screenshot/page-functions.js';
import { wholeBand } from './area-shot.js';

vi.mock('../../platform/browser.js', () => ({ browser: {}, executeFunction: () => null }));

const at = (scrollY: number): PageMetrics =>
  ({
    scrollX: 0,
    scrollY,
    viewportWidth: 1280,
    viewportHeight: 800,
    dpr: 1,
    scrollHeight: 3000,
    clientHeight: 800,
  }) as PageMetrics;

describe('wholeBand: one unmasked capture covers the region', () => {
  it('gives the region in viewport coordinates when it is on screen and half the viewport or more', () => {
    expect(wholeBand({ x: 0, y: 0, width: 1280, height: 800 }, at(0))).toEqual({
      x: 0,
      y: 0,
      width: 1280,
      height: 800,
    });
    expect(wholeBand({ x: 0, y: 500, width: 1280, height: 600 }, at(400))).toEqual({
      x: 0,
      y: 100,
      width: 1280,
      height: 600,
    });
  });

  it('is null for a region taller than what shows, partly scrolled away, or small enough to mask', () => {
    expect(wholeBand({ x: 0, y: 0, width: 1280, height: 801 }, at(0))).toBeNull();
    expect(wholeBand({ x: 0, y: 100, width: 1280, height: 600 }, at(400))).toBeNull();
    expect(wholeBand({ x: 0, y: 0, width: 1300, height: 700 }, at(0))).toBeNull();
    expect(wholeBand({ x: 100, y: 100, width: 400, height: 300 }, at(0))).toBeNull();
  });
});
