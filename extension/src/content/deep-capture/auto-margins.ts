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

export type MarginFix = Partial<
  Record<'margin-left' | 'margin-right' | 'margin-top' | 'margin-bottom', string>
>;

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
  // `<center>` and `align` attributes centre blocks through `-webkit-` text alignment, kept as is.
  if (pcs.textAlign.startsWith('-webkit-')) return null;
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

/** An axis of a flex container: a row runs left to right, a column top to bottom. */
const AXES = {
  x: {
    start: 'left',
    size: 'width',
    client: 'clientWidth',
    scroll: 'scrollLeft',
    gap: 'columnGap',
    margins: ['margin-left', 'margin-right'],
    cs: ['marginLeft', 'marginRight', 'paddingLeft', 'paddingRight', 'borderLeftWidth'],
  },
  y: {
    start: 'top',
    size: 'height',
    client: 'clientHeight',
    scroll: 'scrollTop',
    gap: 'rowGap',
    margins: ['margin-top', 'margin-bottom'],
    cs: ['marginTop', 'marginBottom', 'paddingTop', 'paddingBottom', 'borderTopWidth'],
  },
} as const;
type Axis = (typeof AXES)[keyof typeof AXES];

/** An item's place along an axis: its border box and the margins the browser reports. */
interface Span {
  from: number;
  to: number;
  ms: number;
  me: number;
}

function span(el: Element, cs: CSSStyleDeclaration, axis: Axis): Span {
  const box = layoutBox(el, cs);
  const from = box[axis.start] - (cs.position === 'relative' ? px(cs[axis.start]) : 0);
  return { from, to: from + box[axis.size], ms: px(cs[axis.cs[0]]), me: px(cs[axis.cs[1]]) };
}

/** The container's content box along an axis. */
function contentOf(container: Element, ccs: CSSStyleDeclaration, axis: Axis): { start: number; end: number } {
  const [, , padStart, padEnd, borderStart] = axis.cs;
  const start = container.getBoundingClientRect()[axis.start] + px(ccs[borderStart]) + px(ccs[padStart]);
  return { start, end: start + container[axis.client] - px(ccs[padStart]) - px(ccs[padEnd]) };
}

/** Where `justify-content` puts the first item, and the space from one item to the next. */
function distribute(
  justify: string,
  free: number,
  n: number,
  gap: number,
): { start: number; between: number } {
  if (/^(flex-end|end|right)$/.test(justify)) return { start: free, between: gap };
  if (justify === 'center') return { start: free / 2, between: gap };
  if (justify === 'space-between') return { start: 0, between: n > 1 ? gap + free / (n - 1) : gap };
  if (justify === 'space-around') return { start: free / n / 2, between: gap + free / n };
  if (justify === 'space-evenly') return { start: free / (n + 1), between: gap + free / (n + 1) };
  return { start: 0, between: gap };
}

/**
 * The main axis: where `justify-content` would put the items with the margins the browser
 * reports, against where they are. When they disagree, an auto margin took the free space
 * (`ms-auto`, or a footer pushed to the bottom of a `min-height: 100vh` column by
 * `margin-top: auto`): every item's margins become the px that put it where it is, which leaves
 * `justify-content` nothing to move in the clone.
 */
function mainAxis(
  items: { el: Element; s: Span }[],
  content: { start: number; end: number },
  justify: string,
  gap: number,
  axis: Axis,
  fixes: Map<Element, MarginFix>,
): void {
  const n = items.length;
  const used = items.reduce((sum, { s }) => sum + s.ms + (s.to - s.from) + s.me, 0);
  const free = content.end - content.start - used - gap * (n - 1);
  if (free <= 0.5) return;
  const { start, between } = distribute(justify, free, n, gap);
  let cursor = content.start + start;
  let agrees = true;
  for (const { s } of items) {
    if (Math.abs(cursor + s.ms - s.from) > 0.5) agrees = false;
    cursor += s.ms + (s.to - s.from) + s.me + between;
  }
  if (agrees) return;
  let end = content.start;
  items.forEach(({ el, s }, i) => {
    const ms = s.from - end;
    const me = i === n - 1 ? content.end - s.to : s.me;
    if (Math.abs(ms - s.ms) > 0.5) setFix(fixes, el, axis.margins[0], ms);
    if (Math.abs(me - s.me) > 0.5) setFix(fixes, el, axis.margins[1], me);
    end = s.to + me + gap;
  });
}

