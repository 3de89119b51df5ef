import { MARKER_HEIGHT, markerBlocks } from '../../geometry/band-marker.js';
import { inflate, intersect, maskAround, type Rect } from '../../geometry/crop-math.js';
import { afterPaint } from './dom-inspect.js';
import { InlineStyles } from './inline-styles.js';
import { hideLayers, layersOver } from './page-layers.js';

export interface VeilOptions {
  /** A full-page band's marker: its viewport row and code. */
  marker?: { y: number; code: number } | null;
  /** The element being cropped: layers floating over it are hidden for the capture. */
  clearOf?: Element | null;
}

/**
 * How far the panel's drop shadow (styles.ts `--shadow`: 12 px down, 32 px blur) paints past its
 * box: the blur reaches its radius beyond the offset box. A crop that far from the panel still
 * gets the shadow's darkening, so the panel is hidden for it too.
 */
const SHADOW_REACH = { left: 32, right: 32, top: 20, bottom: 44 };

/** The panel paints over part of `rect` (viewport CSS px): its box, its shadow, or a 4 px ring. */
export function panelPaintsOver(panel: HTMLElement, rect: Rect): boolean {
  const r = panel.getBoundingClientRect();
  const painted = {
    x: r.x - SHADOW_REACH.left,
    y: r.y - SHADOW_REACH.top,
    width: r.width + SHADOW_REACH.left + SHADOW_REACH.right,
    height: r.height + SHADOW_REACH.top + SHADOW_REACH.bottom,
  };
  return intersect(painted, inflate(rect, 4)) !== null;
}

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
  private clearOf: Element | null = null;
  private readonly layers = new InlineStyles();
  /** Our other element on the page (the reference overlay): out of sight while the veil is down. */
  alsoHide: { setCaptureHidden(hidden: boolean): void } | null = null;

  constructor(
    private readonly ui: HTMLElement,
    private readonly mask: HTMLElement,
    /** The panel stays visible during a crop it does not overlap (the designer sees it fill). */
    private readonly panel: HTMLElement | null = null,
  ) {}

  get lowered(): boolean {
    return this.painted !== null;
  }

  /**
   * Hides the UI and masks all but `hole` (viewport CSS px; null masks nothing). `clearOf`: the
   * element being cropped; fixed and sticky layers over the hole that are not it or its ancestors
   * (a navbar the page scrolled it under) are hidden too, so the crop shows the element. `marker`:
   * paints a full-page band's marker at viewport row `marker.y` (geometry/band-marker.ts).
   * Resolves once that state has been painted. Lowering again the same way reuses the paint
   * already under way, so a veil lowered on pointerdown is ready, or nearly, when the click comes.
   */
  lower(hole: Rect | null, options: VeilOptions = {}): Promise<void> {
    const { marker = null, clearOf = null } = options;
    const viewport = { width: window.innerWidth, height: window.innerHeight };
    const scale = window.devicePixelRatio || 1;
    const shape = [
      hole
        ? [hole.x, hole.y, hole.width, hole.height, viewport.width, viewport.height, scale].join(',')
        : 'none',
      marker ? `${marker.y}:${marker.code}` : '',
    ].join('/');
    if (this.painted && shape === this.shape && clearOf === this.clearOf) return this.painted;
    this.layers.restore();
    this.shape = shape;
    this.clearOf = clearOf;
    this.ui.setAttribute('data-hidden', hole && !this.panelOver(hole) ? 'overlays' : 'all');
    this.alsoHide?.setCaptureHidden(true);
    if (hole && clearOf) hideLayers(layersOver(hole, clearOf), this.layers);
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

  private panelOver(hole: Rect): boolean {
    return this.panel ? panelPaintsOver(this.panel, hole) : true;
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

  /** Shows the UI again, removes the mask and shows the layers it hid. */
  lift(): void {
    this.painted = null;
    this.shape = '';
    this.clearOf = null;
    this.layers.restore();
    this.mask.replaceChildren();
    this.ui.removeAttribute('data-hidden');
    this.alsoHide?.setCaptureHidden(false);
  }
}
