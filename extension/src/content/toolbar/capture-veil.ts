import { MARKER_HEIGHT, markerBlocks } from '../../geometry/band-marker.js';
import { maskAround, type Rect } from '../../geometry/crop-math.js';
import { afterPaint } from './dom-inspect.js';

/**
 * What the page shows while the worker captures it. The toolbar's own UI is hidden with
 * `opacity: 0` (not `visibility`, so the shield keeps the pointer and the page gets no `:hover`).
 * For an element or area crop, everything but the crop (plus a 2-device-pixel ring) is also covered
 * with one flat colour: the viewport image Chrome PNG-encodes for captureVisibleTab, and the worker
 * decodes, is then mostly uniform and several times cheaper, while the crop's pixels are the page's
 * own. It reads as a camera shutter: the picked element stays lit for the moment of the capture.
 */
export class CaptureVeil {
  private painted: Promise<void> | null = null;
  private shape = '';

  constructor(
    private readonly ui: HTMLElement,
    private readonly mask: HTMLElement,
  ) {}

  get lowered(): boolean {
    return this.painted !== null;
  }

  /**
   * Hides the UI and masks all but `hole` (viewport CSS px; null masks nothing); with a `marker`,
   * paints a full-page band's marker at viewport row `marker.y` (geometry/band-marker.ts). Resolves
   * once that state has been painted. Lowering again with the same hole reuses the paint already
   * under way, so a veil lowered on pointerdown is ready, or nearly, by the time the click arrives.
   */
  lower(hole: Rect | null, marker: { y: number; code: number } | null = null): Promise<void> {
    const viewport = { width: window.innerWidth, height: window.innerHeight };
    const scale = window.devicePixelRatio || 1;
    const shape = [
      hole
        ? [hole.x, hole.y, hole.width, hole.height, viewport.width, viewport.height, scale].join(',')
        : 'none',
      marker ? `${marker.y}:${marker.code}` : '',
    ].join('/');
    if (this.painted && shape === this.shape) return this.painted;
    this.shape = shape;
    this.ui.setAttribute('data-hidden', '');
    const boxes = (hole ? maskAround(hole, viewport, scale) : []).map((b) => this.box(b));
    // 1 px clear above and below the blocks, so no antialiased edge reaches the band's rows.
    const blocks = marker
      ? markerBlocks(marker.code).map((b) =>
          this.box({ x: b.x, y: marker.y + 1, width: b.width, height: MARKER_HEIGHT - 2 }, b.white),
        )
      : [];
    this.mask.replaceChildren(...boxes, ...blocks);
    this.painted = afterPaint();
    return this.painted;
  }

  private box(b: Rect, white?: boolean): HTMLDivElement {
    const box = document.createElement('div');
    box.style.left = `${b.x}px`;
    box.style.top = `${b.y}px`;
    box.style.width = `${b.width}px`;
    box.style.height = `${b.height}px`;
    if (white !== undefined) box.style.background = white ? '#ffffff' : '#000000';
    return box;
  }

  /** Shows the UI again and removes the mask. */
  lift(): void {
    this.painted = null;
    this.shape = '';
    this.mask.replaceChildren();
    this.ui.removeAttribute('data-hidden');
  }
}
