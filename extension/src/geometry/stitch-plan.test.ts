import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignStep, FULL_PAGE_MAX_CSS_HEIGHT, planFullPage } from './stitch-plan.js';

const page = (scrollHeight: number, dpr = 1) => ({
  scrollHeight,
  viewportWidth: 1280,
  viewportHeight: 700,
  devicePixelRatio: dpr,
});

describe('planFullPage', () => {
  it('takes one capture for a page that fits', () => {
    const plan = planFullPage(page(500));
    expect(plan.steps).toEqual([{ scrollY: 0, srcY: 0, height: 700, destY: 0, markerY: null }]);
    expect(plan).toMatchObject({ width: 1280, height: 700, capped: false });
  });
  it('covers a five-viewport page with five bands and no overlap', () => {
    const plan = planFullPage(page(3500));
    expect(plan.steps.map((s) => s.scrollY)).toEqual([0, 700, 1400, 2100, 2800]);
    expect(plan.height).toBe(3500);
  });
  it('aligns the last band with the bottom when the page is not a multiple of the viewport', () => {
    const plan = planFullPage(page(1600));
    expect(plan.steps).toEqual([
      { scrollY: 0, srcY: 0, height: 700, destY: 0, markerY: null },
      { scrollY: 700, srcY: 0, height: 700, destY: 700, markerY: null },
      { scrollY: 900, srcY: 500, height: 200, destY: 1400, markerY: null },
    ]);
  });
  it('caps tall pages and says so', () => {
    const plan = planFullPage(page(100_000));
    expect(plan.height).toBe(FULL_PAGE_MAX_CSS_HEIGHT);
    expect(plan.capped).toBe(true);
    expect(plan.pageHeight).toBe(100_000);
  });
  it('keeps the canvas below the device-pixel limit at high DPR', () => {
    expect(planFullPage(page(100_000, 3)).height).toBe(10_666);
  });
  it('leaves a marker strip in every band: at the bottom, and at the top of the last one', () => {
    expect(planFullPage(page(1600), { markerHeight: 4 }).steps).toEqual([
      { scrollY: 0, srcY: 0, height: 696, destY: 0, markerY: 696 },
      { scrollY: 696, srcY: 0, height: 208, destY: 696, markerY: 696 },
      { scrollY: 900, srcY: 4, height: 696, destY: 904, markerY: 0 },
    ]);
    // A page that fits needs two captures: no single band can leave a strip free.
    expect(planFullPage(page(700), { markerHeight: 4 }).steps).toEqual([
      { scrollY: 0, srcY: 0, height: 4, destY: 0, markerY: 696 },
      { scrollY: 0, srcY: 4, height: 696, destY: 4, markerY: 0 },
    ]);
  });
  it('tiles the output exactly, every band inside the viewport and clear of its marker (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 100, max: 2000 }),
        fc.constantFrom(0, 4, 8),
        (h, vh, m) => {
          const plan = planFullPage(
            { scrollHeight: h, viewportWidth: 800, viewportHeight: vh, devicePixelRatio: 1 },
            { markerHeight: m },
          );
          let covered = 0;
          for (const s of plan.steps) {
            expect(s.destY).toBe(covered);
            expect(s.height).toBeGreaterThan(0);
            expect(s.srcY).toBeGreaterThanOrEqual(0);
            expect(s.srcY + s.height).toBeLessThanOrEqual(vh);
            expect(s.scrollY).toBeLessThanOrEqual(Math.max(h, vh) - vh);
            expect(s.scrollY + s.srcY).toBe(s.destY);
            if (m === 0) expect(s.markerY).toBeNull();
            else {
              const marker = s.markerY ?? -1;
              expect(marker).toBeGreaterThanOrEqual(0);
              expect(marker + m <= s.srcY || s.srcY + s.height <= marker).toBe(true);
            }
            covered += s.height;
          }
          expect(covered).toBe(plan.height);
        },
      ),
    );
  });
});

describe('planFullPage with a region (an element taller than the viewport)', () => {
  it('covers just the region, output row 0 at its top', () => {
    const plan = planFullPage(page(5000), { markerHeight: 4, region: { top: 1000, height: 1500 } });
    expect(plan.height).toBe(1500);
    expect(plan.steps[0]).toEqual({ scrollY: 1000, srcY: 0, height: 696, destY: 0, markerY: 696 });
    expect(plan.steps.at(-1)).toMatchObject({ destY: 1392, height: 108 });
  });
  it('tiles any region exactly, every band clear of its marker (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 30_000 }),
        fc.integer({ min: 100, max: 1500 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 1, max: 30_000 }),
        (h, vh, top, height) => {
          const plan = planFullPage(
            { scrollHeight: h, viewportWidth: 800, viewportHeight: vh, devicePixelRatio: 2 },
            { markerHeight: 4, region: { top, height } },
          );
          const start = Math.min(top, Math.max(h, vh) - 1);
          let covered = 0;
          for (const s of plan.steps) {
            expect(s.destY).toBe(covered);
            expect(s.height).toBeGreaterThan(0);
            expect(s.srcY).toBeGreaterThanOrEqual(0);
            expect(s.srcY + s.height).toBeLessThanOrEqual(vh);
            expect(s.scrollY).toBeLessThanOrEqual(Math.max(h, vh) - vh);
            expect(s.scrollY + s.srcY).toBe(start + s.destY);
            const marker = s.markerY ?? -1;
            expect(marker + 4 <= s.srcY || s.srcY + s.height <= marker).toBe(true);
            covered += s.height;
          }
          expect(covered).toBe(plan.height);
        },
      ),
    );
  });
});

describe('alignStep', () => {
  const step = { scrollY: 1400, srcY: 0, height: 700, destY: 1400, markerY: null };
  it('moves the source by the scroll difference', () => {
    expect(alignStep({ ...step, height: 600 }, 1350, 700)).toEqual({
      scrollY: 1350,
      srcY: 50,
      height: 600,
      destY: 1400,
      markerY: null,
    });
  });
  it('rejects a scroll that moves the band onto its marker strip', () => {
    const marked = { ...step, height: 696, markerY: 696 };
    expect(alignStep(marked, 1400, 700, 4)).toEqual(marked);
    expect(alignStep(marked, 1398, 700, 4)).toBeNull();
  });
  it('rejects a scroll that leaves the band outside the viewport', () => {
    expect(alignStep(step, 1300, 700)).toBeNull();
    expect(alignStep(step, 1500, 700)).toBeNull();
  });
});
