import type { RenderedElement } from '#shared/commands/render-candidate.js';
import type { ReferencedArea } from '#shared/deep-capture/referenced-elements.js';
import {
  INHERITED_ROOT_DEFAULTS,
  INHERITED_STYLE_KEYS,
  REFERENCE_DEFAULTS,
} from '#shared/verify/style-keys.js';

/**
 * One element of either side, in the terms the comparison works in: its box relative to the
 * region's top-left (CSS px), its own text, its nearest listed ancestor, and the full computed
 * values of the compared properties. The reference's come from referenced-elements.json, where the
 * capture kept only what differs from the parent (inherited) or from the initial value (the rest):
 * `fromReference` restores the rest, so both sides read alike.
 */
export interface Elem {
  index: number;
  tag: string;
  text: string;
  /** The candidate's selector, or the reference's element_name. */
  name: string;
  rect: { x: number; y: number; width: number; height: number };
  parent: number | null;
  styles: Record<string, string>;
}

const PARENT = /^inside ([^;]+)/;

function parentName(relationships: unknown): string | null {
  if (typeof relationships !== 'string') return null;
  return PARENT.exec(relationships)?.[1]?.trim() ?? null;
}

function box(value: unknown): Elem['rect'] | null {
  if (typeof value !== 'object' || value === null) return null;
  const b = value as Record<string, unknown>;
  const n = (k: string) => (typeof b[k] === 'number' && Number.isFinite(b[k]) ? (b[k] as number) : null);
  const [x, y, width, height] = [n('x'), n('y'), n('width'), n('height')];
  if (x === null || y === null || width === null || height === null) return null;
  return { x, y, width, height };
}

/** The area's elements with a box, relative to the area, every compared style resolved. */
export function fromReference(area: ReferencedArea): Elem[] {
  const origin = area.selected_area_bounding_box ?? { x: 0, y: 0 };
  const byName = new Map<string, number>();
  const kept: Array<{ el: ReferencedArea['elements'][number]; rect: Elem['rect'] }> = [];
  for (const el of area.elements) {
    const rect = box(el.element_details.bounding_box);
    if (rect === null) continue;
    byName.set(el.element_name, kept.length);
    kept.push({ el, rect: { ...rect, x: rect.x - origin.x, y: rect.y - origin.y } });
  }
  const out: Elem[] = [];
  kept.forEach(({ el, rect }, index) => {
    const pName = parentName(el.relationships_to_other_elements);
    const parent = pName === null ? null : (byName.get(pName) ?? null);
    const own = el.element_details.styles;
    // Parents come before children in the capture's order, so theirs are resolved already.
    const inheritedFrom = parent !== null && parent < index ? out[parent]?.styles : undefined;
    const styles: Record<string, string> = {};
    for (const key of INHERITED_STYLE_KEYS)
      styles[key] = own[key] ?? inheritedFrom?.[key] ?? INHERITED_ROOT_DEFAULTS[key] ?? '';
    for (const [key, initial] of Object.entries(REFERENCE_DEFAULTS)) styles[key] = own[key] ?? initial;
    for (const side of ['top', 'right', 'bottom', 'left'])
      styles[`border-${side}-color`] = own[`border-${side}-color`] ?? styles.color ?? '';
    out.push({
      index,
      tag: el.element_details.tag,
      text: el.element_details.text_content.replace(/\s+/g, ' ').trim(),
      name: el.element_name,
      rect,
      parent,
      styles,
    });
  });
  return out;
}

export function fromCandidate(elements: readonly RenderedElement[]): Elem[] {
  return elements.map((e, index) => ({
    index,
    tag: e.tag,
    text: e.text,
    name: e.selector,
    rect: e.rect,
    parent: e.parent,
    styles: e.styles,
  }));
}

const REPLACED = new Set([
  'img',
  'svg',
  'video',
  'canvas',
  'picture',
  'input',
  'select',
  'textarea',
  'iframe',
  'hr',
]);

const transparent = (color: string | undefined): boolean =>
  color === undefined || color === '' || color === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(color);

const px = (v: string | undefined): number => Number.parseFloat(v ?? '') || 0;

/** Paints a box of its own: background, border, shadow (a plain layout wrapper does not). */
export function paintsBox(e: Elem): boolean {
  const s = e.styles;
  if (!transparent(s['background-color']) || (s['background-image'] ?? 'none') !== 'none') return true;
  if ((s['box-shadow'] ?? 'none') !== 'none') return true;
  return ['top', 'right', 'bottom', 'left'].some(
    (side) => px(s[`border-${side}-width`]) > 0 && (s[`border-${side}-style`] ?? 'none') !== 'none',
  );
}

/** Shows something a person would miss if it went: its own text, an image or control, a painted box. */
export function isBox(e: Elem): boolean {
  return REPLACED.has(e.tag) || paintsBox(e) || e.tag === 'button';
}

export function hasText(e: Elem): boolean {
  return e.text !== '';
}

/** The box inside padding and border: where a text element's text sits, whoever carries the padding. */
export function contentBox(e: Elem): Elem['rect'] {
  const s = e.styles;
  const side = (d: string) =>
    px(s[`padding-${d}`]) + (s[`border-${d}-style`] === 'none' ? 0 : px(s[`border-${d}-width`]));
  const left = side('left');
  const top = side('top');
  return {
    x: e.rect.x + left,
    y: e.rect.y + top,
    width: Math.max(0, e.rect.width - left - side('right')),
    height: Math.max(0, e.rect.height - top - side('bottom')),
  };
}

export const area = (r: Elem['rect']): number => Math.max(0, r.width) * Math.max(0, r.height);

/** Is `a` an ancestor of `b` in `list` (by parent links)? */
export function isAncestor(list: readonly Elem[], a: number, b: number): boolean {
  for (
    let p = list[b]?.parent ?? null, hops = 0;
    p !== null && hops < 200;
    p = list[p]?.parent ?? null, hops++
  )
    if (p === a) return true;
  return false;
}
