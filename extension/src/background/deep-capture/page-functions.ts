/**
 * What `capture_area` runs in the tab before capturing: where the area is and what covers the top
 * of the viewport. Self-contained (scripting.executeScript serialises it): no imports, no outer
 * names. Scrolling, hiding and restoring go through screenshot/page-functions.ts, so one restore
 * puts back everything either did.
 */

export interface AreaPlacement {
  /** The area, CSS px, page coordinates. */
  rect: { x: number; y: number; width: number; height: number };
  scrollX: number;
  scrollY: number;
  viewportWidth: number;
  viewportHeight: number;
  /** Height of fixed or sticky bars stuck across the top of the viewport (a site header). */
  topInset: number;
}

/** Why an area cannot be captured: the argument at fault and what the page offered instead. */
export type AreaMiss =
  | { found: false }
  | { found: 'invalid'; reason: string }
  | { found: 'outside'; page: { width: number; height: number } };

/**
 * The area by selector (its border box) or as given; a miss when the selector is not CSS or
 * matches nothing, or the rect reaches past the page (no scroll could bring it into view).
 */
export function locateArea(area: {
  selector?: string;
  rect?: { x: number; y: number; width: number; height: number };
}): AreaPlacement | AreaMiss {
  let rect = area.rect;
  if (typeof area.selector === 'string') {
    let el: Element | null;
    try {
      el = document.querySelector(area.selector);
    } catch (err) {
      return { found: 'invalid', reason: err instanceof Error ? err.message : String(err) };
    }
    if (el === null) return { found: false };
    const b = el.getBoundingClientRect();
    const x = Math.floor(b.left + window.scrollX);
    const y = Math.floor(b.top + window.scrollY);
    rect = {
      x,
      y,
      width: Math.ceil(b.right + window.scrollX) - x,
      height: Math.ceil(b.bottom + window.scrollY) - y,
    };
  }
  if (rect === undefined) return { found: false };
  const de = document.documentElement;
  const page = {
    width: Math.max(de.scrollWidth, document.body?.scrollWidth ?? 0),
    height: Math.max(de.scrollHeight, document.body?.scrollHeight ?? 0),
  };
  // One pixel of slack for rounding: the selector's own box is ceil'ed above.
  if (
    rect.x < 0 ||
    rect.y < 0 ||
    rect.x + rect.width > page.width + 1 ||
    rect.y + rect.height > page.height + 1
  )
    return { found: 'outside', page };
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  let topInset = 0;
  for (const el of Array.from(document.body?.querySelectorAll<HTMLElement>('*') ?? [])) {
    if (el.localName === 'x-ipe-uiux-toolbar') continue;
    const cs = getComputedStyle(el);
    if ((cs.position !== 'fixed' && cs.position !== 'sticky') || cs.visibility !== 'visible') continue;
    const r = el.getBoundingClientRect();
    // A bar pinned across the top: starts at the top edge, spans most of the width, is not tall,
    // and is not part of the area itself (a header the area was drawn around).
    const inArea =
      r.left + window.scrollX >= rect.x - 1 &&
      r.top + window.scrollY >= rect.y - 1 &&
      r.right + window.scrollX <= rect.x + rect.width + 1 &&
      r.bottom + window.scrollY <= rect.y + rect.height + 1;
    if (!inArea && r.top <= 1 && r.bottom > 0 && r.width >= vw * 0.5 && r.height <= vh * 0.4) {
      topInset = Math.max(topInset, r.bottom);
    }
  }
  return {
    rect,
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    viewportWidth: vw,
    viewportHeight: vh,
    topInset,
  };
}

/**
 * Makes fixed and sticky elements outside the area transparent for a capture that must not show
 * them (an area taller than the space under a pinned header). Transparent rather than `visibility: hidden`,
 * which would take focus away from a focused element inside them; transitions are suspended so
 * nothing fades. `restoreFloating` puts back exactly the inline values they had.
 */
