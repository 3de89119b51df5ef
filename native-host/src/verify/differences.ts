import { DESIGNER_WORDS } from '#shared/element-words.js';
import { type Matching, type Pair, placed } from './match.js';
import { area, type Elem, isAncestor } from './model.js';
import { type StyleDifference, styleDifferences } from './style-differences.js';

/**
 * Everything that differs, as items a designer or an agent can act on, ranked by how much of the
 * area they affect. A container that moved is named once with its offset, not once per child it
 * carried; a move that follows from another difference (a changed padding above or around it, an
 * element missing or added above it) is kept as a consequence of that difference, not counted as
 * one of its own.
 */

export type DifferenceKind = 'style' | 'moved' | 'missing' | 'extra';

export interface Difference {
  kind: DifferenceKind;
  /** The candidate's selector (style, moved, extra); for missing, null. */
  selector: string | null;
  /** The reference element's name in referenced-elements.json (null for extra). */
  reference: string | null;
  property: string | null;
  candidate_value: string | null;
  reference_value: string | null;
  offset?: { x: number; y: number };
  /** Elements a moved container carried with it. */
  carried?: number;
  text: string;
  weight: number;
}

export interface Differences {
  differences: Difference[];
  /** Moves that follow from a difference listed above (what explains each). */
  consequences: Array<Difference & { explained_by: string }>;
}

const MOVE_PX = 3;
const SAME_PX = 2;

const round = (v: number) => Math.round(v);
const quote = (s: string) => (s.length > 40 ? `${s.slice(0, 37)}…` : s);

function described(e: Elem): string {
  const what = DESIGNER_WORDS[e.tag]?.toLowerCase() ?? (e.text !== '' ? 'text' : `${e.tag} box`);
  return e.text !== ''
    ? `the '${quote(e.text)}' ${what}`
    : `a ${round(e.rect.width)}×${round(e.rect.height)} ${what}`;
}

function offsetWords(dx: number, dy: number): string {
  const parts: string[] = [];
  if (Math.abs(dx) >= SAME_PX) parts.push(`${round(Math.abs(dx))} px further ${dx > 0 ? 'right' : 'left'}`);
  if (Math.abs(dy) >= SAME_PX) parts.push(`${round(Math.abs(dy))} px ${dy > 0 ? 'lower' : 'higher'}`);
  return parts.join(' and ');
}

const offsetOf = (p: Pair) => {
  const c = placed(p.cand, p.layer);
  const r = placed(p.ref, p.layer);
  return { x: c.x - r.x, y: c.y - r.y };
};
const same = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.abs(a.x - b.x) <= SAME_PX && Math.abs(a.y - b.y) <= SAME_PX;
const isMoved = (o: { x: number; y: number }) => Math.max(Math.abs(o.x), Math.abs(o.y)) >= MOVE_PX;

/** The highest candidate ancestor whose matched contents all moved by `offset`, and how many they are. */
/**
 * The highest candidate ancestor of `pair` whose matched contents all moved by the same offset
 * (measured from where the pair's surroundings put them), and which elements it carried.
 */
function movedContainer(
  cands: readonly Elem[],
  pairs: readonly Pair[],
  pair: Pair,
  offset: { x: number; y: number },
) {
  const d = offsetOf(pair);
  const base = { x: d.x - offset.x, y: d.y - offset.y };
  const rode = (q: Pair) => {
    const o = offsetOf(q);
    return same({ x: o.x - base.x, y: o.y - base.y }, offset);
  };
  const under = (i: number) => pairs.filter((q) => q.cand.index === i || isAncestor(cands, i, q.cand.index));
  let top = pair.cand;
  for (let p = pair.cand.parent; p !== null; p = cands[p]?.parent ?? null) {
    const parent = cands[p];
    if (parent === undefined || !under(p).every(rode)) break;
    top = parent;
  }
  return { top, carried: new Set(under(top.index).map((q) => q.cand.index)) };
}

function overlapsX(a: Elem['rect'], b: Elem['rect']): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width;
}

/** What, above or around a moved element, accounts for its offset; null when nothing does. */
function explanation(
  pair: Pair,
  offset: { x: number; y: number },
  m: Matching,
  causes: Array<{ pair: Pair; diff: StyleDifference }>,
  cands: readonly Elem[],
): string | null {
  for (const { pair: around, diff } of causes) {
    if (diff.shift === undefined || !isAncestor(cands, around.cand.index, pair.cand.index)) continue;
    if (Math.abs(diff.shift.x - offset.x) <= SAME_PX && Math.abs(diff.shift.y - offset.y) <= SAME_PX)
      return `${diff.property} of ${around.cand.name}`;
  }
  if (Math.abs(offset.x) > SAME_PX) return null;
  const above = (r: Elem['rect']) => r.y + r.height <= pair.ref.rect.y + 1 && overlapsX(r, pair.ref.rect);
  const gone = m.missing.filter((x) => above(x.ref.rect)).map((x) => x.ref.rect.height);
  const added = m.extra
    .filter(
      (x) =>
        x.cand.rect.y + x.cand.rect.height <= pair.cand.rect.y + 1 && overlapsX(x.cand.rect, pair.cand.rect),
    )
    .map((x) => x.cand.rect.height);
  const grown = m.pairs
    .filter((q) => q !== pair && above(q.ref.rect))
    .map((q) => q.cand.rect.height - q.ref.rect.height)
    .filter((d) => Math.abs(d) >= 1);
  const candidates = [...gone.map((h) => -h), ...added, ...grown];
  // Margins collapse or add around a removed block: allow a quarter of its height.
  for (const shift of candidates)
    if (Math.abs(offset.y - shift) <= SAME_PX + Math.abs(shift) * 0.25)
      return 'an element above it that changed, went or came';
  const total =
    gone.reduce((s, h) => s - h, 0) + added.reduce((s, h) => s + h, 0) + grown.reduce((s, h) => s + h, 0);
  if (total !== 0 && Math.abs(offset.y - total) <= SAME_PX + Math.abs(total) * 0.25)
    return 'the elements above it that changed, went or came';
  return null;
}

