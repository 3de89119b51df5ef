import type { CaptureNode, NodeChild, StyleMap } from '#shared/deep-capture/area-capture.js';
import { emptyCaptureNode } from '#shared/deep-capture/capture-node.js';
import { AREA_CAPTURE_LIMITS } from '#shared/deep-capture/limits.js';
import { type AreaHits, flatChildNodes, isAtomic, isElement, isSkipped, type TreeEnv } from './area-tree.js';
import { StaleMargins } from './auto-margins.js';
import type { StyleBaseline } from './baseline.js';
import type { FontUse } from './fonts.js';
import {
  collapsedBottomMargin,
  type GeometryContext,
  pinSticky,
  reanchorOutOfFlow,
  round,
} from './geometry.js';
import { allowedAttributes, isFormValueText, normalizeText, ownText } from './node-fields.js';
import { needsPixels } from './pixels.js';
import { LAYOUT_PROPERTIES } from './properties.js';
import { pseudoStyles } from './pseudo-styles.js';
import { type Computed, pickStyles, reduceStyles } from './reduce.js';
import { serializeSvg } from './svg-markup.js';

/**
 * Builds the capture's node list from the root down. Each child of a kept element is one of:
 *
 * - kept (a node with its own children) when it leads to a hit, or when it is inline content of
 *   a block that has text: a line cannot lose a word without reflowing, so inline content is
 *   kept whole;
 * - a `gap` when it is in the flow but outside the area: only its size and placement are kept,
 *   so its siblings do not move;
 * - left out when it is out of the flow (absolute, fixed) and outside the area, or not rendered.
 *
 * `display: contents` elements (slots included) have no box: their children are taken in their
 * place. Styles are reduced against the clone parent (the nearest kept ancestor), which is what
 * the clone's elements inherit from.
 */

export interface BuildOptions {
  env: TreeEnv;
  hits: AreaHits;
  baseline: StyleBaseline;
  /** Viewport position of the area's top-left. */
  origin: { x: number; y: number };
  /** False for the SingleFile-style baseline: every computed value on every node. */
  reduce: boolean;
}

/** Tags a gap may not keep (a gap is an empty box; these would render or parse as something else). */
const GAP_AS_DIV = new Set([
  'img',
  'input',
  'select',
  'textarea',
  'button',
  'video',
  'canvas',
  'iframe',
  'svg',
]);

const INLINE_DISPLAY = /^inline|^ruby/;

interface RenderedChild {
  node: Node;
  /** The DOM element the node sits in (a `display: contents` element when spliced). */
  domParent: Element;
}

export class NodeBuilder {
  readonly nodes: CaptureNode[] = [];
  readonly elements: Element[] = [];
  readonly fontUses: FontUse[] = [];
  readonly shadowRoots: ShadowRoot[] = [];
  truncated = false;
  gaps = 0;
  private readonly styleCache = new Map<Element, CSSStyleDeclaration>();
  private readonly indexOf = new Map<Element, number>();
  geometry: GeometryContext | null = null;
  /** Margins the browser reports as 0px although layout placed the box elsewhere. */
  private readonly margins = new StaleMargins(this);

  constructor(private readonly options: BuildOptions) {}

  style(el: Element): CSSStyleDeclaration {
    let cs = this.styleCache.get(el);
    if (cs === undefined) {
      cs = getComputedStyle(el);
      this.styleCache.set(el, cs);
    }
    return cs;
  }

  private readonly transformCache = new Map<Element, boolean>();

  /** Whether `el` or an ancestor is transformed (its client rect is then not its layout size). */
  transformed(el: Element): boolean {
    const cached = this.transformCache.get(el);
    if (cached !== undefined) return cached;
    const cs = this.style(el);
    const own = cs.transform !== 'none' || cs.scale !== 'none' || cs.rotate !== 'none' || cs.zoom !== '1';
    const parent = this.options.hits.parentOf.get(el);
    const result = own || (parent !== undefined && this.transformed(parent));
    this.transformCache.set(el, result);
    return result;
  }

  index(el: Element): number | undefined {
    return this.indexOf.get(el);
  }

  private styles(own: CSSStyleDeclaration, parent: CSSStyleDeclaration | null, box: DOMRect): StyleMap {
    const { names, initial } = this.options.baseline;
    const get =
      (cs: CSSStyleDeclaration): Computed =>
      (p) =>
        cs.getPropertyValue(p);
    if (!this.options.reduce) {
      return reduceStyles({ names, own: get(own), parent: null, initial: new Map(), box });
    }
    return reduceStyles({ names, own: get(own), parent: parent === null ? null : get(parent), initial, box });
  }

  private rect(el: Element) {
    const r = el.getBoundingClientRect();
    const o = this.options.origin;
    return { x: round(r.left - o.x), y: round(r.top - o.y), width: round(r.width), height: round(r.height) };
  }

