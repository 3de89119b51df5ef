import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cropToImage, intersect, maskAround, rectFromPoints, resizeRect } from './crop-math.js';

describe('cropToImage', () => {
  const viewport = { width: 1280, height: 713 };
  it('is the identity at scale 1', () => {
    expect(cropToImage({ x: 10, y: 20, width: 100, height: 50 }, viewport, viewport)).toEqual({
      sx: 10,
      sy: 20,
      sw: 100,
      sh: 50,
    });
  });
  it('scales by the measured image/viewport ratio (dpr 2)', () => {
    const image = { width: 2560, height: 1426 };
    expect(cropToImage({ x: 10.5, y: 20, width: 100, height: 50.25 }, viewport, image)).toEqual({
      sx: 21,
      sy: 40,
      sw: 200,
      sh: 101,
    });
  });
  it('rounds outwards and clamps to the image', () => {
    expect(cropToImage({ x: -5.5, y: 700.2, width: 20, height: 40 }, viewport, viewport)).toEqual({
      sx: 0,
      sy: 700,
      sw: 15,
      sh: 13,
    });
  });
  it('returns null for rectangles outside the viewport or empty', () => {
    expect(cropToImage({ x: 2000, y: 0, width: 10, height: 10 }, viewport, viewport)).toBeNull();
    expect(cropToImage({ x: 0, y: 0, width: 0, height: 10 }, viewport, viewport)).toBeNull();
    expect(cropToImage({ x: 0, y: 0, width: 1, height: 1 }, { width: 0, height: 0 }, viewport)).toBeNull();
  });
  it('always stays inside the image (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -500, max: 2000, noNaN: true }),
        fc.double({ min: -500, max: 2000, noNaN: true }),
        fc.double({ min: 0, max: 2000, noNaN: true }),
        fc.double({ min: 0, max: 2000, noNaN: true }),
        fc.integer({ min: 1, max: 3 }),
        (x, y, width, height, dpr) => {
          const image = { width: viewport.width * dpr, height: viewport.height * dpr };
          const r = cropToImage({ x, y, width, height }, viewport, image);
          if (r === null) return;
          expect(r.sx).toBeGreaterThanOrEqual(0);
          expect(r.sy).toBeGreaterThanOrEqual(0);
          expect(r.sw).toBeGreaterThan(0);
          expect(r.sh).toBeGreaterThan(0);
          expect(r.sx + r.sw).toBeLessThanOrEqual(image.width);
          expect(r.sy + r.sh).toBeLessThanOrEqual(image.height);
          expect(Number.isInteger(r.sx + r.sy + r.sw + r.sh)).toBe(true);
        },
      ),
    );
  });
});

describe('rectangle editing', () => {
  it('normalises drags in any direction', () => {
    expect(rectFromPoints({ x: 50, y: 60 }, { x: 10, y: 20 })).toEqual({
      x: 10,
      y: 20,
      width: 40,
      height: 40,
    });
  });
  it('resizes from each handle and keeps a minimum size', () => {
    const r = { x: 10, y: 10, width: 100, height: 100 };
    expect(resizeRect(r, 'se', 10, 20)).toEqual({ x: 10, y: 10, width: 110, height: 120 });
    expect(resizeRect(r, 'nw', 10, -5)).toEqual({ x: 20, y: 5, width: 90, height: 105 });
    expect(resizeRect(r, 'e', -500, 0)).toEqual({ x: 10, y: 10, width: 4, height: 100 });
    expect(resizeRect(r, 'n', 0, 500)).toEqual({ x: 10, y: 106, width: 100, height: 4 });
  });
  it('intersects', () => {
    expect(intersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 5, y: 5, width: 10, height: 10 })).toEqual({
      x: 5,
      y: 5,
      width: 5,
      height: 5,
    });
    expect(intersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 5, height: 5 })).toBeNull();
  });
});

describe('maskAround', () => {
  const viewport = { width: 1280, height: 712 };
  it('leaves a hole of the crop plus two device pixels, covering the rest', () => {
    const boxes = maskAround({ x: 100.4, y: 50, width: 200, height: 100.5 }, viewport, 1);
    expect(boxes).toEqual([
      { x: 0, y: 0, width: 1280, height: 48 },
      { x: 0, y: 153, width: 1280, height: 559 },
      { x: 0, y: 48, width: 98, height: 105 },
      { x: 303, y: 48, width: 977, height: 105 },
    ]);
  });
  it('drops empty boxes at the viewport edges and covers nothing for an invisible rectangle', () => {
    expect(maskAround({ x: 0, y: 0, width: 1280, height: 712 }, viewport, 2)).toEqual([]);
    expect(maskAround({ x: 0, y: 0, width: 200, height: 712 }, viewport, 1)).toEqual([
      { x: 202, y: 0, width: 1078, height: 712 },
    ]);
    expect(maskAround({ x: 2000, y: 0, width: 10, height: 10 }, viewport, 1)).toEqual([]);
  });
  it('never covers a pixel of the crop and covers everything else but a thin ring (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -300, max: 1500, noNaN: true }),
        fc.double({ min: -300, max: 900, noNaN: true }),
        fc.double({ min: 0.5, max: 1500, noNaN: true }),
        fc.double({ min: 0.5, max: 900, noNaN: true }),
        fc.constantFrom(1, 1.25, 1.5, 2, 3),
        (x, y, width, height, scale) => {
          const rect = { x, y, width, height };
          const image = { width: viewport.width * scale, height: viewport.height * scale };
          const crop = cropToImage(rect, viewport, image);
          const boxes = maskAround(rect, viewport, scale);
          if (crop === null) return;
          let covered = 0;
          for (const b of boxes) {
            // The device pixels a box can touch (antialiased edges included).
            const bx0 = Math.floor(b.x * scale);
            const by0 = Math.floor(b.y * scale);
            const bx1 = Math.ceil((b.x + b.width) * scale);
            const by1 = Math.ceil((b.y + b.height) * scale);
            const apart =
              bx1 <= crop.sx || bx0 >= crop.sx + crop.sw || by1 <= crop.sy || by0 >= crop.sy + crop.sh;
            expect(apart).toBe(true);
            covered += b.width * b.height;
          }
          // Uncovered: the crop and a ring of at most ~2 device pixels (+ rounding) around it.
          const hole = viewport.width * viewport.height - covered;
          const ringCss = (2 + 1) / scale;
          const maxHole = (crop.sw / scale + 2 * ringCss) * (crop.sh / scale + 2 * ringCss);
          expect(hole).toBeLessThanOrEqual(maxHole + 1e-6);
          expect(hole).toBeGreaterThanOrEqual((crop.sw / scale) * (crop.sh / scale) - 1e-6);
        },
      ),
    );
  });
});
