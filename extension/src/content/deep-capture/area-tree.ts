import { openOrClosedShadowRoot } from '../../platform/browser.js';
import { PAINTED_ONLY } from './pixels.js';

/**
 * Which elements an area shows, and where its clone is rooted.
 *
 * The page is walked as the browser renders it: the flat tree, through open shadow roots and slot
 * assignments, and through `display: contents` (no box, but its children have one). An element is
 * a *hit* when its box (grown by its shadow and outline, which paint outside it) overlaps the area
 * and it is painted at all. The *root* is the deepest element such that every hit is either above
 * it or inside it: everything the area shows is the root's subtree plus the backgrounds of its
 * ancestors (the backdrop). Some elements are atomic: the walk never goes inside SVG, replaced and
 * embedded content, or closed shadow roots.
 */

export interface ShadowInfo {
  root: ShadowRoot;
  closed: boolean;
}

export interface TreeEnv {
  /** The element's shadow root, open or closed (content scripts can see closed ones). */
  shadowOf(el: Element): ShadowInfo | null;
  /** Our own UI in the page (toolbar host, probe): never captured. */
  ignore(el: Element): boolean;
}

export interface ViewRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Never rendered, or content the clone must never carry. */
const SKIP_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'link',
  'meta',
  'head',
  'title',
  'noscript',
  'template',
  'base',
]);

/**
 * Replaced or embedded: painted as a whole, never walked into. The painted-only ones (pixels.ts)
 * and those the clone rebuilds as one element.
 */
const ATOMIC_TAGS: ReadonlySet<string> = new Set([
  ...PAINTED_ONLY,
  'svg',
  'img',
  'input',
  'textarea',
  'select',
]);

export function isSkipped(el: Element, env: TreeEnv): boolean {
  return SKIP_TAGS.has(el.localName) || env.ignore(el);
}

export function isAtomic(el: Element, env: TreeEnv): boolean {
  if (ATOMIC_TAGS.has(el.localName)) return true;
  return env.shadowOf(el)?.closed === true;
}

/** Child nodes as rendered: a shadow root's children, or a slot's assigned nodes. */
export function flatChildNodes(el: Element, env: TreeEnv): Node[] {
  const shadow = env.shadowOf(el);
  if (shadow !== null && !shadow.closed) return Array.from(shadow.root.childNodes);
  if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return Array.from(el.childNodes);
}

export function isElement(node: Node): node is Element {
  return node.nodeType === Node.ELEMENT_NODE;
}

function overlaps(a: ViewRect, b: ViewRect, by = 0): boolean {
  return a.left + by < b.right && a.right > b.left + by && a.top + by < b.bottom && a.bottom > b.top + by;
}

/**
 * A box must reach this far into the area to be a hit: an area drawn on whole pixels around an
 * element overlaps its neighbours by a fraction of a pixel, which shows nothing of them.
 */
const MIN_OVERLAP = 0.5;

/** How far a box's shadows and outline paint outside it (px). */
export function inkOverflow(cs: CSSStyleDeclaration): number {
  let extent = 0;
  if (cs.boxShadow !== 'none') {
    // Each shadow: colour then lengths `x y blur spread` (inset shadows paint inside).
    for (const shadow of cs.boxShadow.split(/,(?![^(]*\))/)) {
      if (/\binset\b/.test(shadow)) continue;
      const lengths = (shadow.match(/-?[\d.]+px/g) ?? []).map((v) => Math.abs(Number.parseFloat(v)));
      const [x = 0, y = 0, blur = 0, spread = 0] = lengths;
      extent = Math.max(extent, Math.max(x, y) + blur + spread);
    }
  }
  if (cs.outlineStyle !== 'none') {
    extent = Math.max(
      extent,
      Number.parseFloat(cs.outlineWidth) + Math.max(0, Number.parseFloat(cs.outlineOffset)),
    );
  }
  return extent;
}

/** Near the area, a box might reach it with its ink: only those pay for a computed style. */
const INK_MARGIN = 96;

export interface AreaHits {
  hits: Set<Element>;
  /** Hits and their flat-tree ancestors. */
  relevant: Set<Element>;
  parentOf: Map<Element, Element>;
}

