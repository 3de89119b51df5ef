import { describe, expect, it } from 'vitest';
import { barSpot, freeCorner, MARGIN, rectAt, spotOf } from './panel-place.js';

const viewport = { width: 1280, height: 713 };
const panel = { width: 320, height: 420 };

describe('panel placement', () => {
  it('opens top right when nothing is there', () => {
    expect(freeCorner(panel, viewport, [{ x: 100, y: 300, width: 200, height: 40 }])).toEqual({
      h: 'right',
      x: MARGIN,
      v: 'top',
      y: MARGIN,
    });
  });

  it('avoids a navbar menu in the top right corner', () => {
    const menu = [700, 820, 940, 1030, 1110].map((x) => ({ x, y: 30, width: 80, height: 24 }));
    expect(freeCorner(panel, viewport, menu)).toEqual({ h: 'right', x: MARGIN, v: 'bottom', y: MARGIN });
  });

  it('takes the corner that covers the least when none is free', () => {
    const everywhere = [
      { x: 900, y: 0, width: 380, height: 713 }, // both right corners
      { x: 0, y: 600, width: 400, height: 113 }, // bottom left, a little
      { x: 0, y: 0, width: 400, height: 400 }, // top left, a lot
    ];
    expect(freeCorner(panel, viewport, everywhere)).toMatchObject({ h: 'left', v: 'bottom' });
  });

  it('anchors a spot to the nearest sides and keeps the panel inside the viewport', () => {
    const spot = spotOf({ x: 700, y: 280, width: 320, height: 420 }, viewport);
    expect(spot).toEqual({ h: 'right', x: 260, v: 'bottom', y: 13 });
    expect(rectAt(spot, panel, viewport)).toEqual({ x: 700, y: 280, width: 320, height: 420 });
    // In a smaller window the same spot stays on screen, as far from those sides as it can.
    expect(rectAt(spot, panel, { width: 500, height: 400 })).toEqual({ x: 0, y: 0, width: 320, height: 400 });
  });
});

describe('area bar placement', () => {
  const bar = { width: 140, height: 26 };
  const nowhere = { x: -1000, y: -1000, width: 0, height: 0 };

  it('goes below the area, right-aligned, when there is room', () => {
    expect(barSpot({ x: 100, y: 100, width: 400, height: 200 }, bar, viewport, nowhere)).toEqual({
      x: 360,
      y: 306,
    });
  });

  it('goes above or inside an area that reaches the bottom edge', () => {
    expect(barSpot({ x: 100, y: 100, width: 400, height: 613 }, bar, viewport, nowhere)).toEqual({
      x: 360,
      y: 68,
    });
    const full = { x: 0, y: 0, width: 1280, height: 713 };
    const spot = barSpot(full, bar, viewport, nowhere);
    expect(spot.y + bar.height).toBeLessThanOrEqual(713);
    expect(spot.x + bar.width).toBeLessThanOrEqual(1280);
  });

  it('never sits under the panel', () => {
    const panelRect = { x: 944, y: 16, width: 320, height: 680 };
    const box = { x: 600, y: 100, width: 620, height: 300 };
    const spot = barSpot(box, bar, viewport, panelRect);
    const r = { ...spot, ...bar };
    expect(r.x + r.width <= panelRect.x || r.x >= panelRect.x + panelRect.width).toBe(true);
    expect(spot).toEqual({ x: 600, y: 406 });
  });
});
