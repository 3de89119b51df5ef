import type { UsedFont } from '#shared/deep-capture/area-capture.js';
import { parseFontFamily } from '#shared/design-tokens.js';
import type { FontFaceSource } from './stylesheets.js';

/**
 * The web font faces the area's text is rendered with. The browser loads a face only when some
 * text needs it (its family, style, weight and unicode-range match), so a *loaded* face of the
 * first family in an element's list that has any is what renders that text; faces of the same
 * family that differ only in unicode-range (subsets) are all kept. Sources come from the
 * `@font-face` rules: the first url() in a format the browser reads is the one it fetched.
 */

export interface FontUse {
  family: string;
  weight: string;
  style: string;
}

const GENERIC = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'emoji',
  'math',
  'fangsong',
]);

const WEIGHT_NAMES: Record<string, string> = { normal: '400', bold: '700' };
const LOADABLE_FORMATS = new Set([
  'woff2',
  'woff',
  'truetype',
  'opentype',
  'woff2-variations',
  'woff-variations',
]);

function norm(value: string): string {
  return value.toLowerCase().replace(/["']/g, '').replace(/\s+/g, ' ').trim();
}

function normWeight(value: string): string {
  return norm(value)
    .split(' ')
    .map((w) => WEIGHT_NAMES[w] ?? w)
    .join(' ');
}

function normRange(value: string): string {
  const v = norm(value).replace(/\s/g, '');
  return v === '' ? 'u+0-10ffff' : v;
}

function weightRange(weight: string): [number, number] {
  const [lo = 400, hi = lo] = normWeight(weight)
    .split(' ')
    .map((w) => Number.parseFloat(w))
    .filter((w) => Number.isFinite(w));
  return [lo, hi];
}

function styleMatches(faceStyle: string, used: string): boolean {
  const italic = (s: string) => s.startsWith('italic') || s.startsWith('oblique');
  return italic(norm(faceStyle)) === italic(norm(used));
}

/** Distance of a face's weight range from the wanted weight (0 inside the range). */
function weightDistance(face: string, wanted: number): number {
  const [lo, hi] = weightRange(face);
  return wanted < lo ? lo - wanted : wanted > hi ? wanted - hi : 0;
}

/** `url("a.woff2") format("woff2"), url(a.woff)` → the first loadable source, absolute. */
export function pickFontSource(src: string, baseUrl: string): { url: string; format: string | null } | null {
  for (const part of src.split(/,(?![^(]*\))/)) {
    const url = /url\(\s*(["']?)([^"')]+)\1\s*\)/.exec(part)?.[2];
    if (url === undefined) continue;
    const format = /format\(\s*["']?([\w-]+)["']?\s*\)/.exec(part)?.[1]?.toLowerCase() ?? null;
    if (format !== null && !LOADABLE_FORMATS.has(format)) continue;
    try {
      return { url: new URL(url, baseUrl).href, format };
    } catch {}
  }
  return null;
}

function sourceFor(
  face: FontFace,
  rules: readonly FontFaceSource[],
): { url: string; format: string | null } | null {
  const family = norm(face.family);
  const rule = rules.find(
    (r) =>
      norm(r.family) === family &&
      normWeight(r.weight || 'normal') === normWeight(face.weight) &&
      norm(r.style || 'normal') === norm(face.style) &&
      normRange(r.unicodeRange) === normRange(face.unicodeRange),
  );
  return rule === undefined ? null : pickFontSource(rule.src, rule.baseUrl);
}

export function usedFonts(
  doc: Document,
  uses: readonly FontUse[],
  rules: readonly FontFaceSource[],
): UsedFont[] {
  const loaded = new Map<string, FontFace[]>();
  doc.fonts.forEach((face) => {
    if (face.status !== 'loaded') return;
    const key = norm(face.family);
    loaded.set(key, [...(loaded.get(key) ?? []), face]);
  });
  const picked = new Set<FontFace>();
  const seen = new Set<string>();
  for (const use of uses) {
    const key = `${use.family}|${use.weight}|${use.style}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const family of parseFontFamily(use.family)) {
      if (GENERIC.has(family.toLowerCase())) break;
      const faces = (loaded.get(norm(family)) ?? []).filter((f) => styleMatches(f.style, use.style));
      if (faces.length === 0) continue;
      const wanted = Number.parseFloat(use.weight) || 400;
      const best = Math.min(...faces.map((f) => weightDistance(f.weight, wanted)));
      for (const f of faces) if (weightDistance(f.weight, wanted) === best) picked.add(f);
      break;
    }
  }
  return [...picked].map((face) => {
    const source = sourceFor(face, rules);
    return {
      family: face.family.replace(/^["']|["']$/g, ''),
      weight: face.weight,
      style: face.style,
      stretch: face.stretch,
      unicode_range: face.unicodeRange,
      src: source?.url ?? null,
      format: source?.format ?? null,
    };
  });
}