export function collectHits(doc: Document, area: ViewRect, env: TreeEnv): AreaHits {
  const hits = new Set<Element>();
  const relevant = new Set<Element>();
  const parentOf = new Map<Element, Element>();
  const near: ViewRect = {
    left: area.left - INK_MARGIN,
    top: area.top - INK_MARGIN,
    right: area.right + INK_MARGIN,
    bottom: area.bottom + INK_MARGIN,
  };
  const stack: Element[] = [doc.documentElement];
  while (stack.length > 0) {
    const el = stack.pop();
    if (el === undefined || isSkipped(el, env)) continue;
    let walkChildren = !isAtomic(el, env);
    if (el.getClientRects().length === 0) {
      // No box: `display: contents` still renders its children; `display: none` does not.
      if (getComputedStyle(el).display !== 'contents') continue;
    } else {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && overlaps(r, near)) {
        const cs = getComputedStyle(el);
        if (cs.opacity === '0') {
          walkChildren = false;
        } else if (cs.visibility === 'visible') {
          const ink = inkOverflow(cs);
          const grown = {
            left: r.left - ink,
            top: r.top - ink,
            right: r.right + ink,
            bottom: r.bottom + ink,
          };
          if (overlaps(grown, area, MIN_OVERLAP)) hits.add(el);
        }
      }
    }
    if (!walkChildren) continue;
    for (const child of flatChildNodes(el, env)) {
      if (!isElement(child)) continue;
      parentOf.set(child, el);
      stack.push(child);
    }
  }
  for (const hit of hits) {
    for (let el: Element | undefined = hit; el !== undefined && !relevant.has(el); el = parentOf.get(el)) {
      relevant.add(el);
    }
  }
  return { hits, relevant, parentOf };
}

function hasOwnText(el: Element, env: TreeEnv): boolean {
  return flatChildNodes(el, env).some(
    (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
  );
}

function paintsPseudo(el: Element): boolean {
  for (const pseudo of ['::before', '::after']) {
    const content = getComputedStyle(el, pseudo).content;
    if (content !== 'none' && content !== 'normal') return true;
  }
  return false;
}

/** An element laid out inline: a poor clone root (its box would be blockified). */
function isInlineLevel(el: Element): boolean {
  const display = getComputedStyle(el).display;
  return display === 'contents' || display === 'inline' || display.startsWith('ruby');
}

/**
 * The deepest element with every hit above or inside it. Descends while exactly one child leads
 * to hits, stopping at own text and at hits that paint pseudo-elements (which the backdrop could
 * not carry); then climbs out of inline boxes and off `<html>`.
 */
export function findRoot(doc: Document, found: AreaHits, env: TreeEnv): Element {
  const body = doc.body ?? doc.documentElement;
  let cur: Element = doc.documentElement;
  for (;;) {
    if (isAtomic(cur, env) || hasOwnText(cur, env)) break;
    if (found.hits.has(cur) && cur !== doc.documentElement && paintsPseudo(cur)) break;
    const next = flatChildNodes(cur, env).filter((n): n is Element => isElement(n) && found.relevant.has(n));
    if (next.length !== 1 || next[0] === undefined) break;
    cur = next[0];
  }
  while (cur !== body && cur !== doc.documentElement && isInlineLevel(cur)) {
    const parent = found.parentOf.get(cur);
    if (parent === undefined) break;
    cur = parent;
  }
  return cur === doc.documentElement ? body : cur;
}

/** Flat-tree ancestors of `el`, nearest first. */
export function ancestorsOf(el: Element, parentOf: ReadonlyMap<Element, Element>): Element[] {
  const out: Element[] = [];
  for (let p = parentOf.get(el); p !== undefined; p = parentOf.get(p)) out.push(p);
  return out;
}

/** Elements a page may attach a shadow root to (others only carry the browser's own, e.g. `<details>`). */
const SHADOW_HOSTS: ReadonlySet<string> = new Set(
  'article aside blockquote body div footer h1 h2 h3 h4 h5 h6 header main nav p section span'.split(' '),
);

function canHostShadow(el: Element): boolean {
  return el.localName.includes('-') || SHADOW_HOSTS.has(el.localName);
}

/**
 * The environment of a content script: `chrome.dom.openOrClosedShadowRoot` (through the platform
 * seam) sees closed roots too; in a page's own world only open ones are visible, and a closed one
 * cannot be told apart.
 */
export function browserTreeEnv(ignoreTags: readonly string[]): TreeEnv {
  const ignored = new Set(ignoreTags);
  return {
    shadowOf(el) {
      const open = el.shadowRoot;
      if (open !== null) return { root: open, closed: false };
      if (!(el instanceof HTMLElement) || !canHostShadow(el)) return null;
      let any: ShadowRoot | null = null;
      try {
        any = openOrClosedShadowRoot(el);
      } catch {
        return null;
      }
      return any === null ? null : { root: any, closed: true };
    },
    ignore: (el) => ignored.has(el.localName),
  };
}
