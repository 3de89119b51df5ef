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

/** Intersection of two rectangles, or null when they do not overlap. */
export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  if (right <= x || bottom <= y) return null;
  return { x, y, width: right - x, height: bottom - y };
}