/**
 * Each pair's offset from where its nearest matched ancestor puts it (that ancestor's own offset
 * plus the shift its changed padding gives its content): a child that only rode along with its
 * container, or sits inside a box whose padding changed, has not moved by itself.
 */
function relativeOffsets(
  m: Matching,
  cands: readonly Elem[],
  shifts: ReadonlyMap<number, { x: number; y: number }>,
) {
  const byCand = new Map<number, Pair>();
  for (const p of m.pairs) if (!byCand.has(p.cand.index) || p.layer === 'box') byCand.set(p.cand.index, p);
  const out = new Map<Pair, { x: number; y: number }>();
  for (const pair of m.pairs) {
    const d = offsetOf(pair);
    let expected = { x: 0, y: 0 };
    for (let a = pair.cand.parent; a !== null; a = cands[a]?.parent ?? null) {
      const anc = byCand.get(a);
      if (anc === undefined) continue;
      const o = offsetOf(anc);
      const s = shifts.get(a) ?? { x: 0, y: 0 };
      expected = { x: o.x + s.x, y: o.y + s.y };
      break;
    }
    out.set(pair, { x: d.x - expected.x, y: d.y - expected.y });
  }
  return out;
}

export function findDifferences(m: Matching, cands: readonly Elem[]): Differences {
  const out: Differences = { differences: [], consequences: [] };
  const causes: Array<{ pair: Pair; diff: StyleDifference }> = [];
  const shifts = new Map<number, { x: number; y: number }>();
  for (const pair of m.pairs)
    if (pair.layer === 'box')
      for (const diff of styleDifferences(pair, false))
        if (diff.shift !== undefined) shifts.set(pair.cand.index, diff.shift);
  const relative = relativeOffsets(m, cands, shifts);
  const rel = (p: Pair) => relative.get(p) ?? offsetOf(p);
  for (const pair of m.pairs) {
    const moved = isMoved(rel(pair));
    for (const diff of styleDifferences(pair, moved)) {
      causes.push({ pair, diff });
      out.differences.push({
        kind: 'style',
        selector: pair.cand.name,
        reference: pair.ref.name,
        property: diff.property,
        candidate_value: diff.candidate,
        reference_value: diff.reference,
        text: `\`${pair.cand.name}\`: ${diff.property} ${diff.candidate}, reference ${diff.reference}`,
        weight: Math.sqrt(area(pair.ref.rect)) * diff.severity,
      });
    }
  }
  const reported = new Set<number>();
  const byMove = [...m.pairs].sort((a, b) => a.cand.index - b.cand.index);
  for (const pair of byMove) {
    const offset = rel(pair);
    if (!isMoved(offset) || reported.has(pair.cand.index)) continue;
    const { top, carried } = movedContainer(cands, m.pairs, pair, offset);
    for (const i of carried) reported.add(i);
    const others = carried.size - (carried.has(top.index) ? 1 : 0);
    const more = others > 0 && top.index !== pair.cand.index ? ` (with the ${others} elements in it)` : '';
    const item: Difference = {
      kind: 'moved',
      selector: top.name,
      reference: pair.ref.name,
      property: null,
      candidate_value: null,
      reference_value: null,
      offset: { x: round(offset.x), y: round(offset.y) },
      carried: carried.size,
      text: `\`${top.name}\`${more}: ${offsetWords(offset.x, offset.y)} than in the reference`,
      weight:
        Math.sqrt(Math.max(area(top.rect), area(pair.ref.rect))) *
        Math.min(1, Math.hypot(offset.x, offset.y) / 20),
    };
    const why = explanation(pair, offset, m, causes, cands);
    if (why === null) out.differences.push(item);
    else out.consequences.push({ ...item, explained_by: why });
  }
  // An element in only one layer's leftovers is missing only when neither layer matched it.
  const matchedRef = new Set(m.pairs.map((p) => p.ref.index));
  const matchedCand = new Set(m.pairs.map((p) => p.cand.index));
  const seenRef = new Set<number>();
  for (const { ref } of m.missing) {
    if (matchedRef.has(ref.index) || seenRef.has(ref.index)) continue;
    seenRef.add(ref.index);
    out.differences.push({
      kind: 'missing',
      selector: null,
      reference: ref.name,
      property: null,
      candidate_value: null,
      reference_value: null,
      text: `missing: ${described(ref)} (reference ${ref.name}, at ${round(ref.rect.x)},${round(ref.rect.y)})`,
      weight: Math.sqrt(area(ref.rect)),
    });
  }
  const seenCand = new Set<number>();
  for (const { cand } of m.extra) {
    if (matchedCand.has(cand.index) || seenCand.has(cand.index)) continue;
    seenCand.add(cand.index);
    out.differences.push({
      kind: 'extra',
      selector: cand.name,
      reference: null,
      property: null,
      candidate_value: null,
      reference_value: null,
      text: `extra: \`${cand.name}\`, ${described(cand)}, not in the reference`,
      weight: Math.sqrt(area(cand.rect)),
    });
  }
  out.differences.sort((a, b) => b.weight - a.weight);
  return out;
}
