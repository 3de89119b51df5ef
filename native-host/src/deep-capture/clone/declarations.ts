import type { StyleMap } from '#shared/deep-capture/area-capture.js';
import { BOX_PROPERTIES } from '#shared/deep-capture/box-properties.js';
import { readableColor } from '#shared/deep-capture/readable-color.js';
import { parseFontFamily } from '#shared/design-tokens.js';

/**
 * Turning captured style maps into readable declarations: colours and font stacks become custom
 * properties (named after the page's own custom property when one holds that colour), longhands
 * that spell out a whole box side set become their shorthand, and declarations come in a
 * predictable order (box, then layout, then type, then paint).
 */

const COLOR_TOKEN = /rgba?\([^()]*\)/g;

/** `#2563eb`, `#fff`, `rgb(…)` → `rgb(r, g, b)`/`rgba(…)` as the browser computes it, or null. */
function normalizeColor(value: string): string | null {
  const v = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,8})$/.exec(v)?.[1];
  if (hex !== undefined) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16));
    const a = full.length === 8 ? Number.parseInt(full.slice(6, 8), 16) / 255 : 1;
    if (a < 1) return `rgba(${r}, ${g}, ${b}, ${Math.round(a * 1000) / 1000})`;
    return `rgb(${r}, ${g}, ${b})`;
  }
  return /^rgba?\(/.test(v) ? v.replace(/\s*,\s*/g, ', ') : null;
}

/** Applies `fn` to the parts of a value outside url(…) (URLs may contain anything). */
function outsideUrls(value: string, fn: (part: string) => string): string {
  return value
    .split(/(url\((?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^)]*)\))/)
    .map((part, i) => (i % 2 === 1 ? part : fn(part)))
    .join('');
}

export interface Tokens {
  /** Custom property name → value, in declaration order. */
  properties: Map<string, string>;
  colorVar: Map<string, string>;
  fontVar: Map<string, string>;
}

const MAX_COLOR_TOKENS = 64;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 32);
}

/**
 * The area's colours (most used first) and font stacks as custom properties. `pageProperties` are
 * the custom properties the page's own rules use: a colour one of them holds takes its name.
 */
export function buildTokens(
  maps: readonly StyleMap[],
  pageProperties: Readonly<Record<string, string>>,
): Tokens {
  const colorCounts = new Map<string, number>();
  const fonts = new Map<string, number>();
  for (const styles of maps) {
    for (const [prop, value] of Object.entries(styles)) {
      outsideUrls(value, (part) => {
        for (const m of part.matchAll(COLOR_TOKEN)) colorCounts.set(m[0], (colorCounts.get(m[0]) ?? 0) + 1);
        return part;
      });
      if (prop === 'font-family') fonts.set(value, (fonts.get(value) ?? 0) + 1);
    }
  }
  const pageNames = new Map<string, string>();
  for (const [name, value] of Object.entries(pageProperties)) {
    const normalized = normalizeColor(value);
    if (normalized !== null && !pageNames.has(normalized) && /^--[\w-]+$/.test(name)) {
      pageNames.set(normalized, name);
    }
  }
  const properties = new Map<string, string>();
  const colorVar = new Map<string, string>();
  const byUse = [...colorCounts.entries()]
    .filter(([color]) => !TRANSPARENT.test(color))
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_COLOR_TOKENS);
  let unnamed = 0;
  for (const [color] of byUse) {
    let name = pageNames.get(color);
    if (name === undefined || properties.has(name)) name = `--color-${++unnamed}`;
    properties.set(name, readableColor(color));
    colorVar.set(color, `var(${name})`);
  }
  const fontVar = new Map<string, string>();
  for (const [stack] of [...fonts.entries()].sort((a, b) => b[1] - a[1])) {
    const base = `--font-${slug(parseFontFamily(stack)[0] ?? 'family') || 'family'}`;
    let name = base;
    for (let n = 2; properties.has(name); n++) name = `${base}-${n}`;
    properties.set(name, stack);
    fontVar.set(stack, `var(${name})`);
  }
  return { properties, colorVar, fontVar };
}

