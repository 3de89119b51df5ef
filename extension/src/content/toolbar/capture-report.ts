import type { CollectedElement, CssRect } from '#shared/toolbar-messages.js';
import { scrollsWithPage } from './page-layers.js';
import type { StatusLine } from './status-line.js';

/** A stored crop of an element or area, and when its capture started (`performance.now()`). */
export interface CropShot {
  el: Element;
  kind: 'element' | 'area';
  /** The element's or area's viewport rectangle, and the part of it in the viewport (cropped). */
  rect: CssRect;
  visible: CssRect;
  started: number;
}

/**
 * An item's size as the designer sees it everywhere (status line and list alike): its CSS box,
 * rounded once. The crop's pixels differ from it at DPR 2 and by device-pixel snapping.
 */
export function sizeLabel(item: Pick<CollectedElement, 'bounding_box'>): string {
  return `${Math.round(item.bounding_box.width)}×${Math.round(item.bounding_box.height)} px`;
}

/**
 * What the status line says once a crop is stored. Only the visible part is cropped: for an element
 * that scrolls with the page and is partly out of view, the line offers the whole of it.
 */
export function reportCrop(
  status: StatusLine,
  item: CollectedElement,
  shot: CropShot,
  all: () => void,
): void {
  const { rect, visible } = shot;
  const size = ` (${sizeLabel(item)})`;
  if (shot.kind === 'element' && visible.height < rect.height - 0.5 && scrollsWithPage(shot.el)) {
    const why =
      rect.height > window.innerHeight
        ? `taller than the viewport (${Math.round(rect.height)} px)`
        : 'partly outside the viewport';
    status.offer(`Captured the visible part of ${item.selector}${size}: it is ${why}.`, 'ok', {
      name: 'full-element',
      label: 'Capture the full element',
      run: all,
    });
  } else
    status.set(
      `Captured ${item.selector}${size} in ${Math.round(performance.now() - shot.started)} ms.`,
      'ok',
    );
}

/** The status line once the whole of a tall element is stitched and stored. */
export function reportFullElement(status: StatusLine, item: CollectedElement, ms: number): void {
  const size = sizeLabel(item);
  const cut = item.capped_at ? ` It is taller than ${item.capped_at}px; the shot stops there.` : '';
  status.set(`Captured all of ${item.selector} (${size}) in ${ms} ms.${cut}`, 'ok');
}
