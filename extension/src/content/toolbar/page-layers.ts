import type { CssRect } from '#shared/toolbar-messages.js';
import { intersect } from '../../geometry/crop-math.js';
import { afterPaint, composedParent, HOST_TAG } from './dom-inspect.js';
import type { InlineStyles } from './inline-styles.js';

/**
 * The page's floating layers (fixed and sticky elements: navbars, cookie bars, chat buttons) and
 * its motion, as captures need them: a full page shows a fixed navbar once, at the top; an element
 * crop shows the element, not the navbar scrolled over it; nothing is captured mid-transition.
 */

/**
 * Our own elements in the page, never one of its layers: the toolbar's host and the mask a deep
 * capture's screenshot band may show (background/deep-capture/page-functions.ts setMask).
 */
const OWN_TAGS = new Set([HOST_TAG, 'x-ipe-uiux-mask', 'x-ipe-uiux-overlay']);

/** Every element of the page, open shadow roots included (not our own elements'). */
export function* deepElements(root: ParentNode = document): Generator<Element> {
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    for (const el of Array.from(node.querySelectorAll('*'))) {
      if (OWN_TAGS.has(el.localName)) continue;
      yield el;
      if (el.shadowRoot) stack.push(el.shadowRoot);
    }
  }
}

/** Fixed and sticky elements that show (the outermost of nested ones). */
export function floatingLayers(): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (const el of deepElements()) {
    if (!(el instanceof HTMLElement)) continue;
    const cs = getComputedStyle(el);
    if ((cs.position !== 'fixed' && cs.position !== 'sticky') || cs.visibility === 'hidden') continue;
    if (cs.display === 'none' || found.some((f) => f.contains(el))) continue;
    found.push(el);
  }
  return found;
}

/**
 * Hides layers for a capture (restored by `styles.restore()`), without their transitions.
 * `transparent`: by opacity rather than visibility, which would take focus away from a focused
 * element inside them (a capture the page did not ask for must not move focus).
 */
export function hideLayers(
  layers: Iterable<HTMLElement>,
  styles: InlineStyles,
  { transparent = false }: { transparent?: boolean } = {},
): void {
  for (const el of layers) {
    styles.set(el, 'transition', 'none');
    if (transparent) styles.set(el, 'opacity', '0');
    else styles.set(el, 'visibility', 'hidden');
  }
}

/** The fixed and sticky layers that cover part of `rect` (viewport CSS px), not `el` or its ancestors. */
export function layersOver(rect: CssRect, el: Element): HTMLElement[] {
  return floatingLayers().filter((layer) => {
    if (layer === el || layer.contains(el)) return false;
    const r = layer.getBoundingClientRect();
    return intersect(rect, { x: r.x, y: r.y, width: r.width, height: r.height }) !== null;
  });
}

/** The page's running animations and transitions (not the toolbar's own). */
export function pageAnimations(): Animation[] {
  return document.getAnimations().filter((a) => {
    if (a.playState !== 'running') return false;
    const root = (a.effect as KeyframeEffect | null)?.target?.getRootNode();
    return !(root instanceof ShadowRoot && root.host.localName === HOST_TAG);
  });
}

/** Longest a capture waits for the page's own transitions to end. */
const SETTLE_MAX_MS = 1500;

/**
 * Resolves once the page has painted its current state: scroll handlers have run (scroll events
 * fire with the next frame) and the transitions and finite animations they started have ended
 * (at most SETTLE_MAX_MS; endless animations are not waited for).
 */
export async function settled(signal?: AbortSignal): Promise<void> {
  await afterPaint();
  const running = pageAnimations().filter((a) => {
    const end = a.effect?.getComputedTiming().endTime;
    return typeof end === 'number' && Number.isFinite(end);
  });
  if (running.length > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(running.map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => {
        timer = setTimeout(resolve, SETTLE_MAX_MS);
        signal?.addEventListener('abort', resolve, { once: true });
      }),
    ]);
    clearTimeout(timer);
    await afterPaint();
  }
}

/** The element moves with the page's scroll (no fixed ancestor), so scrolling reveals all of it. */
export function scrollsWithPage(el: Element): boolean {
  for (let node: Element | null = el; node; node = composedParent(node))
    if (getComputedStyle(node).position === 'fixed') return false;
  return true;
}
