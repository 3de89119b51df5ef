import type { DesignerStyles, Typography } from '#shared/toolbar-messages.js';
import { parseCssColor, type Rgba } from './color.js';
import { PaletteCounter, type PaletteEntry } from './palette.js';
import { type SelectorElement, uniqueSelector } from './selector.js';

/** DOM reading for the toolbar: selectors, designer styles, colours, palette, semantic sections. */

export const HOST_TAG = 'x-ipe-uiux-toolbar';

/**
 * Joins the selectors of an element inside open shadow roots: each part is unique in its own root
 * (the document, then each host's shadow root), as puppeteer's `>>>>` and `resolveSelector` read it.
 */
export const SHADOW_STEP = ' >>>> ';

/**
 * A unique selector, verified with querySelectorAll to resolve to exactly `el`. Inside open shadow
 * roots it says how to reach the element: the host's selector, `>>>>`, the selector in its root.
 */
export function selectorFor(el: Element): string {
  const parts: string[] = [];
  for (let node: Element | null = el; node; ) {
    const root = node.getRootNode();
    const scope: ParentNode = root instanceof ShadowRoot ? root : document;
    parts.unshift(
      uniqueSelector(node as unknown as SelectorElement, (selector, target) => {
        try {
          const hits = scope.querySelectorAll(selector);
          return hits.length === 1 && hits[0] === (target as unknown as Element);
        } catch {
          return false;
        }
      }),
    );
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return parts.join(SHADOW_STEP);
}

/** The element a selector from `selectorFor` names (through open shadow roots), or null. */
export function resolveSelector(selector: string): Element | null {
  let scope: ParentNode | null = document;
  let found: Element | null = null;
  for (const part of selector.split(SHADOW_STEP)) {
    if (!scope) return null;
    try {
      found = scope.querySelector(part);
    } catch {
      return null;
    }
    scope = found?.shadowRoot ?? null;
  }
  return found;
}

const STYLE_PROPS = [
  'font-family',
  'font-size',
  'font-weight',
  'line-height',
  'letter-spacing',
  'text-transform',
  'color',
  'background-color',
  'background-image',
  'padding',
  'margin',
  'gap',
  'border',
  'border-radius',
  'box-shadow',
  'opacity',
  'display',
] as const;

const BORING: Record<string, string[]> = {
  'background-image': ['none'],
  'box-shadow': ['none'],
  opacity: ['1'],
  'text-transform': ['none'],
  gap: ['normal'],
  'letter-spacing': ['normal'],
  'border-radius': ['0px'],
  border: [''],
};

/** The computed styles a designer cares about (typography, colours, spacing, radius, border, shadow). */
export function designerStyles(el: Element): DesignerStyles {
  const cs = getComputedStyle(el);
  const out: DesignerStyles = {};
  for (const prop of STYLE_PROPS) {
    let v = cs.getPropertyValue(prop).trim();
    if (prop === 'border' && v === '') {
      const w = cs.getPropertyValue('border-top-width');
      if (w !== '0px')
        v = `${w} ${cs.getPropertyValue('border-top-style')} ${cs.getPropertyValue('border-top-color')}`;
    }
    if (prop === 'border' && /^0px/.test(v)) continue;
    if (BORING[prop]?.includes(v)) continue;
    if (v.length > 0) out[prop] = v.length > 1024 ? v.slice(0, 1024) : v;
  }
  return out;
}

let probeCtx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null = null;

/** Any CSS colour (oklch, lab, named…) to sRGB bytes, through a 1×1 canvas when needed. */
export function toRgba(value: string): Rgba | null {
  const direct = parseCssColor(value);
  if (direct) return direct;
  if (!probeCtx) probeCtx = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
  if (!probeCtx) return null;
  probeCtx.clearRect(0, 0, 1, 1);
  probeCtx.fillStyle = '#000000';
  probeCtx.fillStyle = value;
  probeCtx.fillRect(0, 0, 1, 1);
  const d = probeCtx.getImageData(0, 0, 1, 1).data;
  return { r: d[0] ?? 0, g: d[1] ?? 0, b: d[2] ?? 0, a: (d[3] ?? 255) / 255 };
}

/**
 * An empty, transparent layer over the whole viewport: pages use these to swallow clicks (or to
 * defeat pickers). Nothing a designer would want to pick.
 */
function isClickShield(el: Element): boolean {
  if (el.childElementCount > 0 || (el.textContent ?? '').trim() !== '') return false;
  const r = el.getBoundingClientRect();
  if (r.width < window.innerWidth * 0.95 || r.height < window.innerHeight * 0.95) return false;
  const cs = getComputedStyle(el);
  const bg = toRgba(cs.backgroundColor);
  return (bg === null || bg.a === 0) && cs.backgroundImage === 'none';
}

/**
 * The deepest visible element whose box contains the point, by geometry alone: hit testing skips
 * `pointer-events: none`, which a page can set on everything to defeat pickers.
 */
function geometricElementAt(x: number, y: number, limit = 6000): Element | null {
  let best: Element | null = null;
  let bestDepth = -1;
  const all = document.body ? document.body.getElementsByTagName('*') : [];
  const n = Math.min(all.length, limit);
  for (let i = 0; i < n; i++) {
    const el = all[i];
    if (!el || el.localName === HOST_TAG) continue;
    const r = el.getBoundingClientRect();
    if (x < r.left || x >= r.right || y < r.top || y >= r.bottom || r.width === 0 || r.height === 0) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none' || isClickShield(el)) continue;
    let depth = 0;
    for (let p = el.parentElement; p; p = p.parentElement) depth++;
    // Later in document order paints on top at equal depth.
    if (depth >= bestDepth) {
      best = el;
      bestDepth = depth;
    }
  }
  return best;
}

/**
 * Paints nothing a designer could see: hidden, or transparent through its own or an ancestor's
 * `opacity: 0` (hover overlays waiting for a :hover the toolbar's shield never gives them).
 */
function paintsNothing(el: Element): boolean {
  if (getComputedStyle(el).visibility === 'hidden') return true;
  for (let node: Element | null = el; node; node = composedParent(node))
    if (getComputedStyle(node).opacity === '0') return true;
  return false;
}

/** The parent element, or the host at the top of a shadow root. */
export function composedParent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** The first element of a hit test that belongs to `scope` and paints something. */
function firstVisible(hits: Element[], scope: Document | ShadowRoot): Element | null {
  for (const el of hits) {
    if (el.localName === HOST_TAG || isClickShield(el)) continue;
    // A shadow root's hit test also lists the hosts and light-DOM ancestors around it.
    if (scope !== document && el.getRootNode() !== scope) continue;
    if (paintsNothing(el)) continue;
    return el;
  }
  return null;
}

/**
 * The page element under a point, as the designer sees it: skipping our own host, invisible click
 * shields and elements that paint nothing, and stepping into open shadow roots (web components)
 * down to the element itself rather than its host.
 */
export function pageElementAt(x: number, y: number): Element | null {
  let picked = firstVisible(document.elementsFromPoint(x, y), document);
  if (!picked || picked === document.documentElement || picked === document.body)
    return geometricElementAt(x, y) ?? picked;
  for (let inner = picked.shadowRoot; inner; inner = picked.shadowRoot) {
    const deeper = firstVisible(inner.elementsFromPoint(x, y), inner);
    if (!deeper) break;
    picked = deeper;
  }
  return picked;
}

const SECTION_SELECTOR = 'header, nav, main, section, footer, aside, article, form, [role]';
const IGNORED_ROLES = new Set(['presentation', 'none', 'img', 'link', 'button', 'text', 'generic']);

/** The nearest semantic section around `el` (header, nav, section, main, footer, [role] …). */
export function semanticSection(el: Element | null): Element | null {
  for (let node = el; node && node !== document.documentElement; node = composedParent(node)) {
    if (!node.matches(SECTION_SELECTOR)) continue;
    const role = node.getAttribute('role');
    if (
      role !== null &&
      !node.matches('header, nav, main, section, footer, aside, article, form') &&
      IGNORED_ROLES.has(role)
    )
      continue;
    const r = node.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) return node;
  }
  return null;
}

