import { layoutBox, round } from './geometry.js';

/**
 * Margins measured from layout where the browser reports them wrong. Chromium reports `auto`
 * margins as `0px` once a box has been laid out again on its own account (a descendant
 * absolutely placed box changing size: a picture arriving, a video learning its size, a
 * carousel moving), while the page still shows the box where the auto margins put it. A
 * `margin-inline: auto` container (centred in every grid framework) or a flex item pushed along
 * by an auto margin (`ms-auto`) would then be drawn at its parent's start in the clone, and all
 * it holds with it. Only margins that the boxes' places contradict are replaced, with px.
 */

export interface MarginContext {
  style(el: Element): CSSStyleDeclaration;
  transformed(el: Element): boolean;
}

export type MarginFix = Partial<Record<'margin-left' | 'margin-right', string>>;

const px = (value: string) => Number.parseFloat(value) || 0;

/** Lays out its in-flow children as blocks, one under the other (CSS 2 §10.3.3 applies to them). */
const BLOCK_FLOW = /^(block|list-item|flow-root|inline-block|table-cell|table-caption)$/;
const BLOCK_BOX = /^(block|list-item|flow-root|table|flex|grid)$/;

/**
 * A block-level box in a block container: its start margin (left, or right in a right-to-left
 * container; layout ignores the end one) when it is reported `0px` but the box sits elsewhere.
 * Floats beside the box move a new formatting context without a margin, so a box after a float
 * is left as it is.
 */
export function staleInlineMargin(
  el: Element,
  cs: CSSStyleDeclaration,
  parent: Element | undefined,
  ctx: MarginContext,
): MarginFix | null {
  if (parent === undefined || !BLOCK_BOX.test(cs.display) || cs.float !== 'none') return null;
  if (cs.position !== 'static' && cs.position !== 'relative') return null;
  const pcs = ctx.style(parent);
  if (!BLOCK_FLOW.test(pcs.display) || ctx.transformed(el)) return null;
  if (cs.writingMode !== 'horizontal-tb' || pcs.writingMode !== 'horizontal-tb') return null;
  const rtl = pcs.direction === 'rtl';
  const side = rtl ? 'margin-right' : 'margin-left';
  if (cs.getPropertyValue(side) !== '0px' || parent.scrollLeft !== 0) return null;
  for (let s = el.previousElementSibling; s !== null; s = s.previousElementSibling) {
    if (ctx.style(s).float !== 'none') return null;
  }
  const shift = cs.position === 'relative' ? px(cs.left) : 0;
  const r = el.getBoundingClientRect();
  const pr = parent.getBoundingClientRect();
  let used: number;
  if (rtl) {
    const scrollbar =
      parent === parent.ownerDocument.documentElement
        ? 0
        : (parent as HTMLElement).offsetWidth -
          parent.clientWidth -
          px(pcs.borderLeftWidth) -
          px(pcs.borderRightWidth);
    const contentRight = pr.right - px(pcs.borderRightWidth) - px(pcs.paddingRight) - Math.max(0, scrollbar);
    used = contentRight - (r.right - shift);
  } else {
    used = r.left - shift - (pr.left + px(pcs.borderLeftWidth) + px(pcs.paddingLeft));
  }
  return Math.abs(used) > 0.5 ? { [side]: `${round(used)}px` } : null;
}

/**
 * The items of a single-line, left-to-right flex row: where `justify-content` would put them with
 * the margins the browser reports, against where they are. When they disagree, an auto margin
 * took the free space: each item's margins become the px that put it where it is, which leaves
 * no free space for `justify-content` to move them in the clone. Null: nothing to change.
 */
export function staleFlexMargins(container: Element, ctx: MarginContext): Map<Element, MarginFix> | null {
  const ccs = ctx.style(container);
  if (
    container.shadowRoot !== null ||
    !/^(inline-)?flex$/.test(ccs.display) ||
    ccs.flexDirection !== 'row' ||
    ccs.direction !== 'ltr'
  ) {
    return null;
  }
  if (ccs.writingMode !== 'horizontal-tb' || ctx.transformed(container) || container.scrollLeft !== 0) {
    return null;
  }
  const items: { el: Element; left: number; right: number; ml: number; mr: number }[] = [];
  for (const el of Array.from(container.children)) {
    const cs = ctx.style(el);
    if (cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed') continue;
    if (cs.display === 'contents' || el.getClientRects().length === 0) return null;
    const box = layoutBox(el, cs);
    const shift = cs.position === 'relative' ? px(cs.left) : 0;
    items.push({
      el,
      left: box.left - shift,
      right: box.left - shift + box.width,
      ml: px(cs.marginLeft),
      mr: px(cs.marginRight),
    });
  }
  if (items.length === 0 || items.some((it, i) => i > 0 && it.left < (items[i - 1]?.right ?? 0) - 0.5)) {
    return null; // wrapped onto several lines, or reordered: not simulated
  }
  const cr = container.getBoundingClientRect();
  const contentLeft = cr.left + px(ccs.borderLeftWidth) + px(ccs.paddingLeft);
  const contentRight = contentLeft + container.clientWidth - px(ccs.paddingLeft) - px(ccs.paddingRight);
  const gap = ccs.columnGap === 'normal' ? 0 : px(ccs.columnGap);
  const used = items.reduce((sum, it) => sum + it.ml + (it.right - it.left) + it.mr, 0);
  const n = items.length;
  const free = contentRight - contentLeft - used - gap * (n - 1);
  if (free <= 0.5) return null;
  let start = 0;
  let between = gap;
  switch (ccs.justifyContent) {
    case 'flex-end':
    case 'end':
    case 'right':
      start = free;
      break;
    case 'center':
      start = free / 2;
      break;
    case 'space-between':
      between = n > 1 ? gap + free / (n - 1) : gap;
      break;
    case 'space-around':
      start = free / n / 2;
      between = gap + free / n;
      break;
    case 'space-evenly':
      start = free / (n + 1);
      between = gap + free / (n + 1);
      break;
  }
  let cursor = contentLeft + start;
  let agrees = true;
  for (const it of items) {
    if (Math.abs(cursor + it.ml - it.left) > 0.5) agrees = false;
    cursor += it.ml + (it.right - it.left) + it.mr + between;
  }
  if (agrees) return null;
  const fixes = new Map<Element, MarginFix>();
  let end = contentLeft;
  items.forEach((it, i) => {
    const fix: MarginFix = {};
    const ml = it.left - end;
    if (Math.abs(ml - it.ml) > 0.5) fix['margin-left'] = `${round(ml)}px`;
    const mr = i === n - 1 ? contentRight - it.right : it.mr;
    if (Math.abs(mr - it.mr) > 0.5) fix['margin-right'] = `${round(mr)}px`;
    if (Object.keys(fix).length > 0) fixes.set(it.el, fix);
    end = it.right + mr + gap;
  });
  return fixes;
}

/** Both fixes, each flex row simulated once. */
export class StaleMargins {
  private readonly rows = new Map<Element, Map<Element, MarginFix> | null>();

  constructor(private readonly ctx: MarginContext) {}

  fix(el: Element, cs: CSSStyleDeclaration, parent: Element | undefined): MarginFix | null {
    const fix = staleInlineMargin(el, cs, parent, this.ctx);
    if (fix !== null || parent === undefined || !/flex$/.test(this.ctx.style(parent).display)) return fix;
    if (!this.rows.has(parent)) this.rows.set(parent, staleFlexMargins(parent, this.ctx));
    return this.rows.get(parent)?.get(el) ?? null;
  }
}
