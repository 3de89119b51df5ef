import { colourDistance, type Pair } from './match.js';
import type { Elem } from './model.js';

/**
 * The style differences of one matched pair that a designer acts on, each with a severity 0–1 for
 * ranking. Text pairs: font family, size, weight, line height, colour. Box pairs: background,
 * padding, margin, gap, corner radius, border, shadow, box size. Below the thresholds nobody sees
 * the difference on a screen (1 px, a ΔE2000 under 3, a weight step under 100).
 */

export interface StyleDifference {
  property: string;
  candidate: string;
  reference: string;
  severity: number;
  /** Pixels a spacing difference moves the content by (for explaining moves it causes). */
  shift?: { x: number; y: number };
}

const px = (v: string | undefined): number => Number.parseFloat(v ?? '') || 0;
const cap = (v: number): number => Math.max(0, Math.min(1, v));

function firstFamily(v: string): string {
  return (v.split(',')[0] ?? '')
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
}

function sides(s: Record<string, string>, prefix: string, suffix = ''): string {
  const v = ['top', 'right', 'bottom', 'left'].map((d) => s[`${prefix}-${d}${suffix}`] ?? '0px');
  if (v.every((x) => x === v[0])) return v[0] ?? '0px';
  if (v[0] === v[2] && v[1] === v[3]) return `${v[0]} ${v[1]}`;
  return v.join(' ');
}

function sideDelta(
  r: Record<string, string>,
  c: Record<string, string>,
  prefix: string,
  suffix = '',
): number[] {
  return ['top', 'right', 'bottom', 'left'].map(
    (d) => px(c[`${prefix}-${d}${suffix}`]) - px(r[`${prefix}-${d}${suffix}`]),
  );
}

function colour(out: StyleDifference[], property: string, r: string, c: string, scale: number): void {
  const d = colourDistance(r, c);
  if (d === null ? r !== c : d >= 3)
    out.push({ property, candidate: c, reference: r, severity: cap((d ?? 30) / scale) });
}

function textDifferences(r: Elem, c: Elem, out: StyleDifference[]): void {
  const R = r.styles;
  const C = c.styles;
  const rf = R['font-family'] ?? '';
  const cf = C['font-family'] ?? '';
  if (rf !== '' && cf !== '' && firstFamily(rf) !== firstFamily(cf))
    out.push({ property: 'font-family', candidate: cf, reference: rf, severity: 0.8 });
  const size = px(C['font-size']) - px(R['font-size']);
  if (Math.abs(size) >= 1)
    out.push({
      property: 'font-size',
      candidate: C['font-size'] ?? '',
      reference: R['font-size'] ?? '',
      severity: cap((2 * Math.abs(size)) / Math.max(1, px(R['font-size']))),
    });
  const weight = px(C['font-weight']) - px(R['font-weight']);
  if (Math.abs(weight) >= 100)
    out.push({
      property: 'font-weight',
      candidate: C['font-weight'] ?? '',
      reference: R['font-weight'] ?? '',
      severity: cap(Math.abs(weight) / 300),
    });
  const rl = R['line-height'] ?? 'normal';
  const cl = C['line-height'] ?? 'normal';
  if ((rl === 'normal') !== (cl === 'normal') || Math.abs(px(cl) - px(rl)) >= 1)
    out.push({
      property: 'line-height',
      candidate: cl,
      reference: rl,
      severity: cap(Math.abs(px(cl) - px(rl)) / Math.max(8, px(rl))) || 0.3,
    });
  colour(out, 'color', R.color ?? '', C.color ?? '', 30);
}

