import { describe, expect, it } from 'vitest';
import { panelPaintsOver } from './capture-veil.js';

/** A stand-in panel: only its box matters to the rule. */
const panelAt = (x: number, y: number, width: number, height: number) =>
  ({ getBoundingClientRect: () => ({ x, y, width, height }) }) as unknown as HTMLElement;

describe('the panel paints over a crop', () => {
  const panel = panelAt(944, 16, 320, 400);

  it('when the crop is under its box', () => {
    expect(panelPaintsOver(panel, { x: 900, y: 100, width: 100, height: 50 })).toBe(true);
  });

  it('when the crop ends a few pixels left of it, where its shadow still darkens the page', () => {
    // The reported case: an element ending 4 px from the panel came out up to 18/255 darker.
    expect(panelPaintsOver(panel, { x: 600, y: 100, width: 340, height: 50 })).toBe(true);
    expect(panelPaintsOver(panel, { x: 600, y: 100, width: 320, height: 50 })).toBe(true);
  });

  it('when the crop is just below it, inside the shadow that falls 12 px down and blurs 32 px', () => {
    expect(panelPaintsOver(panel, { x: 1000, y: 450, width: 100, height: 50 })).toBe(true);
  });

  it('not when the crop is clear of its shadow', () => {
    expect(panelPaintsOver(panel, { x: 100, y: 100, width: 400, height: 300 })).toBe(false);
    expect(panelPaintsOver(panel, { x: 1000, y: 470, width: 100, height: 50 })).toBe(false);
  });
});
