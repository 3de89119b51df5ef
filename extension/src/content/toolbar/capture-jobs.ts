import type { CollectedElement, CssRect } from '#shared/toolbar-messages.js';
import { reportCrop, reportFullElement } from './capture-report.js';
import type { CaptureVeil } from './capture-veil.js';
import { deepCapture } from './deep-capture.js';
import { visiblePart } from './dom.js';
import { viewportInfo } from './dom-inspect.js';
import { elementDraft } from './drafts.js';
import { captureFullPage } from './full-page.js';
import { decodePixels, type Pixels } from './pixels.js';
import { inTurn, send } from './runtime.js';
import type { StatusLine } from './status-line.js';
import type { DeepChoice } from './views/deep-options.js';
import type { ElementsView } from './views/elements-view.js';

/** What the capture jobs draw on. */
export interface CaptureUi {
  status: StatusLine;
  veil: CaptureVeil;
  elements: ElementsView;
  signal: AbortSignal;
}

/** What they tell the collection. */
export interface CaptureEvents {
  /** The worker stored an item: list it. */
  added(item: CollectedElement): void;
  /** An item's deep capture is staged. */
  deepDone(item: CollectedElement): void;
  /** An item gives way to another (a tall element's visible part to the whole of it). */
  removeNow(key: string): Promise<void>;
  /** A job that ends in an item started or ended (Save counts it). */
  changed(): void;
}

/**
 * The toolbar's captures (element, area, full element, a colour's pixels, the instant preview):
 * one job at a time, with the toolbar hidden and the page masked outside the crop meanwhile; a
 * save waits for a job that ends in an item of the list.
 */
export class CaptureJobs {
  /**
   * The capture job in flight, if any; `item` when it ends in an item of the list (an element, an
   * area, a full element or page; not a colour's pixels, which are added after the job).
   */
  private job: { item: boolean; done: Promise<unknown> } | null = null;
  /** Element captures started, and previews asked for: a late preview never shows over newer news. */
  private captures = 0;
  private previews = 0;

  constructor(
    private readonly ui: CaptureUi,
    private readonly on: CaptureEvents,
  ) {}

  /** A capture is in flight. */
  get busy(): boolean {
    return this.job !== null;
  }

  /** The job in flight will end in an item of the list. */
  get itemPending(): boolean {
    return this.job?.item === true;
  }

  /** Resolves once no job that ends in an item is in flight. */
  async itemsStored(): Promise<void> {
    while (this.job?.item) await this.job.done;
  }

  /**
   * Runs a capture job with `busy` set (callers refuse to start another meanwhile); `item` when it
   * ends in an item of the list, which a save then waits for.
   */
  async exclusive<T>(job: () => Promise<T>, item = true): Promise<T> {
    const running: { item: boolean; done: Promise<unknown> } = { item, done: Promise.resolve() };
    this.job = running;
    if (item) this.on.changed();
    try {
      const result = job();
      running.done = result.catch(() => undefined);
      return await result;
    } finally {
      this.job = null;
      if (item) this.on.changed();
    }
  }

  /** Asks the worker to capture the viewport while the pointer rests (null when that would delay a capture). */
  async restFrame(): Promise<string | null> {
    if (this.busy) return null;
    return (await send({ type: 'xipe-toolbar:rest_frame', viewport: viewportInfo() })).frame;
  }

  /**
   * Shows the element at once, cut from the rest frame (taken while nothing changed since), while
   * its exact capture runs; the stored item replaces it.
   */
  async preview(frame: Promise<string | null>, el: Element, rect: CssRect, selector: string): Promise<void> {
    const token = ++this.previews;
    const captures = this.captures;
    const id = await frame;
    if (!id || token !== this.previews) return;
    const { data_url } = await send({ type: 'xipe-toolbar:preview', frame: id, crop: rect });
    // Not after a newer press, nor once a capture that started since has already listed its item.
    if (!data_url || token !== this.previews || (this.captures > captures && !this.busy)) return;
    this.ui.elements.showPending({
      selector,
      tag: el.localName,
      width: rect.width,
      height: rect.height,
      thumb: data_url,
    });
  }

  /** The press ended in no capture: the preview goes. */
  cancelPreview(): void {
    this.previews += 1;
    if (!this.busy) this.ui.elements.clearPending();
  }

  /**
   * Captures an element or area: styles from the page, the crop from the worker, with the toolbar
   * hidden and the page masked outside the crop meanwhile. Ignored while another capture runs.
   */
  async captureElement(
    el: Element,
    kind: 'element' | 'area',
    rect: CssRect,
    selector: string,
    deep: () => DeepChoice | null = () => null,
  ): Promise<void> {
    if (this.busy) return;
    const choice = deep();
    this.captures += 1;
    const started = performance.now();
    const veil = this.ui.veil;
    try {
      await this.exclusive(async () => {
        const visible = visiblePart(rect);
        if (!visible) throw new Error('That is outside the visible page; scroll to it first.');
        const draft = elementDraft(el, kind, rect, selector);
        const item: CollectedElement = await inTurn(async () => {
          try {
            // An element is cropped clear of layers floating over it; an area is what was drawn.
            await veil.lower(visible, { clearOf: kind === 'element' ? el : null });
            return await send({
              type: 'xipe-toolbar:capture_element',
              draft,
              crop: visible,
              viewport: viewportInfo(),
            });
          } finally {
            veil.lift();
          }
        });
        this.on.added(item);
        if (choice) {
          // In the same page state as the crop: the mode's shield is still up (no :hover).
          const stored = await deepCapture(
            item,
            visible,
            choice.instruction,
            this.ui.status,
            this.ui.elements,
          );
          if (stored) this.on.deepDone(stored);
          return;
        }
        reportCrop(this.ui.status, item, { el, kind, rect, visible, started }, () => {
          void this.captureFullElement(el, selector, item.key);
        });
      });
    } catch (err) {
      this.ui.elements.clearPending();
      this.ui.status.fail(err);
    }
  }

  /**
   * Scroll-and-stitch of an element taller than the viewport (as the full page is stitched); the
   * item of its visible part (`replaces`) gives way to it.
   */
  async captureFullElement(el: Element, selector: string, replaces: string): Promise<void> {
    if (this.busy) return;
    const started = performance.now();
    const status = this.ui.status;
    try {
      // One job: a save waiting for it finds the whole element in place of its visible part.
      const item = await this.exclusive(async () => {
        const shot = await captureFullPage(
          {
            veil: this.ui.veil,
            progress: (done, total) => status.progress(`Full element: ${done}/${total}`, done / total),
            signal: this.ui.signal,
          },
          { el, selector },
        );
        this.on.added(shot.item);
        await this.on.removeNow(replaces);
        return shot.item;
      });
      reportFullElement(status, item, Math.round(performance.now() - started));
    } catch (err) {
      status.fail(err);
    }
  }

  /**
   * The device pixels of a viewport rectangle as the page paints them, captured with the toolbar
   * hidden (and the rest of the viewport masked: a small capture is a quick one); null when none of
   * it is visible. Refused while another capture runs.
   */
  async sample(rect: CssRect): Promise<Pixels | null> {
    if (this.busy) return null;
    const veil = this.ui.veil;
    return this.exclusive(async () => {
      const visible = visiblePart(rect);
      if (!visible) return null;
      const shot: { data_url: string } | null = await inTurn(async () => {
        try {
          await veil.lower(visible);
          return await send({ type: 'xipe-toolbar:sample', crop: visible, viewport: viewportInfo() });
        } finally {
          veil.lift();
        }
      });
      return shot ? decodePixels(shot.data_url) : null;
    }, false);
  }
}