/** The smallest element whose box contains the rectangle (to name an area by selector). */
export function elementContaining(rect: { x: number; y: number; width: number; height: number }): Element {
  let node: Element | null = pageElementAt(rect.x + rect.width / 2, rect.y + rect.height / 2);
  while (node && node !== document.documentElement) {
    const r = node.getBoundingClientRect();
    if (
      r.left <= rect.x + 1 &&
      r.top <= rect.y + 1 &&
      r.right >= rect.x + rect.width - 1 &&
      r.bottom >= rect.y + rect.height - 1
    )
      return node;
    node = composedParent(node);
  }
  return document.body ?? document.documentElement;
}

/** Blocks of running text: where the body text's font and size are read from. */
const TEXT_BLOCKS = 'p, li, dd, blockquote, td';

/**
 * The page's typography: the body text's font and size are those set on the most text in
 * paragraph-like blocks (a page with `body { font-size: 62.5% }` and 1.6rem paragraphs has 16 px
 * body text), falling back to <body>'s; the heading font is the first h1/h2's.
 */
export function pageTypography(): Typography {
  const out: Typography = {};
  const volume = new Map<string, number>();
  for (const el of Array.from(document.querySelectorAll(TEXT_BLOCKS)).slice(0, 400)) {
    let chars = 0;
    for (const n of Array.from(el.childNodes))
      if (n.nodeType === Node.TEXT_NODE) chars += (n.textContent ?? '').trim().length;
    if (chars === 0) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const key = `${cs.fontSize}\n${cs.fontFamily}`;
    volume.set(key, (volume.get(key) ?? 0) + chars);
  }
  const top = [...volume].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (top) {
    const [size = '', family = ''] = top.split('\n');
    out.base_size = size;
    out.body_font = family;
  } else if (document.body) {
    const cs = getComputedStyle(document.body);
    out.body_font = cs.fontFamily;
    out.base_size = cs.fontSize;
  }
  const heading = document.querySelector('h1, h2');
  if (heading) out.heading_font = getComputedStyle(heading).fontFamily;
  return out;
}