export function hideFloating(area: { x: number; y: number; width: number; height: number }): number {
  const KEY = '__xipeAreaFloating';
  type Saved = { el: HTMLElement; props: [string, string, string][] };
  const g = globalThis as unknown as Record<string, Saved[] | undefined>;
  if (g[KEY] !== undefined) return g[KEY].length;
  const saved: Saved[] = [];
  for (const el of Array.from(document.body?.querySelectorAll<HTMLElement>('*') ?? [])) {
    if (el.localName === 'x-ipe-uiux-toolbar') continue;
    const position = getComputedStyle(el).position;
    if (position !== 'fixed' && position !== 'sticky') continue;
    const r = el.getBoundingClientRect();
    // Part of the area (a sticky sidebar the area was drawn around): it stays.
    if (
      r.left + window.scrollX >= area.x - 1 &&
      r.top + window.scrollY >= area.y - 1 &&
      r.right + window.scrollX <= area.x + area.width + 1 &&
      r.bottom + window.scrollY <= area.y + area.height + 1
    ) {
      continue;
    }
    const props: [string, string, string][] = ['opacity', 'transition'].map((p) => [
      p,
      el.style.getPropertyValue(p),
      el.style.getPropertyPriority(p),
    ]);
    saved.push({ el, props });
    el.style.setProperty('transition', 'none', 'important');
    el.style.setProperty('opacity', '0', 'important');
  }
  g[KEY] = saved;
  return saved.length;
}

export function restoreFloating(): boolean {
  const KEY = '__xipeAreaFloating';
  type Saved = { el: HTMLElement; props: [string, string, string][] };
  const g = globalThis as unknown as Record<string, Saved[] | undefined>;
  const saved = g[KEY];
  if (saved === undefined) return false;
  delete g[KEY];
  for (const { el, props } of saved) {
    for (const [prop, value, priority] of props) {
      if (value) el.style.setProperty(prop, value, priority);
      else el.style.removeProperty(prop);
    }
    if (el.getAttribute('style') === '') el.removeAttribute('style');
  }
  return true;
}

/**
 * Covers the viewport but `boxes`' hole (viewport CSS px, crop-math.ts maskAround) with one flat
 * colour for the moment of a capture that needs little of the viewport: Chrome encodes such an
 * image several times faster. The boxes sit in a closed shadow root of one element the engine
 * never reads (ignored like the toolbar); an empty list removes it. With `paint`, resolves once
 * the mask is painted.
 */
export async function setMask(
  boxes: { x: number; y: number; width: number; height: number }[],
  paint = true,
): Promise<void> {
  const TAG = 'x-ipe-uiux-mask';
  const KEY = '__xipeAreaMask';
  const g = globalThis as unknown as Record<string, { host: HTMLElement; root: ShadowRoot } | undefined>;
  let mask = g[KEY];
  if (boxes.length === 0) {
    mask?.host.remove();
    delete g[KEY];
    return;
  }
  if (mask === undefined) {
    const host = document.createElement(TAG);
    host.setAttribute(
      'style',
      'all: initial; position: fixed; left: 0; top: 0; width: 0; height: 0; z-index: 2147483647; pointer-events: none;',
    );
    mask = { host, root: host.attachShadow({ mode: 'closed' }) };
    g[KEY] = mask;
  }
  mask.root.replaceChildren(
    ...boxes.map((b) => {
      const box = document.createElement('div');
      box.setAttribute(
        'style',
        `position: fixed; left: ${b.x}px; top: ${b.y}px; width: ${b.width}px; height: ${b.height}px; background: #0f172a;`,
      );
      return box;
    }),
  );
  if (!mask.host.isConnected) document.documentElement.append(mask.host);
  if (!paint) return;
  // A hidden tab paints no frame: wait for two at most a second.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
}

/**
 * The stylesheets of the page that neither it nor a content script can read (cross-origin without
 * CORS), by URL: in the document, in open shadow roots and behind readable sheets' `@import`s. The
 * worker fetches them so the engine can read their `:hover`/`:focus` rules. At most 64.
 */
export function listUnreadableSheets(): string[] {
  const out = new Set<string>();
  const visit = (sheet: CSSStyleSheet, depth: number): void => {
    if (out.size >= 64 || depth > 4) return;
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      if (sheet.href !== null && /^https?:/i.test(sheet.href)) out.add(sheet.href);
      return;
    }
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSImportRule && rule.styleSheet !== null) visit(rule.styleSheet, depth + 1);
    }
  };
  const scopes: (Document | ShadowRoot)[] = [document];
  for (let i = 0; i < scopes.length && i < 2000; i++) {
    const scope = scopes[i];
    if (scope === undefined) break;
    for (const sheet of [...Array.from(scope.styleSheets), ...scope.adoptedStyleSheets]) visit(sheet, 0);
    for (const el of Array.from(scope.querySelectorAll('*'))) {
      if (el.shadowRoot !== null) scopes.push(el.shadowRoot);
    }
  }
  return [...out];
}
