// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resultNodes } from '../views/verify-view.js';
import { OVERLAY_TAG, ReferenceOverlay } from './reference-overlay.js';

// The panel's view talks to the worker; these tests use only its pure rendering.
vi.mock('../runtime.js', () => ({ send: vi.fn() }));

const IMAGE = {
  data_url: 'data:image/png;base64,iVBORw0KGgo=',
  width: 800,
  height: 400,
  css_width: 400,
  css_height: 200,
};

const hostStyle = () => document.querySelector<HTMLElement>(OVERLAY_TAG)?.style ?? null;

afterEach(() => {
  for (const el of Array.from(document.querySelectorAll(OVERLAY_TAG))) el.remove();
});

describe('ReferenceOverlay', () => {
  it('exists only while shown: no element before show or after hide', () => {
    const overlay = new ReferenceOverlay();
    expect(document.querySelector(OVERLAY_TAG)).toBeNull();
    overlay.show(IMAGE);
    expect(document.querySelectorAll(OVERLAY_TAG)).toHaveLength(1);
    overlay.hide();
    expect(document.querySelector(OVERLAY_TAG)).toBeNull();
    expect(overlay.shown).toBe(false);
  });

  it('is the area at its CSS size, at the page top-left, nudged in CSS px, never taking the pointer', () => {
    const overlay = new ReferenceOverlay();
    overlay.show(IMAGE);
    expect(hostStyle()?.getPropertyValue('width')).toBe('400px');
    expect(hostStyle()?.getPropertyValue('height')).toBe('200px');
    expect(hostStyle()?.getPropertyValue('pointer-events')).toBe('none');
    overlay.nudgeBy({ dx: 10, dy: 0 });
    overlay.nudgeBy({ dx: 0, dy: -1 });
    expect(hostStyle()?.getPropertyValue('left')).toBe('10px');
    expect(hostStyle()?.getPropertyValue('top')).toBe('-1px');
    overlay.hide();
  });

  it('blends by difference, takes the slider as opacity, and hides for a capture without moving', () => {
    const overlay = new ReferenceOverlay();
    overlay.show(IMAGE);
    overlay.setDifference(true);
    overlay.setOpacity(100);
    expect(hostStyle()?.getPropertyValue('mix-blend-mode')).toBe('difference');
    expect(hostStyle()?.getPropertyValue('opacity')).toBe('1');
    overlay.setCaptureHidden(true);
    expect(hostStyle()?.getPropertyValue('visibility')).toBe('hidden');
    // A capture's own hiding (the worker's preparePage) survives a re-placement on scroll.
    overlay.setCaptureHidden(false);
    hostStyle()?.setProperty('visibility', 'hidden', 'important');
    overlay.nudgeBy({ dx: 1, dy: 0 });
    expect(hostStyle()?.getPropertyValue('visibility')).toBe('hidden');
    overlay.hide();
  });

  it('locked, starts at the element box and the offset starts over', () => {
    const overlay = new ReferenceOverlay();
    const el = document.createElement('div');
    document.body.append(el);
    el.getBoundingClientRect = () => ({
      left: 30,
      top: 70,
      x: 30,
      y: 70,
      width: 5,
      height: 5,
      right: 35,
      bottom: 75,
      toJSON: () => ({}),
    });
    overlay.show(IMAGE);
    overlay.nudgeBy({ dx: 4, dy: 4 });
    overlay.lock(el);
    expect(overlay.offset).toEqual({ dx: 0, dy: 0 });
    expect(hostStyle()?.getPropertyValue('left')).toBe('30px');
    expect(hostStyle()?.getPropertyValue('top')).toBe('70px');
    overlay.hide();
    el.remove();
  });
});

describe('the Compare result in the panel', () => {
  it('lists the scores there are, the differences as text, and the report path', () => {
    const nodes = resultNodes({
      scores: { pixel: 0.91234, ssim: 0.8, block_match: null },
      differences: ['`.hero h1`: font-size 40px, reference 46px', '<img src=x onerror=alert(1)>'],
      difference_count: 7,
      notes: [],
      report: '/ws/x/report.md',
    });
    const html = nodes.map((n) => n.outerHTML).join('');
    expect(nodes[0]?.textContent).toBe('pixel 0.912ssim 0.800');
    expect(nodes[1]?.querySelectorAll('li')).toHaveLength(2);
    // Page-derived text stays text.
    expect(html).not.toContain('<img');
    expect(nodes.at(-1)?.textContent).toBe('Report: /ws/x/report.md');
  });
});
