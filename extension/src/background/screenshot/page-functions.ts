/**
 * Functions `capture_screenshot` runs in the tab's isolated world with scripting.executeScript.
 * Each is serialised on its own, so each is self-contained (no imports, no outer names). State
 * between calls (what to restore) lives on one isolated-world global, invisible to the page.
 */

export interface PageMetrics {
  scrollX: number;
  scrollY: number;
  /** window.innerWidth/innerHeight: the area captureVisibleTab captures, in CSS px. */
  viewportWidth: number;
  viewportHeight: number;
  /** Without scrollbars (the stitched width and band height). */
  clientWidth: number;
  clientHeight: number;
  scrollHeight: number;
  dpr: number;
}

export type ElementProbe =
  | { found: false }
  /** The selector is not valid CSS: the browser's own words (a SyntaxError's message). */
  | { found: 'invalid'; reason: string }
  | { found: true; rect: { x: number; y: number; width: number; height: number }; metrics: PageMetrics };

/**
 * Hides our toolbar (it would cover the page in the shot), optionally makes fixed/sticky elements
 * transparent (full page, after the first band), scrolls, waits two frames so the capture shows the new state,
 * and reports where things are. `selector`: scroll that element into view and return its rect.
 */
export async function preparePage(options: {
  scrollTo: number | null;
  selector: string | null;
  hideFloating: boolean;
}): Promise<ElementProbe | { found: null; metrics: PageMetrics } | { hidden: true }> {
  const KEY = '__xipeShotRestore';
  type Saved = { el: HTMLElement; prop: string; value: string; priority: string };
  type State = { x: number; y: number; behavior: string; hidden: Saved[]; floating: boolean };
  const g = globalThis as unknown as Record<string, State | undefined>;
  const de = document.documentElement;
  const set = (el: HTMLElement, prop: string, value: string, list: Saved[]): void => {
    list.push({
      el,
      prop,
      value: el.style.getPropertyValue(prop),
      priority: el.style.getPropertyPriority(prop),
    });
    el.style.setProperty(prop, value, 'important');
  };
  const hide = (el: HTMLElement, list: Saved[]): void => set(el, 'visibility', 'hidden', list);
  let state = g[KEY];
  if (state === undefined) {
    state = {
      x: window.scrollX,
      y: window.scrollY,
      behavior: de.style.getPropertyValue('scroll-behavior'),
      hidden: [],
      floating: false,
    };
    g[KEY] = state;
    de.style.setProperty('scroll-behavior', 'auto', 'important');
  }
  // Every call (a band of a full page too): ours may have appeared since the first. The overlay
  // also leaves the layout, by a property its own code never writes, so nothing it does while
  // it follows a scroll or ends a toolbar capture can bring it back into the shot.
  const ours = state.hidden;
  for (const el of Array.from(
    document.querySelectorAll<HTMLElement>('x-ipe-uiux-toolbar, x-ipe-uiux-overlay'),
  )) {
    if (ours.some((s) => s.el === el)) continue;
    hide(el, ours);
    if (el.localName === 'x-ipe-uiux-overlay') set(el, 'display', 'none', ours);
  }
  if (options.hideFloating && !state.floating) {
    state.floating = true;
    for (const el of Array.from(document.body?.querySelectorAll<HTMLElement>('*') ?? [])) {
      if (el.localName === 'x-ipe-uiux-toolbar') continue;
      const pos = getComputedStyle(el).position;
      if (pos !== 'fixed' && pos !== 'sticky') continue;
      // Transparent, not hidden: hiding would take focus from an element inside it.
      set(el, 'transition', 'none', state.hidden);
      set(el, 'opacity', '0', state.hidden);
    }
  }
  let target: Element | null = null;
  // Chrome drops null-valued keys from executeScript args: absent arrives as undefined.
  if (typeof options.selector === 'string') {
    try {
      target = document.querySelector(options.selector);
    } catch (err) {
      return { found: 'invalid', reason: err instanceof Error ? err.message : String(err) };
    }
    if (target === null) return { found: false };
    const r = target.getBoundingClientRect();
    const inside =
      r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
    if (!inside)
      target.scrollIntoView({ block: r.height > window.innerHeight ? 'start' : 'center', inline: 'nearest' });
  }
  if (typeof options.scrollTo === 'number')
    window.scrollTo({ left: 0, top: options.scrollTo, behavior: 'instant' });
  // A hidden tab paints no frame: wait for two at most a second, then say the tab is hidden.
  const painted = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 1000);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve(true);
      }),
    );
  });
  if (!painted && document.visibilityState === 'hidden') return { hidden: true };
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
  if (target === null) return { found: null, metrics };
  const b = target.getBoundingClientRect();
  return { found: true, rect: { x: b.x, y: b.y, width: b.width, height: b.height }, metrics };
}

/** Puts back the scroll position, the toolbar and anything hidden. Safe to call when nothing was changed. */
export function restorePage(): boolean {
  const KEY = '__xipeShotRestore';
  type Saved = { el: HTMLElement; prop: string; value: string; priority: string };
  type State = { x: number; y: number; behavior: string; hidden: Saved[] };
  const g = globalThis as unknown as Record<string, State | undefined>;
  const state = g[KEY];
  if (state === undefined) return false;
  delete g[KEY];
  // Last changed first, so a property set twice gets its first value back.
  for (const { el, prop, value, priority } of state.hidden.reverse()) {
    if (value) el.style.setProperty(prop, value, priority);
    else el.style.removeProperty(prop);
  }
  window.scrollTo({ left: state.x, top: state.y, behavior: 'instant' });
  const de = document.documentElement;
  if (state.behavior) de.style.setProperty('scroll-behavior', state.behavior);
  else de.style.removeProperty('scroll-behavior');
  return true;
}