function boxDifferences(r: Elem, c: Elem, out: StyleDifference[], moved: boolean): void {
  const R = r.styles;
  const C = c.styles;
  colour(out, 'background-color', R['background-color'] ?? '', C['background-color'] ?? '', 30);
  if (((R['background-image'] ?? 'none') === 'none') !== ((C['background-image'] ?? 'none') === 'none'))
    out.push({
      property: 'background-image',
      candidate: (C['background-image'] ?? 'none').slice(0, 60),
      reference: (R['background-image'] ?? 'none').slice(0, 60),
      severity: 0.6,
    });
  const pad = sideDelta(R, C, 'padding');
  if (pad.some((d) => Math.abs(d) >= 1.5))
    out.push({
      property: 'padding',
      candidate: sides(C, 'padding'),
      reference: sides(R, 'padding'),
      severity: cap(Math.max(...pad.map(Math.abs)) / 8),
      shift: { x: pad[3] ?? 0, y: pad[0] ?? 0 },
    });
  // Spacing outside the box shows only through where things land: named when the box moved.
  const margin = sideDelta(R, C, 'margin');
  if (moved && margin.some((d) => Math.abs(d) >= 1.5))
    out.push({
      property: 'margin',
      candidate: sides(C, 'margin'),
      reference: sides(R, 'margin'),
      severity: cap(Math.max(...margin.map(Math.abs)) / 8),
    });
  for (const gap of ['row-gap', 'column-gap']) {
    const rg = R[gap] ?? 'normal';
    const cg = C[gap] ?? 'normal';
    if (rg !== 'normal' && cg !== 'normal' && Math.abs(px(cg) - px(rg)) >= 1.5)
      out.push({ property: gap, candidate: cg, reference: rg, severity: cap(Math.abs(px(cg) - px(rg)) / 8) });
  }
  const corners = ['top-left', 'top-right', 'bottom-right', 'bottom-left'].map((k) => `border-${k}-radius`);
  const radius = corners.map((k) => Math.abs(px(C[k]) - px(R[k])));
  if (radius.some((d) => d >= 1))
    out.push({
      property: 'border-radius',
      candidate: C[corners[0] ?? ''] ?? '',
      reference: R[corners[0] ?? ''] ?? '',
      severity: cap(Math.max(...radius) / 8),
    });
  const border = (s: Record<string, string>) =>
    ['top', 'right', 'bottom', 'left'].map((d) =>
      (s[`border-${d}-style`] ?? 'none') === 'none' || px(s[`border-${d}-width`]) === 0
        ? 'none'
        : `${s[`border-${d}-width`]} ${s[`border-${d}-style`]} ${s[`border-${d}-color`]}`,
    );
  const rb = border(R);
  const cb = border(C);
  const borderDiffers = rb.some((v, i) => {
    const w = cb[i] ?? 'none';
    if ((v === 'none') !== (w === 'none')) return true;
    if (v === 'none') return false;
    const [rw, rs, ...rc] = v.split(' ');
    const [cw, cs, ...cc] = w.split(' ');
    return (
      Math.abs(px(rw) - px(cw)) >= 1 || rs !== cs || (colourDistance(rc.join(' '), cc.join(' ')) ?? 0) >= 3
    );
  });
  if (borderDiffers)
    out.push({ property: 'border', candidate: cb[0] ?? 'none', reference: rb[0] ?? 'none', severity: 0.5 });
  const shadow = (v: string | undefined) => (v ?? 'none').replace(/\s+/g, ' ').trim();
  if (shadow(R['box-shadow']) !== shadow(C['box-shadow']))
    out.push({
      property: 'box-shadow',
      candidate: shadow(C['box-shadow']).slice(0, 60),
      reference: shadow(R['box-shadow']).slice(0, 60),
      severity: 0.5,
    });
  // A box that grew by its own padding is named once, for the padding.
  const dw = c.rect.width - r.rect.width - (pad[1] ?? 0) - (pad[3] ?? 0);
  const dh = c.rect.height - r.rect.height - (pad[0] ?? 0) - (pad[2] ?? 0);
  // A couple of pixels come and go with line boxes and rounding: named from 3 px or 2 %.
  const off = (d: number, ref: number) => Math.abs(d) >= Math.max(3, 0.02 * ref);
  const grew =
    off(c.rect.width - r.rect.width, r.rect.width) || off(c.rect.height - r.rect.height, r.rect.height);
  if (grew && (off(dw, r.rect.width) || off(dh, r.rect.height)))
    out.push({
      property: 'size',
      candidate: `${Math.round(c.rect.width)}×${Math.round(c.rect.height)} px`,
      reference: `${Math.round(r.rect.width)}×${Math.round(r.rect.height)} px`,
      severity: cap(
        (Math.abs(dw) / Math.max(1, r.rect.width) + Math.abs(dh) / Math.max(1, r.rect.height)) * 3,
      ),
    });
}

export function styleDifferences(pair: Pair, moved: boolean): StyleDifference[] {
  const out: StyleDifference[] = [];
  if (pair.layer === 'text') textDifferences(pair.ref, pair.cand, out);
  else boxDifferences(pair.ref, pair.cand, out, moved);
  return out;
}
