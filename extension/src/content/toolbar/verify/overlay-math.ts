import type { CssRect } from '#shared/toolbar-messages.js';

/**
 * The overlay's geometry, pure: where the area's screenshot goes in the viewport, how a key
 * nudges it, and what its slider means. All in CSS px: the image is shown at the area's CSS size,
 * so at any devicePixelRatio one image pixel lands on one device pixel of a page at the
 * reference's ratio, and a nudge of 1 moves it one CSS px (two device px at DPR 2).
 */

export interface Offset {
  dx: number;
  dy: number;
}

export const NUDGE_PX = 1;
export const NUDGE_SHIFT_PX = 10;

/** The move an arrow key asks for (Shift: ten times as far); null for any other key. */
export function nudgeFor(key: string, shift: boolean): Offset | null {
  const step = shift ? NUDGE_SHIFT_PX : NUDGE_PX;
  switch (key) {
    case 'ArrowLeft':
      return { dx: -step, dy: 0 };
    case 'ArrowRight':
      return { dx: step, dy: 0 };
    case 'ArrowUp':
      return { dx: 0, dy: -step };
    case 'ArrowDown':
      return { dx: 0, dy: step };
    default:
      return null;
  }
}

export const addOffset = (a: Offset, b: Offset): Offset => ({ dx: a.dx + b.dx, dy: a.dy + b.dy });

/**
 * The overlay's box in the viewport. Locked, it starts at the element's border box (as the viewport
 * shows it now); unlocked, at the page's top-left (where a comparison's region starts when no
 * selector is given), so it scrolls with the page. Then the designer's nudge.
 */
export function overlayBox(
  size: { width: number; height: number },
  nudge: Offset,
  lockedTo: { left: number; top: number } | null,
  scroll: { x: number; y: number },
): CssRect {
  const origin = lockedTo ?? { left: -scroll.x, top: -scroll.y };
  return { x: origin.left + nudge.dx, y: origin.top + nudge.dy, width: size.width, height: size.height };
}

/** The slider's 0–100 as an opacity, clamped (a range input can be given any value). */
export function opacityOf(slider: number): number {
  if (!Number.isFinite(slider)) return 0.5;
  return Math.min(1, Math.max(0, slider / 100));
}

/** How the panel states the offset: "offset 12, −3 px" (or "at its place"). */
export function offsetText(nudge: Offset): string {
  if (nudge.dx === 0 && nudge.dy === 0) return 'no offset';
  const n = (v: number) => (v < 0 ? `−${-v}` : String(v));
  return `offset ${n(nudge.dx)}, ${n(nudge.dy)} px`;
}
