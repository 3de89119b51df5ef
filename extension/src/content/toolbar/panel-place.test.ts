import { describe, expect, it } from 'vitest';
import { freeCorner, MARGIN, rectAt, spotOf } from './panel-place.js';

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
