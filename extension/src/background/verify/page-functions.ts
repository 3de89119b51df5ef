/**
 * Functions `render_candidate` runs in the candidate's tab (isolated world, scripting.executeScript).
 * Each is serialised on its own, so each is self-contained: no imports, no outer names (types only).
 */

import type { PageMetrics } from '../screenshot/page-functions.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Read {
  /** False when the time limit came before the page's fonts and images. */
  ready: boolean;
  /** The page as it stands after the read (viewport, scroll, device pixel ratio). */
  metrics: PageMetrics;
  found: boolean;
  region: Box;
  elements: Array<{
    tag: string;
    text: string;
    selector: string;
    rect: Box;
    parent: number | null;
    styles: Record<string, string>;
  }>;
}

/**
 * Once the page has loaded, its fonts are ready and its images decoded (or failed), and two frames
 * later (or at `timeoutMs`): the region (the selector's border box, or the page's top-left,
 * `width`×`height` CSS px) and every rendered element in it: tag, own text, a short selector, its
 * box relative to the region, its nearest listed ancestor, and the computed values of `keys`.
 * Page coordinates, so the scroll position does not matter. One injection for all of it: each
 * costs tens of milliseconds on the answer's path.
 */
export async function readCandidate(options: {
  timeoutMs: number;
  /** Absent or null: the page's top-left (a null may arrive as absent through the injection). */
  selector?: string | null;
  width: number;
  height: number;
  keys: string[];
  max: number;
}): Promise<Read> {
  const limit = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), options.timeoutMs));
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
  const settled = loaded
    .then(() => document.fonts.ready)
    .then(() =>
      Promise.all(
        Array.from(document.images).map((img) =>
          img.complete ? Promise.resolve() : img.decode().catch(() => undefined),
        ),
      ),
    )
    .then(
      () =>
        new Promise<boolean>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))),
        ),
    );
  const ready = await Promise.race([settled, limit]);
  // preparePage's reading (screenshot/page-functions.ts), which an injected function cannot import.
  const de = document.documentElement;
  const metrics: PageMetrics = {
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    viewportWidth: window.innerWidth,
    viewportHeight: window.innerHeight,
    clientWidth: de.clientWidth,
    clientHeight: de.clientHeight,
    scrollHeight: Math.max(de.scrollHeight, document.body?.scrollHeight ?? 0),
    dpr: window.devicePixelRatio || 1,
  };
  const css = (s: string): string => (typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(s) : s);
  let origin = { x: 0, y: 0 };
  if (typeof options.selector === 'string') {
    const el = document.querySelector(options.selector);
    if (el === null)
      return { ready, metrics, found: false, region: { x: 0, y: 0, width: 0, height: 0 }, elements: [] };
    const r = el.getBoundingClientRect();
    origin = { x: r.left + window.scrollX, y: r.top + window.scrollY };
  }
  const region = { ...origin, width: options.width, height: options.height };
  const unique = (sel: string): boolean => {
    try {
      return document.querySelectorAll(sel).length === 1;
    } catch {
      return false;
    }
  };
  const own = (el: Element): string => {
    let text = '';
    for (const child of Array.from(el.childNodes)) if (child.nodeType === 3) text += child.textContent ?? '';
    return text.replace(/\s+/g, ' ').trim().slice(0, 500);
  };
  const step = (el: Element): string => {
    if (el.id !== '' && /^[A-Za-z][\w-]*$/.test(el.id)) return `#${el.id}`;
    const tag = el.localName;
    const classes = Array.from(el.classList)
      .filter((c) => /^[A-Za-z_-][\w-]*$/.test(c))
      .slice(0, 2)
      .map((c) => `.${css(c)}`)
      .join('');
    return classes !== '' ? (tag === 'div' || tag === 'span' ? classes : `${tag}${classes}`) : tag;
  };
  const selectorOf = (el: Element): string => {
    const parts: string[] = [];
    let node: Element | null = el;
    while (node !== null && node !== document.documentElement) {
      let part = step(node);
      const parent: Element | null = node.parentElement;
      if (parent !== null && !part.startsWith('#')) {
        const same = Array.from(parent.children).filter((c) => c.localName === node?.localName);
        const sel = [part, ...parts].join(' ');
        if (!unique(sel) && same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
      }
      parts.unshift(part);
      const sel = parts.join(' ');
      if (unique(sel) || part.startsWith('#') || parts.length >= 4) return sel.slice(0, 300);
      node = parent;
    }
    return parts.join(' ').slice(0, 300);
  };
  const elements: Read['elements'] = [];
  const index = new Map<Element, number>();
  const walk = (el: Element, parent: number | null): void => {
    if (elements.length >= options.max) return;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') return;
    const tag = el.localName;
    if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'head') return;
    const r = el.getBoundingClientRect();
    const box = {
      x: r.left + window.scrollX - region.x,
      y: r.top + window.scrollY - region.y,
      width: r.width,
      height: r.height,
    };
    // In the region by a pixel at least (or wholly, if smaller): a box that only touches its edge
    // within a rounding error is not part of it.
    const inX = Math.min(box.x + box.width, region.width) - Math.max(box.x, 0);
    const inY = Math.min(box.y + box.height, region.height) - Math.max(box.y, 0);
    const overlaps =
      box.width > 0 && box.height > 0 && inX >= Math.min(1, box.width) && inY >= Math.min(1, box.height);
    let me = parent;
    if (overlaps && cs.visibility !== 'hidden' && el !== document.body) {
      const styles: Record<string, string> = {};
      for (const key of options.keys) styles[key] = cs.getPropertyValue(key).slice(0, 300);
      me = elements.length;
      index.set(el, me);
      elements.push({ tag, text: own(el), selector: selectorOf(el), rect: box, parent, styles });
    }
    if (tag === 'svg') return;
    for (const child of Array.from(el.children)) walk(child, me);
  };
  if (document.body !== null) walk(document.body, null);
  return { ready, metrics, found: true, region, elements };
}