/** Colours in use on the page, with counts: backgrounds, text, borders, SVG fills. */
export function scanPalette(limit = 4000): PaletteEntry[] {
  const counter = new PaletteCounter();
  const all = document.body ? document.body.querySelectorAll('*') : [];
  const els = [document.body, ...Array.from(all).slice(0, limit)];
  for (const el of els) {
    if (!el || el.localName === HOST_TAG) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const name = el.localName;
    const bg = toRgba(cs.backgroundColor);
    if (bg && bg.a > 0) counter.add(bg, 'background', name);
    const hasText = Array.from(el.childNodes).some(
      (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
    );
    if (hasText) {
      const fg = toRgba(cs.color);
      if (fg) counter.add(fg, 'text', name);
    }
    if (cs.borderTopStyle !== 'none' && cs.borderTopWidth !== '0px') {
      const b = toRgba(cs.borderTopColor);
      if (b) counter.add(b, 'border', name);
    }
    if (el instanceof SVGElement && cs.fill && cs.fill !== 'none') {
      const f = toRgba(cs.fill);
      if (f) counter.add(f, 'fill', name);
    }
  }
  return counter.entriesByCount(40);
}

/** A short text sample to recognise an element in the list. */
export function textSample(el: Element): string | undefined {
  const t = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  return t.length === 0 ? undefined : t.slice(0, 80);
}

/**
 * The layout viewport including scrollbars: that is what captureVisibleTab images, so crops scale
 * by image size / this. (Bands of a full-page shot use clientWidth/clientHeight instead.)
 */
export function viewportInfo(): { width: number; height: number; dpr: number } {
  return { width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio || 1 };
}

export const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

/** Two frames: the first commits our style change, the second guarantees it was presented. */
export async function afterPaint(): Promise<void> {
  await nextFrame();
  await nextFrame();
}