  private push(node: CaptureNode, el: Element): number | null {
    if (this.nodes.length >= AREA_CAPTURE_LIMITS.nodes) {
      this.truncated = true;
      return null;
    }
    this.nodes.push(node);
    this.elements.push(el);
    this.indexOf.set(el, this.nodes.length - 1);
    return this.nodes.length - 1;
  }

  /** Adds `el` and, recursively, what of its subtree the clone needs. Returns its index. */
  visit(el: Element, parent: number | null, keepAll: boolean): number | null {
    const { env } = this.options;
    const cs = this.style(el);
    const parentCs = parent === null ? null : this.style(this.elements[parent] ?? el);
    const shadow = env.shadowOf(el);
    const closed = shadow?.closed === true;
    const kind = el.localName === 'svg' ? 'svg' : needsPixels(el, closed) ? 'pixels' : 'element';
    const styles = this.styles(cs, parentCs, el.getBoundingClientRect());
    const node: CaptureNode = {
      kind,
      tag: el.localName,
      parent,
      children: [],
      classes: Array.from(el.classList).slice(0, 50),
      role: el.getAttribute('role'),
      aria_label: el.getAttribute('aria-label'),
      text: '',
      rect: this.rect(el),
      attrs: allowedAttributes(el),
      styles,
      pseudo: kind === 'element' ? pseudoStyles(el, cs, this.options.baseline, this.fontUses) : {},
      states: [],
      image_src: imageSource(el),
      svg: kind === 'svg' ? serializeSvg(el) : null,
      pixels: null,
      shadow: shadow !== null && !closed,
      scroll: scrollOffset(el, cs),
    };
    if (!this.transformed(el)) exactSize(el, cs, styles);
    Object.assign(styles, this.margins.fix(el, cs, this.options.hits.parentOf.get(el)));
    const collapsed = collapsedBottomMargin(el, (e) => this.style(e));
    if (collapsed !== null) styles['margin-bottom'] = `${collapsed}px`;
    const index = this.push(node, el);
    if (index === null) return null;
    if (this.geometry !== null && parent !== null) {
      reanchorOutOfFlow(el, styles, this.geometry);
      pinSticky(el, styles, this.geometry);
    }
    if (shadow !== null && !closed) this.shadowRoots.push(shadow.root);
    if (kind === 'element' && !isAtomic(el, env)) this.visitChildren(el, index, node, keepAll);
    else if (el instanceof HTMLSelectElement) this.visitOptions(el, index, node);
    if (kind === 'element' && (node.text !== '' || TEXT_CONTROLS.has(el.localName))) {
      this.fontUses.push({ family: cs.fontFamily, weight: cs.fontWeight, style: cs.fontStyle });
    }
    if (kind === 'svg') this.svgFontUses(el);
    return index;
  }

  /** Text an inline SVG draws is set in the page's fonts too: the clone needs their files. */
  private svgFontUses(svg: Element): void {
    for (const text of Array.from(svg.querySelectorAll('text, tspan, textPath'))) {
      if ((text.textContent ?? '').trim() === '') continue;
      const tcs = getComputedStyle(text);
      this.fontUses.push({ family: tcs.fontFamily, weight: tcs.fontWeight, style: tcs.fontStyle });
    }
  }

  private renderedChildren(el: Element, out: RenderedChild[] = []): RenderedChild[] {
    const { env } = this.options;
    for (const child of flatChildNodes(el, env)) {
      if (child.nodeType === Node.TEXT_NODE) out.push({ node: child, domParent: el });
      if (!isElement(child) || isSkipped(child, env)) continue;
      if (child.getClientRects().length === 0) {
        if (this.style(child).display === 'contents') this.renderedChildren(child, out);
        continue;
      }
      out.push({ node: child, domParent: el });
    }
    return out;
  }

  private visitChildren(el: Element, index: number, node: CaptureNode, keepAll: boolean): void {
    const children = this.renderedChildren(el);
    const inFlow = (cs: CSSStyleDeclaration) => cs.position !== 'absolute' && cs.position !== 'fixed';
    const hasInline = children.some(({ node: c }) => {
      if (!isElement(c)) return (c.textContent ?? '').trim() !== '';
      const cs = this.style(c);
      return inFlow(cs) && cs.float === 'none' && INLINE_DISPLAY.test(cs.display);
    });
    const runs: string[] = [];
    const out: NodeChild[] = [];
    for (const { node: child, domParent } of children) {
      if (!isElement(child)) {
        if (isFormValueText(domParent)) continue;
        const text = normalizeText(child.textContent ?? '', this.style(domParent).whiteSpaceCollapse);
        if (text === '' || (!hasInline && text.trim() === '')) continue;
        const capped = text.slice(0, AREA_CAPTURE_LIMITS.textRun);
        out.push({ text: capped });
        runs.push(capped);
        continue;
      }
      const cs = this.style(child);
      const inline = hasInline && inFlow(cs) && INLINE_DISPLAY.test(cs.display);
      if (keepAll || inline || this.options.hits.relevant.has(child)) {
        const childIndex = this.visit(child, index, keepAll || inline);
        if (childIndex !== null) out.push(childIndex);
      } else if (inFlow(cs)) {
        const gap = this.gap(child, index);
        if (gap !== null) out.push(gap);
      }
    }
    node.children = out;
    node.text = ownText(runs);
  }