const TRANSPARENT = /^rgba\(0, 0, 0, 0\)$/;

/** A value with its colours and font stack replaced by the area's custom properties. */
export function tokenize(prop: string, value: string, tokens: Tokens): string {
  if (prop === 'font-family') return tokens.fontVar.get(value) ?? value;
  return outsideUrls(value, (part) =>
    part.replace(COLOR_TOKEN, (c) => (TRANSPARENT.test(c) ? 'transparent' : (tokens.colorVar.get(c) ?? c))),
  );
}

const SIDES = ['top', 'right', 'bottom', 'left'] as const;
const CORNERS = ['top-left', 'top-right', 'bottom-right', 'bottom-left'] as const;

/** `a a a a` → `a`, `a b a b` → `a b`, `a b c b` → `a b c`. */
function fourValues(v: readonly string[]): string {
  const [t, r, b, l] = v;
  if (r === l) {
    if (t === b) return t === r ? `${t}` : `${t} ${r}`;
    return `${t} ${r} ${b}`;
  }
  return `${t} ${r} ${b} ${l}`;
}

const SIDE_GROUPS: [string, (side: string) => string][] = [
  ['margin', (s) => `margin-${s}`],
  ['padding', (s) => `padding-${s}`],
  ['border-width', (s) => `border-${s}-width`],
  ['border-style', (s) => `border-${s}-style`],
  ['border-color', (s) => `border-${s}-color`],
];

/** Longhands that together spell a shorthand become it; anything partial stays as it was. */
export function compactShorthands(styles: StyleMap): StyleMap {
  const out: StyleMap = { ...styles };
  for (const [shorthand, longhand] of SIDE_GROUPS) {
    const values = SIDES.map((s) => out[longhand(s)]);
    if (values.some((v) => v === undefined)) continue;
    for (const s of SIDES) delete out[longhand(s)];
    out[shorthand] = fourValues(values as string[]);
  }
  const radii = CORNERS.map((c) => out[`border-${c}-radius`]);
  if (radii.every((r) => r !== undefined && !r.includes(' '))) {
    for (const c of CORNERS) delete out[`border-${c}-radius`];
    out['border-radius'] = fourValues(radii as string[]);
  }
  const [w, s, c] = [out['border-width'], out['border-style'], out['border-color']];
  if (w !== undefined && s !== undefined && c !== undefined && ![w, s, c].some((v) => v.includes(' '))) {
    delete out['border-width'];
    delete out['border-style'];
    delete out['border-color'];
    out.border = `${w} ${s} ${c}`;
  }
  for (const [shorthand, a, b] of [
    ['overflow', 'overflow-x', 'overflow-y'],
    ['gap', 'row-gap', 'column-gap'],
    ['background-position', 'background-position-x', 'background-position-y'],
  ] as const) {
    const [va, vb] = [out[a], out[b]];
    if (va === undefined || vb === undefined || va.includes(',') || vb.includes(',')) continue;
    delete out[a];
    delete out[b];
    out[shorthand] = shorthand === 'background-position' || va !== vb ? `${va} ${vb}` : va;
  }
  return out;
}

const ORDER = [
  ...BOX_PROPERTIES,
  'z-index',
  'margin',
  'padding',
  'border',
  'border-width',
  'border-style',
  'border-color',
  'border-radius',
  'overflow',
  'flex',
  'grid',
  'align',
  'justify',
  'gap',
  'order',
  'font',
  'line-height',
  'letter-spacing',
  'text',
  'white-space',
  'color',
  'background',
  'box-shadow',
  'opacity',
];

function rank(prop: string): number {
  const i = ORDER.findIndex((p) => prop === p || prop.startsWith(`${p}-`));
  return i === -1 ? ORDER.length : i;
}

/** Declarations in a predictable order: box, layout, type, paint, then the rest alphabetically. */
export function orderedEntries(styles: StyleMap): [string, string][] {
  return Object.entries(styles).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
