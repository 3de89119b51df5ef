import { differenceCiede2000, parse } from 'culori';
import { distance } from 'fastest-levenshtein';
import { area, contentBox, type Elem, hasText, isBox } from './model.js';

/**
 * Design2Code-style structure matching. Two layers, because a rebuild is free to put text and
 * paint on different elements (a reference `<a class="btn">Buy</a>` may come back as
 * `<button><span>Buy</span></button>`):
 *   - text: elements with their own text, matched by text similarity first, then place and tag;
 *   - boxes: painted boxes, images and controls, matched by place and size, then tag.
 * Each layer is matched greedily from the best pair down (a pair must clear a floor, so nothing is
 * matched for the sake of it). The scores, each 0–1:
 *   - block_match: matched area over all area, both sides, both layers (what is missing or extra drops it);
 *   - text: mean text similarity of matched text pairs;
 *   - position: mean of 1 − centre distance / region diagonal over every matched pair;
 *   - color: mean of 1 − CIEDE2000 / 100 of the text colour over matched text pairs.
 */

export interface Pair {
  ref: Elem;
  cand: Elem;
  layer: 'text' | 'box';
  score: number;
}

export interface Matching {
  pairs: Pair[];
  missing: Array<{ ref: Elem; layer: 'text' | 'box' }>;
  extra: Array<{ cand: Elem; layer: 'text' | 'box' }>;
}

/** Where a pair's element is compared: a text's content box, a box's border box. */
export function placed(e: Elem, layer: 'text' | 'box'): Elem['rect'] {
  return layer === 'text' ? contentBox(e) : e.rect;
}

export function textSimilarity(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - distance(x, y) / longest;
}

function iou(a: Elem['rect'], b: Elem['rect']): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  const inter = w > 0 && h > 0 ? w * h : 0;
  const union = area(a) + area(b) - inter;
  return union > 0 ? inter / union : 0;
}

const centre = (r: Elem['rect']) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

export function centreDistance(a: Elem['rect'], b: Elem['rect']): number {
  const p = centre(a);
  const q = centre(b);
  return Math.hypot(p.x - q.x, p.y - q.y);
}

/** Same place and size (IoU), or the same size close by (an element that moved). */
function geometry(a: Elem['rect'], b: Elem['rect'], diagonal: number): number {
  const sizeA = Math.min(a.width, b.width) / Math.max(a.width, b.width, 1e-9);
  const sizeB = Math.min(a.height, b.height) / Math.max(a.height, b.height, 1e-9);
  const near = Math.max(0, 1 - centreDistance(a, b) / (0.25 * diagonal));
  return Math.max(iou(a, b), sizeA * sizeB * near * 0.9);
}

const GROUPS: readonly (readonly string[])[] = [
  ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  ['p', 'span', 'div', 'li', 'small', 'strong', 'em', 'b', 'label', 'dd', 'dt', 'td', 'th', 'figcaption'],
  ['a', 'button'],
  ['img', 'svg', 'picture', 'canvas', 'video'],
  ['input', 'textarea', 'select'],
];

function tagSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  return GROUPS.some((g) => g.includes(a) && g.includes(b)) ? 0.6 : 0.2;
}

function pairScore(r: Elem, c: Elem, layer: 'text' | 'box', diagonal: number): number {
  const geo = geometry(r.rect, c.rect, diagonal);
  const tag = tagSimilarity(r.tag, c.tag);
  if (layer === 'text') {
    const text = textSimilarity(r.text, c.text);
    if (text < 0.5) return 0;
    const near = Math.max(0, 1 - centreDistance(contentBox(r), contentBox(c)) / diagonal);
    return 0.6 * text + 0.25 * near + 0.15 * tag;
  }
  return geo < 0.3 ? 0 : 0.75 * geo + 0.25 * tag;
}

function matchLayer(
  refs: Elem[],
  cands: Elem[],
  layer: 'text' | 'box',
  diagonal: number,
  out: Matching,
): void {
  const scored: Pair[] = [];
  for (const ref of refs)
    for (const cand of cands) {
      const score = pairScore(ref, cand, layer, diagonal);
      if (score > 0) scored.push({ ref, cand, layer, score });
    }
  scored.sort((a, b) => b.score - a.score);
  const usedR = new Set<number>();
  const usedC = new Set<number>();
  for (const pair of scored) {
    if (usedR.has(pair.ref.index) || usedC.has(pair.cand.index)) continue;
    usedR.add(pair.ref.index);
    usedC.add(pair.cand.index);
    out.pairs.push(pair);
  }
  for (const ref of refs) if (!usedR.has(ref.index)) out.missing.push({ ref, layer });
  for (const cand of cands) if (!usedC.has(cand.index)) out.extra.push({ cand, layer });
}

/**
 * A painted box lying exactly on a matched one (a wrapper with its own background, a clone's
 * backdrop) is a layer of that box, not an element of its own: its paint shows in the pixel scores.
 */
function isLayerOfMatched(e: Elem, matched: readonly Elem[]): boolean {
  return !hasText(e) && matched.some((m) => m.index !== e.index && iou(m.rect, e.rect) >= 0.9);
}

export function matchElements(refs: readonly Elem[], cands: readonly Elem[], diagonal: number): Matching {
  const out: Matching = { pairs: [], missing: [], extra: [] };
  matchLayer(refs.filter(hasText), cands.filter(hasText), 'text', diagonal, out);
  matchLayer(
    refs.filter((e) => isBox(e)),
    cands.filter((e) => isBox(e)),
    'box',
    diagonal,
    out,
  );
  const matchedRefs = out.pairs.map((p) => p.ref);
  const matchedCands = out.pairs.map((p) => p.cand);
  out.missing = out.missing.filter((x) => !isLayerOfMatched(x.ref, matchedRefs));
  out.extra = out.extra.filter((x) => !isLayerOfMatched(x.cand, matchedCands));
  return out;
}

/** CIEDE2000 between two CSS colours, or null when either cannot be parsed. */
export function colourDistance(a: string, b: string): number | null {
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined) return null;
  return differenceCiede2000()(x, y);
}

export interface StructureScores {
  block_match: number;
  text: number;
  position: number;
  color: number;
}

const mean = (values: number[], empty: number): number =>
  values.length === 0 ? empty : values.reduce((s, v) => s + v, 0) / values.length;

export function structureScores(m: Matching, diagonal: number): StructureScores {
  const matched = m.pairs.reduce((s, p) => s + area(p.ref.rect) + area(p.cand.rect), 0);
  const unmatched =
    m.missing.reduce((s, x) => s + area(x.ref.rect), 0) + m.extra.reduce((s, x) => s + area(x.cand.rect), 0);
  const texts = m.pairs.filter((p) => p.layer === 'text');
  return {
    block_match: matched + unmatched === 0 ? 1 : matched / (matched + unmatched),
    text: mean(
      texts.map((p) => textSimilarity(p.ref.text, p.cand.text)),
      m.missing.length + m.extra.length === 0 ? 1 : 0,
    ),
    position: mean(
      m.pairs.map((p) =>
        Math.max(0, 1 - centreDistance(placed(p.ref, p.layer), placed(p.cand, p.layer)) / diagonal),
      ),
      1,
    ),
    color: mean(
      texts.map((p) => {
        const d = colourDistance(p.ref.styles.color ?? '', p.cand.styles.color ?? '');
        return d === null ? 1 : Math.max(0, 1 - d / 100);
      }),
      1,
    ),
  };
}
