import type { PanelSpot } from '#shared/toolbar-messages.js';
import { inflate, intersect, type Rect } from '../../geometry/crop-math.js';

/**
 * Where the panel sits. It opens in the corner that covers the least of the page's links and
 * controls (a navbar's menu is usually top right, where a fixed default spot hid it), or where the
 * designer last put it; it is anchored to its nearest sides, so it grows away from them and stays
 * inside the viewport when dragged, resized or filled with items.
 */

/** Gap between the panel and the viewport's edges (CSS px). */
export const MARGIN = 16;

type Size = { width: number; height: number };

/** The panel's rectangle for a spot, pulled inside the viewport. */
export function rectAt(spot: PanelSpot, size: Size, viewport: Size): Rect {
  const width = Math.min(size.width, viewport.width);
  const height = Math.min(size.height, viewport.height);
  const x = spot.h === 'left' ? spot.x : viewport.width - spot.x - width;
  const y = spot.v === 'top' ? spot.y : viewport.height - spot.y - height;
  return {
    x: Math.min(Math.max(0, x), viewport.width - width),
    y: Math.min(Math.max(0, y), viewport.height - height),
    width,
    height,
  };
}

/** The spot of a rectangle: its distances from the nearest side each way. */
export function spotOf(rect: Rect, viewport: Size): PanelSpot {
  const right = viewport.width - rect.x - rect.width;
  const bottom = viewport.height - rect.y - rect.height;
  return {
    h: rect.x <= right ? 'left' : 'right',
    x: Math.max(0, Math.round(Math.min(rect.x, right))),
    v: rect.y <= bottom ? 'top' : 'bottom',
    y: Math.max(0, Math.round(Math.min(rect.y, bottom))),
  };
}

const CORNERS: PanelSpot[] = [
  { h: 'right', x: MARGIN, v: 'top', y: MARGIN },
  { h: 'right', x: MARGIN, v: 'bottom', y: MARGIN },
  { h: 'left', x: MARGIN, v: 'bottom', y: MARGIN },
  { h: 'left', x: MARGIN, v: 'top', y: MARGIN },
];

/** The corner whose panel covers the least area of `obstacles` (the first such, top right first). */
export function freeCorner(size: Size, viewport: Size, obstacles: Rect[]): PanelSpot {
  let best = CORNERS[0] as PanelSpot;
  let bestCover = Number.POSITIVE_INFINITY;
  for (const corner of CORNERS) {
    const r = rectAt(corner, size, viewport);
    let cover = 0;
    for (const o of obstacles) {
      const hit = intersect(r, o);
      if (hit) cover += hit.width * hit.height;
    }
    if (cover < bestCover) {
      best = corner;
      bestCover = cover;
    }
  }
  return best;
}

const CONTROLS = 'a[href], button, input, select, textarea, [role="button"], [role="link"], [role="tab"]';

/** The page's links and controls in the viewport: what the panel should not cover. */
export function pageControls(limit = 2000): Rect[] {
  const out: Rect[] = [];
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  for (const el of Array.from(document.querySelectorAll(CONTROLS)).slice(0, limit)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw)
      continue;
    out.push({ x: r.x, y: r.y, width: r.width, height: r.height });
  }
  return out;
}

/** The share of the viewport's height the panel may take, however many items it lists. */
export const MAX_HEIGHT_SHARE = 0.75;

/**
 * Puts the panel at a spot: anchored to those sides, never taller than the room it has nor than
 * MAX_HEIGHT_SHARE of the viewport (its lists scroll; the status line and Save stay in view).
 */
export function applySpot(panel: HTMLElement, spot: PanelSpot): void {
  const viewport = { width: window.innerWidth, height: window.innerHeight };
  const r = rectAt(spot, panel.getBoundingClientRect(), viewport);
  const s = panel.style;
  s.left = spot.h === 'left' ? `${r.x}px` : 'auto';
  s.right = spot.h === 'right' ? `${viewport.width - r.x - r.width}px` : 'auto';
  const offset = spot.v === 'top' ? r.y : viewport.height - r.y - r.height;
  s.top = spot.v === 'top' ? `${offset}px` : 'auto';
  s.bottom = spot.v === 'bottom' ? `${offset}px` : 'auto';
  const room = Math.min(viewport.height - offset - MARGIN, viewport.height * MAX_HEIGHT_SHARE);
  s.maxHeight = `${Math.max(120, Math.round(room))}px`;
}

/**
 * Where the area's Capture/Cancel bar goes (viewport coordinates): the first of below-right,
 * above-right, inside-bottom-right, below-left, above-left, inside-bottom-left, inside-top-left
 * that stays in the viewport and clear of the panel; else below-right pulled inside the viewport.
 * A bar under the panel or past the bottom edge was a button the designer could not press.
 */
export function barSpot(box: Rect, bar: Size, viewport: Size, panel: Rect): { x: number; y: number } {
  const gap = 6;
  const right = box.x + box.width - bar.width;
  const left = box.x;
  const below = box.y + box.height + gap;
  const above = box.y - bar.height - gap;
  const insideBottom = box.y + box.height - bar.height - gap;
  const insideTop = box.y + gap;
  const candidates = [
    { x: right, y: below },
    { x: right, y: above },
    { x: right - gap, y: insideBottom },
    { x: left, y: below },
    { x: left, y: above },
    { x: left + gap, y: insideBottom },
    { x: left + gap, y: insideTop },
  ];
  for (const c of candidates) {
    const r = { ...c, ...bar };
    const inside =
      r.x >= 0 && r.y >= 0 && r.x + r.width <= viewport.width && r.y + r.height <= viewport.height;
    if (inside && !intersect(r, inflate(panel, gap))) return c;
  }
  const first = candidates[0] as { x: number; y: number };
  return {
    x: Math.min(Math.max(0, first.x), Math.max(0, viewport.width - bar.width)),
    y: Math.min(Math.max(0, first.y), Math.max(0, viewport.height - bar.height)),
  };
}