/**
 * The cross axis of a single-line container: an item that `align-self` would put elsewhere with
 * its reported margins was placed by auto margins (`mx-auto` in a column, `my-auto` in a row):
 * its cross margins become the px around it, which leaves `align-self` nothing to move.
 */
function crossAxis(
  el: Element,
  cs: CSSStyleDeclaration,
  align: string,
  content: { start: number; end: number },
  axis: Axis,
  fixes: Map<Element, MarginFix>,
): void {
  const s = span(el, cs, axis);
  const size = s.to - s.from;
  let expected: number;
  if (/^(flex-end|end|self-end)$/.test(align)) expected = content.end - s.me - size;
  else if (align === 'center')
    expected = content.start + s.ms + (content.end - content.start - s.ms - size - s.me) / 2;
  else if (/^(normal|stretch|flex-start|start|self-start)$/.test(align)) expected = content.start + s.ms;
  else return; // baseline alignment depends on the text: not simulated
  if (Math.abs(expected - s.from) <= 0.5) return;
  setFix(fixes, el, axis.margins[0], s.from - content.start);
  setFix(fixes, el, axis.margins[1], content.end - s.to);
}

function setFix(fixes: Map<Element, MarginFix>, el: Element, side: keyof MarginFix, value: number): void {
  fixes.set(el, { ...fixes.get(el), [side]: `${round(value)}px` });
}

/**
 * The items of a single-line flex row (left to right) or column (top to bottom) placed by margins
 * the browser reports as 0px: their px margins along either axis. Null: nothing to change.
 */
export function staleFlexMargins(container: Element, ctx: MarginContext): Map<Element, MarginFix> | null {
  const ccs = ctx.style(container);
  const direction = ccs.flexDirection;
  if (container.shadowRoot !== null || !/^(inline-)?flex$/.test(ccs.display)) return null;
  if (direction !== 'row' && direction !== 'column') return null;
  if (ccs.direction !== 'ltr' || ccs.writingMode !== 'horizontal-tb' || ctx.transformed(container))
    return null;
  if (container.scrollLeft !== 0 || container.scrollTop !== 0) return null;
  // Text runs and ::before/::after are flex items too, without a box of their own to measure.
  for (const n of Array.from(container.childNodes)) {
    if (n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '') return null;
  }
  for (const pseudo of ['::before', '::after']) {
    if (!/^(none|normal)$/.test(getComputedStyle(container, pseudo).content)) return null;
  }
  const main = AXES[direction === 'row' ? 'x' : 'y'];
  const cross = AXES[direction === 'row' ? 'y' : 'x'];
  const items: { el: Element; s: Span }[] = [];
  for (const el of Array.from(container.children)) {
    const cs = ctx.style(el);
    if (cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed') continue;
    if (cs.display === 'contents' || el.getClientRects().length === 0) return null;
    items.push({ el, s: span(el, cs, main) });
  }
  // Wrapped onto several lines, or reordered: not simulated.
  if (items.length === 0 || items.some(({ s }, i) => i > 0 && s.from < (items[i - 1]?.s.to ?? 0) - 0.5)) {
    return null;
  }
  const fixes = new Map<Element, MarginFix>();
  const gap = ccs[main.gap] === 'normal' ? 0 : px(ccs[main.gap]);
  mainAxis(items, contentOf(container, ccs, main), ccs.justifyContent, gap, main, fixes);
  // A wrapping container's one line is placed by `align-content`: its cross axis is not simulated.
  if (ccs.flexWrap === 'nowrap') {
    const crossContent = contentOf(container, ccs, cross);
    for (const { el } of items) {
      const cs = ctx.style(el);
      crossAxis(el, cs, cs.alignSelf === 'auto' ? ccs.alignItems : cs.alignSelf, crossContent, cross, fixes);
    }
  }
  return fixes.size === 0 ? null : fixes;
}

/** Both fixes, each flex container simulated once. */
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
