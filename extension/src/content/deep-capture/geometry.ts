import type { StyleMap } from '#shared/deep-capture/area-capture.js';

/**
 * Where boxes are without their transforms, and the two layout fixes the clone needs because it
 * is cut out of its page:
 *
 * - an absolutely positioned or fixed element whose containing block is not in the capture (the
 *   viewport, or an ancestor above the root) is re-anchored to the root, which the clone
 *   positions absolutely, at the place it had on screen;
 * - a sticky element is shown where it was, as a relative offset from where the flow put it: in
 *   the clone, `position: sticky` would stick again, to the area's top (the area clips, so it is
 *   the scroll container), wherever the page had it.
 */

export interface LayoutBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

const px = (value: string) => Number.parseFloat(value) || 0;

/** The border box before transforms (exact for centred transform origins, the default). */
export function layoutBox(el: Element, cs: CSSStyleDeclaration): LayoutBox {
  const r = el.getBoundingClientRect();
  if (cs.transform === 'none' || cs.display === 'inline') {
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  }
  const he = el as HTMLElement;
  const width = he.offsetWidth ?? r.width;
  const height = he.offsetHeight ?? r.height;
  const m = /matrix(?:3d)?\(([^)]+)\)/.exec(cs.transform);
  const values = m?.[1]?.split(',').map((v) => Number.parseFloat(v)) ?? [];
  const is3d = values.length === 16;
  const tx = (is3d ? values[12] : values[4]) ?? 0;
  const ty = (is3d ? values[13] : values[5]) ?? 0;
  const cx = r.left + r.width / 2 - tx;
  const cy = r.top + r.height / 2 - ty;
  return { left: cx - width / 2, top: cy - height / 2, width, height };
}

/** Establishes a containing block for absolutely positioned (and, except `position`, fixed) descendants. */
function establishesContainingBlock(cs: CSSStyleDeclaration, forFixed: boolean): boolean {
  if (!forFixed && cs.position !== 'static') return true;
  if (cs.transform !== 'none' || cs.perspective !== 'none' || cs.filter !== 'none') return true;
  if (
    cs.backdropFilter !== 'none' ||
    cs.translate !== 'none' ||
    cs.rotate !== 'none' ||
    cs.scale !== 'none'
  ) {
    return true;
  }
  if (/\b(layout|paint|strict|content)\b/.test(cs.contain)) return true;
  if (cs.containerType !== 'normal') return true;
  return /\b(transform|perspective|filter)\b/.test(cs.willChange);
}

export interface GeometryContext {
  style(el: Element): CSSStyleDeclaration;
  parentOf: ReadonlyMap<Element, Element>;
  inCapture(el: Element): boolean;
  /** Viewport position of the root's padding box (its absolutely positioned children's origin). */
  rootOrigin: { x: number; y: number };
}

export function containingBlockOf(el: Element, ctx: GeometryContext): Element | null {
  const forFixed = ctx.style(el).position === 'fixed';
  for (let a = ctx.parentOf.get(el); a !== undefined; a = ctx.parentOf.get(a)) {
    if (establishesContainingBlock(ctx.style(a), forFixed)) return a;
  }
  return null;
}

const OFFSETS = ['top', 'right', 'bottom', 'left'] as const;

/** Re-anchors an out-of-flow element whose containing block was left out of the capture. */
export function reanchorOutOfFlow(el: Element, styles: StyleMap, ctx: GeometryContext): void {
  const cs = ctx.style(el);
  if (cs.position !== 'absolute' && cs.position !== 'fixed') return;
  const cb = containingBlockOf(el, ctx);
  if (cb !== null && ctx.inCapture(cb)) return;
  const box = layoutBox(el, cs);
  for (const side of OFFSETS) delete styles[side];
  styles.position = 'absolute';
  styles.left = `${round(box.left - ctx.rootOrigin.x - px(cs.marginLeft))}px`;
  styles.top = `${round(box.top - ctx.rootOrigin.y - px(cs.marginTop))}px`;
  // Percentage limits would now resolve against the root, not the containing block they were
  // resolved against; the size from layout already obeys them.
  for (const axis of ['width', 'height']) {
    if (!styles[axis]?.endsWith('px')) continue;
    for (const limit of [`min-${axis}`, `max-${axis}`]) {
      if (styles[limit]?.includes('%')) delete styles[limit];
    }
  }
}

