import type { AreaImage } from '#shared/toolbar-messages.js';
import { addOffset, type Offset, opacityOf, overlayBox } from './overlay-math.js';

/** Our overlay's element: outside the toolbar's host, since blending needs the page as backdrop. */
export const OVERLAY_TAG = 'x-ipe-uiux-overlay';

/**
 * A captured area's screenshot over the page, as pixel-perfect overlay extensions show a design:
 * opacity, a difference blend, nudging, and locked to an element's box or to the page's top-left.
 *
 * It is its own element under <html>, not inside the toolbar's host: the host lives in the top
 * layer as a stacking context of its own, an isolated group in which `mix-blend-mode` would blend
 * with nothing. Its own element blends with the page itself. It never takes the pointer, hides
 * for every capture (the toolbar's veil, and the worker's preparePage which hides our tags), and
 * exists only while shown: closed, it has no element, no listener and no observer.
 */
export class ReferenceOverlay {
  private host: HTMLElement | null = null;
  private img: HTMLImageElement | null = null;
  private following: AbortController | null = null;
  private resizes: ResizeObserver | null = null;
  private image: AreaImage | null = null;
  private nudge: Offset = { dx: 0, dy: 0 };
  private locked: Element | null = null;
  private opacity = 0.5;
  private difference = false;

  get shown(): boolean {
    return this.host !== null;
  }

  get offset(): Offset {
    return this.nudge;
  }

  get lockedTo(): Element | null {
    return this.locked;
  }

  /** Shows `image` (replacing any other); the offset and lock are kept. */
  show(image: AreaImage): void {
    this.image = image;
    if (this.host === null) this.build();
    if (this.img !== null) this.img.src = image.data_url;
    this.follow();
    this.place();
  }

  hide(): void {
    this.following?.abort();
    this.following = null;
    this.resizes?.disconnect();
    this.resizes = null;
    this.host?.remove();
    this.host = null;
    this.img = null;
  }

  setOpacity(slider: number): void {
    this.opacity = opacityOf(slider);
    this.style();
  }

  setDifference(on: boolean): void {
    this.difference = on;
    this.style();
  }

  nudgeBy(by: Offset): void {
    this.nudge = addOffset(this.nudge, by);
    this.place();
  }

  /** Follows `el`'s box (null: the page's top-left again); the offset starts over. */
  lock(el: Element | null): void {
    this.locked = el;
    this.nudge = { dx: 0, dy: 0 };
    if (this.shown) this.follow();
    this.place();
  }

  /** For the toolbar's own captures (capture-veil.ts): out of sight, then back. */
  setCaptureHidden(hidden: boolean): void {
    this.set('visibility', hidden ? 'hidden' : 'visible');
  }

  private build(): void {
    const host = document.createElement(OVERLAY_TAG);
    const shadow = host.attachShadow({ mode: 'closed' });
    const img = document.createElement('img');
    img.alt = '';
    img.draggable = false;
    img.setAttribute(
      'style',
      'display:block;width:100%;height:100%;margin:0;border:0;padding:0;max-width:none',
    );
    shadow.append(img);
    const fixed = [
      'all: initial',
      'position: fixed',
      'display: block',
      'margin: 0',
      'padding: 0',
      'border: 0',
      'box-sizing: content-box',
      'pointer-events: none',
      // Below the toolbar (the top layer), above the page's own layers.
      'z-index: 2147483646',
    ];
    host.setAttribute('style', fixed.map((r) => `${r} !important`).join('; '));
    document.documentElement.append(host);
    this.host = host;
    this.img = img;
    this.style();
  }

  /**
   * One property at a time (each `!important`, so no page rule wins): a capture that hides our
   * elements (the worker's preparePage) sets `visibility` and puts it back, and a scroll during
   * it must not undo that.
   */
  private set(prop: string, value: string): void {
    this.host?.style.setProperty(prop, value, 'important');
  }

  private style(): void {
    this.set('mix-blend-mode', this.difference ? 'difference' : 'normal');
    this.set('opacity', String(this.opacity));
    this.place();
  }

  private box() {
    if (this.image === null) return null;
    const r = this.locked?.getBoundingClientRect() ?? null;
    return overlayBox(
      { width: this.image.css_width, height: this.image.css_height },
      this.nudge,
      r === null ? null : { left: r.left, top: r.top },
      { x: window.scrollX, y: window.scrollY },
    );
  }

  private place(): void {
    const box = this.box();
    if (box === null) return;
    this.set('left', `${box.x}px`);
    this.set('top', `${box.y}px`);
    this.set('width', `${box.width}px`);
    this.set('height', `${box.height}px`);
  }

  /** While shown: scrolling (anywhere: the element may sit in a scroller), resizes, the element's own size. */
  private follow(): void {
    this.following?.abort();
    this.resizes?.disconnect();
    const following = new AbortController();
    this.following = following;
    const again = () => this.place();
    window.addEventListener('scroll', again, { capture: true, passive: true, signal: following.signal });
    window.addEventListener('resize', again, { passive: true, signal: following.signal });
    if (this.locked !== null) {
      this.resizes = new ResizeObserver(again);
      this.resizes.observe(this.locked);
    }
  }
}
