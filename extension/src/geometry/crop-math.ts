/**
 * extension/src/geometry/ holds the pure rectangle and band arithmetic that both sides of a capture
 * need: the content script (what to mask, select and scroll to) and the service worker (what to cut
 * out of a capture, where to draw a band). No DOM, no extension API and no Node, so both bundles
 * import it and neither imports the other's folder. It is not in shared/ because no Node process
 * uses it.
 */

/** Rectangle in CSS pixels, relative to the viewport (what getBoundingClientRect returns). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Integer rectangle in image pixels. */
export interface PixelRect {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
}

/**
 * Maps a viewport rectangle (CSS px) onto a captureVisibleTab image. The scale is measured from
 * the image itself (image width / viewport width) rather than trusting devicePixelRatio, which
 * zoom and emulation can make disagree with the bitmap. Edges are rounded outwards so a
 * fractional box is never clipped; the result is clamped to the image. Null when nothing of the
 * rectangle is visible.
 */
export function cropToImage(
  rect: Rect,
  viewport: { width: number; height: number },
  image: { width: number; height: number },
): PixelRect | null {
  if (viewport.width <= 0 || viewport.height <= 0) return null;
  const scaleX = image.width / viewport.width;
  const scaleY = image.height / viewport.height;
  // Snap to the pixel grid first so 10.0000001 does not become an extra pixel column.
  const snap = (v: number): number => Math.round(v * 1000) / 1000;
  const left = Math.max(0, Math.floor(snap(rect.x * scaleX)));
  const top = Math.max(0, Math.floor(snap(rect.y * scaleY)));
  const right = Math.min(image.width, Math.ceil(snap((rect.x + rect.width) * scaleX)));
  const bottom = Math.min(image.height, Math.ceil(snap((rect.y + rect.height) * scaleY)));
  if (right <= left || bottom <= top) return null;
  return { sx: left, sy: top, sw: right - left, sh: bottom - top };
}

/** Normalises a drag (any direction) into a rectangle with non-negative size. */
export function rectFromPoints(a: { x: number; y: number }, b: { x: number; y: number }): Rect {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(a.x - b.x),
    height: Math.abs(a.y - b.y),
  };
}

export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';

/** Applies a resize-handle drag of (dx, dy), keeping the rectangle at least `min` px. */
export function resizeRect(r: Rect, handle: Handle, dx: number, dy: number, min = 4): Rect {
  let left = r.x;
  let top = r.y;
  let right = r.x + r.width;
  let bottom = r.y + r.height;
  if (handle.includes('w')) left = Math.min(left + dx, right - min);
  if (handle.includes('e')) right = Math.max(right + dx, left + min);
  if (handle.includes('n')) top = Math.min(top + dy, bottom - min);
  if (handle.includes('s')) bottom = Math.max(bottom + dy, top + min);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** A rectangle grown by `by` on every side. */
export function inflate(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, width: r.width + 2 * by, height: r.height + 2 * by };
}

/** Intersection of two rectangles, or null when they do not overlap. */
export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  if (right <= x || bottom <= y) return null;
  return { x, y, width: right - x, height: bottom - y };
}

/** Device pixels kept clear around a capture hole (covers antialiased mask edges and zoom rounding). */
export const MASK_MARGIN_DEVICE_PX = 2;

/**
 * Opaque boxes covering the viewport except a hole around `rect` (CSS px, viewport-relative).
 * Shown for the moment of an element capture: the captured image is then mostly one flat colour,
 * which Chrome PNG-encodes, and the worker decodes, several times faster than a full page of
 * content. The hole is `rect` rounded outwards to whole device pixels at `scale` (as cropToImage
 * rounds), widened by MASK_MARGIN_DEVICE_PX, so no pixel of the crop is ever covered.
 */
export function maskAround(rect: Rect, viewport: { width: number; height: number }, scale: number): Rect[] {
  const s = scale > 0 ? scale : 1;
  const snap = (v: number): number => Math.round(v * 1000) / 1000;
  const m = MASK_MARGIN_DEVICE_PX;
  const left = Math.max(0, (Math.floor(snap(rect.x * s)) - m) / s);
  const top = Math.max(0, (Math.floor(snap(rect.y * s)) - m) / s);
  const right = Math.min(viewport.width, (Math.ceil(snap((rect.x + rect.width) * s)) + m) / s);
  const bottom = Math.min(viewport.height, (Math.ceil(snap((rect.y + rect.height) * s)) + m) / s);
  // Nothing of the rectangle is visible: there is no crop to speed up, so cover nothing.
  if (right <= left || bottom <= top) return [];
  const boxes: Rect[] = [
    { x: 0, y: 0, width: viewport.width, height: top },
    { x: 0, y: bottom, width: viewport.width, height: viewport.height - bottom },
    { x: 0, y: top, width: left, height: bottom - top },
    { x: right, y: top, width: viewport.width - right, height: bottom - top },
  ];
  return boxes.filter((b) => b.width > 0 && b.height > 0);
}
