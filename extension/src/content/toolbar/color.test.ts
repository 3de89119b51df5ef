import { describe, expect, it } from 'vitest';
import {
  colorStrings,
  composite,
  contrastRatio,
  isLargeText,
  parseCssColor,
  parseHex,
  toHex,
  toHslString,
  toRgbString,
  wcagRating,
} from './color.js';

describe('parseCssColor', () => {
  it('parses the forms getComputedStyle returns', () => {
    expect(parseCssColor('rgb(37, 99, 235)')).toEqual({ r: 37, g: 99, b: 235, a: 1 });
    expect(parseCssColor('rgba(0, 0, 0, 0.5)')).toEqual({ r: 0, g: 0, b: 0, a: 0.5 });
    expect(parseCssColor('rgb(10 20 30 / 25%)')).toEqual({ r: 10, g: 20, b: 30, a: 0.25 });
    expect(parseCssColor('color(srgb 1 0.5 0 / 0.5)')).toEqual({ r: 255, g: 127.5, b: 0, a: 0.5 });
    expect(parseCssColor('transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(parseCssColor('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
  });
  it('returns null for what it cannot convert exactly', () => {
    expect(parseCssColor('oklch(0.6 0.2 250)')).toBeNull();
    expect(parseCssColor('color(display-p3 1 0 0)')).toBeNull();
    expect(parseCssColor('rgb(1, 2)')).toBeNull();
    expect(parseCssColor('nonsense')).toBeNull();
    expect(parseHex('#12345')).toBeNull();
    expect(parseHex('#zzz')).toBeNull();
  });
});

describe('schema strings', () => {
  it('formats hex, "r, g, b" and "h, s%, l%"', () => {
    const c = { r: 37, g: 99, b: 235, a: 1 };
    expect(toHex(c)).toBe('#2563eb');
    expect(toRgbString(c)).toBe('37, 99, 235');
    expect(toHslString(c)).toBe('221, 83%, 53%');
    expect(colorStrings({ r: 255, g: 255, b: 255, a: 1 })).toEqual({
      hex: '#ffffff',
      rgb: '255, 255, 255',
      hsl: '0, 0%, 100%',
    });
    expect(toHslString({ r: 255, g: 0, b: 0, a: 1 })).toBe('0, 100%, 50%');
    expect(toHslString({ r: 255, g: 0, b: 128, a: 1 })).toBe('330, 100%, 50%');
  });
  it('round-trips every hex through parseHex', () => {
    for (const hex of ['#000000', '#0a0b0c', '#ff8000', '#7f7f7f']) {
      const c = parseHex(hex);
      expect(c).not.toBeNull();
      if (c) expect(toHex(c)).toBe(hex);
    }
  });
});

describe('WCAG contrast', () => {
  const black = { r: 0, g: 0, b: 0, a: 1 };
  const white = { r: 255, g: 255, b: 255, a: 1 };
  it('matches the reference values', () => {
    expect(contrastRatio(black, white)).toBeCloseTo(21, 5);
    expect(contrastRatio(white, white)).toBeCloseTo(1, 5);
    // #767676 on white is the classic 4.54:1 AA pass.
    const grey = parseHex('#767676');
    expect(grey).not.toBeNull();
    if (grey) expect(contrastRatio(grey, white)).toBeCloseTo(4.54, 2);
  });
  it('is symmetric', () => {
    const a = { r: 37, g: 99, b: 235, a: 1 };
    expect(contrastRatio(a, white)).toBeCloseTo(contrastRatio(white, a), 10);
  });
  it('composites translucent text over the background', () => {
    const half = { r: 0, g: 0, b: 0, a: 0.5 };
    const seen = composite(half, white);
    expect(toHex(seen)).toBe('#808080');
    expect(contrastRatio(half, white)).toBeCloseTo(contrastRatio(seen, white), 5);
  });
  it('rates without rounding up', () => {
    expect(wcagRating(7)).toBe('AAA');
    expect(wcagRating(4.5)).toBe('AA');
    expect(wcagRating(4.499)).toBe('AA Large');
    expect(wcagRating(3.2, true)).toBe('AA');
    expect(wcagRating(2.9, true)).toBe('Fail');
    expect(isLargeText(24, 400)).toBe(true);
    expect(isLargeText(19, 700)).toBe(true);
    expect(isLargeText(19, 400)).toBe(false);
  });
});
