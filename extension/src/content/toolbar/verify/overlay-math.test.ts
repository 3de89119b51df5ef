import { describe, expect, it } from 'vitest';
import { addOffset, nudgeFor, offsetText, opacityOf, overlayBox } from './overlay-math.js';

describe('overlay geometry', () => {
  it('arrow keys nudge by 1 CSS px, 10 with Shift; other keys do not', () => {
    expect(nudgeFor('ArrowRight', false)).toEqual({ dx: 1, dy: 0 });
    expect(nudgeFor('ArrowLeft', true)).toEqual({ dx: -10, dy: 0 });
    expect(nudgeFor('ArrowUp', false)).toEqual({ dx: 0, dy: -1 });
    expect(nudgeFor('ArrowDown', true)).toEqual({ dx: 0, dy: 10 });
    expect(nudgeFor('a', false)).toBeNull();
    expect(nudgeFor('Enter', true)).toBeNull();
  });

  it('unlocked, the image sits at the page top-left and scrolls with the page', () => {
    const size = { width: 400, height: 300 };
    expect(overlayBox(size, { dx: 0, dy: 0 }, null, { x: 0, y: 0 })).toEqual({ x: 0, y: 0, ...size });
    expect(overlayBox(size, { dx: 3, dy: -2 }, null, { x: 10, y: 250 })).toEqual({
      x: -7,
      y: -252,
      ...size,
    });
  });

  it('locked, it follows the element box wherever the viewport shows it, plus the nudge', () => {
    const box = overlayBox(
      { width: 50, height: 20 },
      { dx: 12, dy: 0 },
      { left: 100, top: 40 },
      { x: 0, y: 900 },
    );
    expect(box).toEqual({ x: 112, y: 40, width: 50, height: 20 });
  });

  it('nudges add up; the slider maps to an opacity within 0–1', () => {
    expect(addOffset({ dx: 1, dy: 2 }, { dx: -10, dy: 0 })).toEqual({ dx: -9, dy: 2 });
    expect(opacityOf(50)).toBe(0.5);
    expect(opacityOf(140)).toBe(1);
    expect(opacityOf(-3)).toBe(0);
    expect(opacityOf(Number.NaN)).toBe(0.5);
  });

  it('says the offset in words', () => {
    expect(offsetText({ dx: 0, dy: 0 })).toBe('no offset');
    expect(offsetText({ dx: 12, dy: -3 })).toBe('offset 12, −3 px');
  });
});
