/**
 * Colour maths for the toolbar: parsing computed CSS colours, the v1.0 schema's string forms
 * (hex, "r, g, b", "h, s%, l%") and WCAG 2.x contrast. Pure; no DOM.
 */

export interface Rgba {
  /** 0–255 */
  r: number;
  g: number;
  b: number;
  /** 0–1 */
  a: number;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

function parseChannel(token: string, scale255: boolean): number | null {
  const t = token.trim();
  if (t === 'none') return 0;
  const pct = t.endsWith('%');
  const n = Number.parseFloat(pct ? t.slice(0, -1) : t);
  if (!Number.isFinite(n)) return null;
  if (pct) return clamp((n / 100) * (scale255 ? 255 : 1), 0, scale255 ? 255 : 1);
  return clamp(n, 0, scale255 ? 255 : 1);
}

function splitArgs(inner: string): { channels: string[]; alpha: string | null } {
  const slash = inner.split('/');
  const main = (slash[0] ?? '').trim();
  const channels = main.includes(',') ? main.split(',').map((s) => s.trim()) : main.split(/\s+/);
  let alpha: string | null = slash[1]?.trim() ?? null;
  if (alpha === null && channels.length === 4) alpha = channels.pop() ?? null;
  return { channels, alpha };
}

/**
 * Parses the colour forms `getComputedStyle` produces (rgb/rgba, `color(srgb …)`), plus hex and
 * `transparent`. Anything else (oklch, lab, …) returns null: the DOM side normalises those
 * through a canvas.
 */
export function parseCssColor(input: string): Rgba | null {
  const s = input.trim().toLowerCase();
  if (s === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  if (s.startsWith('#')) return parseHex(s);
  const fn = /^(rgba?|color)\((.*)\)$/.exec(s);
  if (!fn) return null;
  const name = fn[1];
  let body = fn[2] ?? '';
  if (name === 'color') {
    const space = /^\s*srgb\s+/.exec(body);
    if (!space) return null;
    body = body.slice(space[0].length);
    const { channels, alpha } = splitArgs(body);
    if (channels.length !== 3) return null;
    const vals = channels.map((c) => parseChannel(c, false));
    const [r, g, b] = vals;
    if (r == null || g == null || b == null) return null;
    const a = alpha === null ? 1 : parseChannel(alpha, false);
    if (a === null) return null;
    return { r: r * 255, g: g * 255, b: b * 255, a };
  }
  const { channels, alpha } = splitArgs(body);
  if (channels.length !== 3) return null;
  const [r, g, b] = channels.map((c) => parseChannel(c, true));
  if (r == null || g == null || b == null) return null;
  const a = alpha === null ? 1 : parseChannel(alpha, false);
  if (a === null) return null;
  return { r, g, b, a };
}

export function parseHex(hex: string): Rgba | null {
  const h = hex.replace(/^#/, '');
  if (!/^[0-9a-f]+$/i.test(h)) return null;
  const expand = (x: string): string =>
    x
      .split('')
      .map((c) => c + c)
      .join('');
  const full = h.length === 3 || h.length === 4 ? expand(h) : h;
  if (full.length !== 6 && full.length !== 8) return null;
  const byte = (i: number): number => Number.parseInt(full.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
}

const byteOf = (v: number): number => clamp(Math.round(v), 0, 255);

/** `#rrggbb` (alpha is dropped: the schema's hex is opaque; composite first if it matters). */
export function toHex(c: Rgba): string {
  return `#${[c.r, c.g, c.b].map((v) => byteOf(v).toString(16).padStart(2, '0')).join('')}`;
}

/** The v1.0 schema's `rgb` form: `"r, g, b"`. */
export function toRgbString(c: Rgba): string {
  return `${byteOf(c.r)}, ${byteOf(c.g)}, ${byteOf(c.b)}`;
}

export function toHsl(c: Rgba): { h: number; s: number; l: number } {
  const r = byteOf(c.r) / 255;
  const g = byteOf(c.g) / 255;
  const b = byteOf(c.b) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l: Math.round(l * 100) };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  h = Math.round(h * 60);
  if (h < 0) h += 360;
  return { h: h % 360, s: Math.round(s * 100), l: Math.round(l * 100) };
}

/** The v1.0 schema's `hsl` form: `"h, s%, l%"`. */
export function toHslString(c: Rgba): string {
  const { h, s, l } = toHsl(c);
  return `${h}, ${s}%, ${l}%`;
}

/** Alpha-composites `top` over an opaque-or-not `bottom` (what the eye sees). */
export function composite(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a + bottom.a * (1 - top.a);
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
  const mix = (t: number, u: number): number => (t * top.a + u * bottom.a * (1 - top.a)) / a;
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a };
}

/** WCAG 2.x relative luminance of an sRGB colour (alpha ignored). */
export function relativeLuminance(c: Rgba): number {
  const lin = (v: number): number => {
    const s = byteOf(v) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG contrast ratio (1–21), text composited over its background first. */
export function contrastRatio(text: Rgba, background: Rgba): number {
  const bg = background.a < 1 ? composite(background, { r: 255, g: 255, b: 255, a: 1 }) : background;
  const fg = text.a < 1 ? composite(text, bg) : text;
  const l1 = relativeLuminance(fg);
  const l2 = relativeLuminance(bg);
  const [hi, lo] = l1 > l2 ? [l1, l2] : [l2, l1];
  return (hi + 0.05) / (lo + 0.05);
}

export type WcagRating = 'AAA' | 'AA' | 'AA Large' | 'Fail';

/** Rating of a contrast ratio; large text is ≥ 24 px, or ≥ 18.66 px bold. */
export function wcagRating(ratio: number, largeText = false): WcagRating {
  // WCAG forbids rounding up: 4.499 fails AA even though it displays as 4.50.
  const r = ratio;
  if (largeText) {
    if (r >= 4.5) return 'AAA';
    if (r >= 3) return 'AA';
    return 'Fail';
  }
  if (r >= 7) return 'AAA';
  if (r >= 4.5) return 'AA';
  if (r >= 3) return 'AA Large';
  return 'Fail';
}

export function isLargeText(fontSizePx: number, fontWeight: number): boolean {
  return fontSizePx >= 24 || (fontSizePx >= 18.66 && fontWeight >= 700);
}

/** The colour record the v1.0 schema stores, minus id/selector/context. */
export function colorStrings(c: Rgba): { hex: string; rgb: string; hsl: string } {
  return { hex: toHex(c), rgb: toRgbString(c), hsl: toHslString(c) };
}