  /**
   * A select shows an option's text. Options are the page's content and are kept, but never which
   * one is selected (that is a form value): the clone shows the first, as an untouched form does.
   */
  private visitOptions(select: HTMLSelectElement, index: number, node: CaptureNode): void {
    const out: NodeChild[] = [];
    for (const option of Array.from(select.querySelectorAll('option'))) {
      const label = (option.label || option.textContent || '').slice(0, 500);
      const optionIndex = this.push(
        {
          ...emptyCaptureNode('option', index),
          children: [{ text: label }],
          text: label,
          attrs: allowedAttributes(option),
        },
        option,
      );
      if (optionIndex !== null) out.push(optionIndex);
    }
    node.children = out;
  }

  private gap(el: Element, parent: number): number | null {
    const cs = this.style(el);
    const parentCs = this.style(this.elements[parent] ?? el);
    const styles = pickStyles(this.styles(cs, parentCs, el.getBoundingClientRect()), LAYOUT_PROPERTIES);
    // Relative and sticky offsets move a box without changing the layout around it.
    for (const side of ['top', 'right', 'bottom', 'left']) delete styles[side];
    if (styles.position === 'relative' || styles.position === 'sticky') delete styles.position;
    Object.assign(styles, this.margins.fix(el, cs, this.options.hits.parentOf.get(el)));
    const collapsed = collapsedBottomMargin(el, (e) => this.style(e));
    if (collapsed !== null) styles['margin-bottom'] = `${collapsed}px`;
    this.gaps++;
    const tag = GAP_AS_DIV.has(el.localName) ? 'div' : el.localName;
    return this.push({ ...emptyCaptureNode(tag, parent), kind: 'gap', rect: this.rect(el), styles }, el);
  }
}

/** Controls whose text (a label, a placeholder, an option) is drawn with the element's font. */
const TEXT_CONTROLS = new Set(['input', 'select', 'button', 'textarea']);

/**
 * Box sizes at full precision. Computed values are serialised to six significant digits
 * (`334.609px` for 334.609375), and layout rounds that down to the next 1/64 px: every element
 * would be a hair smaller and the error adds up down a column. The border box from layout is
 * exact; when neither the element nor an ancestor is transformed it is the element's size.
 */
function exactSize(el: Element, cs: CSSStyleDeclaration, styles: StyleMap): void {
  const r = el.getBoundingClientRect();
  const n = (v: string) => Number.parseFloat(v) || 0;
  const contentBox = cs.boxSizing !== 'border-box';
  if (styles.width?.endsWith('px')) {
    const inner = contentBox
      ? n(cs.paddingLeft) + n(cs.paddingRight) + n(cs.borderLeftWidth) + n(cs.borderRightWidth)
      : 0;
    styles.width = `${r.width - inner}px`;
  }
  if (styles.height?.endsWith('px')) {
    const inner = contentBox
      ? n(cs.paddingTop) + n(cs.paddingBottom) + n(cs.borderTopWidth) + n(cs.borderBottomWidth)
      : 0;
    styles.height = `${r.height - inner - captionsHeight(el, cs)}px`;
  }
}

/**
 * A table's box from layout wraps its captions too, but its `height` sizes the grid alone: set to
 * the whole box, the clone's rows would share the captions' height between them.
 */
function captionsHeight(el: Element, cs: CSSStyleDeclaration): number {
  if (cs.display !== 'table' && cs.display !== 'inline-table') return 0;
  let sum = 0;
  for (const child of Array.from(el.children)) {
    const ccs = getComputedStyle(child);
    if (ccs.display !== 'table-caption') continue;
    const margins = (Number.parseFloat(ccs.marginTop) || 0) + (Number.parseFloat(ccs.marginBottom) || 0);
    sum += child.getBoundingClientRect().height + margins;
  }
  return sum;
}

/** Where a scroll container is scrolled to, when it is not at its start. */
function scrollOffset(el: Element, cs: CSSStyleDeclaration): { x: number; y: number } | null {
  if (cs.overflowX === 'visible' && cs.overflowY === 'visible') return null;
  const x = el.scrollLeft;
  const y = el.scrollTop;
  return x === 0 && y === 0 ? null : { x: round(x), y: round(y) };
}

/** The source an `<img>` (or image input) shows: currentSrc is the picture/srcset choice. */
function imageSource(el: Element): string | null {
  if (el instanceof HTMLImageElement) return el.currentSrc || el.src || null;
  if (el instanceof HTMLInputElement && el.type === 'image') return el.src || null;
  return null;
}