function previousInFlowSibling(el: Element, ctx: GeometryContext): Element | null {
  for (let s = el.previousElementSibling; s !== null; s = s.previousElementSibling) {
    const cs = ctx.style(s);
    if (cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed') continue;
    if (s.getClientRects().length > 0) return s;
  }
  return null;
}

/**
 * A sticky element becomes relatively positioned by how far it was moved from its flow position
 * (none when it was not stuck), stacked as sticky stacks it.
 */
export function pinSticky(el: Element, styles: StyleMap, ctx: GeometryContext): void {
  const cs = ctx.style(el);
  if (cs.position !== 'sticky') return;
  const parent = ctx.parentOf.get(el);
  if (parent === undefined) return;
  const parentStyle = ctx.style(parent);
  // Flex and grid items are placed by their container, not by the previous sibling.
  if (/flex|grid/.test(parentStyle.display)) return;
  const prev = previousInFlowSibling(el, ctx);
  let flowTop: number;
  if (prev !== null) {
    const prevBox = layoutBox(prev, ctx.style(prev));
    const gap = Math.max(px(ctx.style(prev).marginBottom), px(cs.marginTop));
    flowTop = prevBox.top + prevBox.height + gap;
  } else {
    const parentBox = layoutBox(parent, parentStyle);
    flowTop = parentBox.top + px(parentStyle.borderTopWidth) + px(parentStyle.paddingTop) + px(cs.marginTop);
  }
  const shift = round(layoutBox(el, cs).top - flowTop);
  for (const side of OFFSETS) delete styles[side];
  styles.position = 'relative';
  if (Math.abs(shift) >= 0.5) styles.top = `${shift}px`;
  // Sticky always makes a stacking context; relative does only with a z-index.
  if (styles['z-index'] === undefined) styles['z-index'] = '0';
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

const BLOCK_LEVEL = /^(block|list-item|table|flow-root|flex|grid)$/;

/** Whether `cs` lets a child's bottom margin collapse through its box (CSS 2 §8.3.1). */
function collapsesThrough(cs: CSSStyleDeclaration): boolean {
  return (
    (cs.display === 'block' || cs.display === 'list-item') &&
    cs.overflowX === 'visible' &&
    cs.overflowY === 'visible' &&
    cs.float === 'none' &&
    (cs.position === 'static' || cs.position === 'relative' || cs.position === 'sticky') &&
    (Number.parseFloat(cs.paddingBottom) || 0) === 0 &&
    (Number.parseFloat(cs.borderBottomWidth) || 0) === 0
  );
}

/** The bottom margins of `el` and of the last children collapsing through it, as one value. */
function bottomMarginChain(el: Element, style: (el: Element) => CSSStyleDeclaration): number[] {
  const cs = style(el);
  const own = Number.parseFloat(cs.marginBottom) || 0;
  if (!collapsesThrough(cs)) return [own];
  let last: Element | null = null;
  for (let c = el.lastElementChild; c !== null; c = c.previousElementSibling) {
    const ccs = style(c);
    if (ccs.display === 'none' || ccs.position === 'absolute' || ccs.position === 'fixed') continue;
    if (ccs.float !== 'none') continue;
    last = c;
    break;
  }
  if (last === null || !BLOCK_LEVEL.test(style(last).display)) return [own];
  // Text after the last block would sit between the two margins.
  for (let n = last.nextSibling; n !== null; n = n.nextSibling) {
    if (n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '') return [own];
  }
  const chain = bottomMarginChain(last, style);
  const child = last.getBoundingClientRect().bottom + combine(chain);
  // Collapsed through only if the child's margin reaches past the parent's box.
  return child > el.getBoundingClientRect().bottom + 0.5 ? [own, ...chain] : [own];
}

const combine = (margins: number[]) =>
  Math.max(0, ...margins.filter((m) => m > 0)) + Math.min(0, ...margins.filter((m) => m < 0));

/**
 * The clone gives every block its height from layout, and a block with a set height lets no
 * child's bottom margin collapse through it: where the page collapsed its last child's bottom
 * margin through it, the block's own bottom margin in the clone is the collapsed one (null:
 * nothing collapsed through, the margin stays as it was).
 */
export function collapsedBottomMargin(
  el: Element,
  style: (el: Element) => CSSStyleDeclaration,
): number | null {
  const chain = bottomMarginChain(el, style);
  if (chain.length === 1) return null;
  return round(combine(chain));
}

/**
 * The first children whose top margins collapse through `root`'s top (CSS 2 §8.3.1), outermost
 * first. The clone places the root absolutely, which lets no margin collapse through it: those
 * margins would push the children down inside it. In the page the first of them starts where
 * the root starts, so the clone drops their top margins.
 */
export function collapsedTopChain(root: Element, style: (el: Element) => CSSStyleDeclaration): Element[] {
  const chain: Element[] = [];
  let el = root;
  for (;;) {
    const cs = style(el);
    const open =
      (cs.display === 'block' || cs.display === 'list-item') &&
      cs.overflowX === 'visible' &&
      cs.overflowY === 'visible' &&
      (Number.parseFloat(cs.paddingTop) || 0) === 0 &&
      (Number.parseFloat(cs.borderTopWidth) || 0) === 0 &&
      (el === root || (cs.float === 'none' && cs.position !== 'absolute' && cs.position !== 'fixed'));
    if (!open) return chain;
    let first: Element | null = null;
    for (let n = el.firstChild; n !== null; n = n.nextSibling) {
      if (n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '') return chain;
      if (!(n instanceof Element)) continue;
      const ccs = style(n);
      if (ccs.display === 'none' || ccs.position === 'absolute' || ccs.position === 'fixed') continue;
      if (ccs.float !== 'none') continue;
      first = n;
      break;
    }
    if (first === null || !BLOCK_LEVEL.test(style(first).display)) return chain;
    // Collapsed through: the child starts where the parent's box starts although it has a margin.
    if (Math.abs(first.getBoundingClientRect().top - el.getBoundingClientRect().top) > 0.5) return chain;
    chain.push(first);
    el = first;
  }
}
