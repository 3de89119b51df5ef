import type { CssRect, ViewportInfo } from '#shared/toolbar-messages.js';
import { cropToImage } from '../../geometry/crop-math.js';
import { browser } from '../../platform/browser.js';
import { captureQuota, thumbnailPng } from './capture.js';

/**
 * The frame behind the instant preview: while the pointer rests on an element in pick mode, the
 * worker captures the viewport (only when that leaves a capture slot free for the click, so the
 * exact capture never waits for it) and decodes it. On the press, if the page says nothing changed
 * since, a thumbnail of the element is cut from it at once and shown in the panel while the exact
 * capture runs; the exact crop then replaces it. One frame for the worker, until another replaces
 * it or its tab closes.
 */

interface Frame {
  id: string;
  tabId: number;
  /** Decoded behind the answer: the page learns the frame exists as soon as it is captured. */
  bitmap: Promise<ImageBitmap>;
  viewport: ViewportInfo;
}

export class RestFrames {
  private frame: Frame | null = null;

  /** Captures the tab's viewport now if the quota allows it without delaying others; the frame id or null. */
  async take(tabId: number, windowId: number, viewport: ViewportInfo): Promise<string | null> {
    if (captureQuota.tryAcquire(1) === null) return null;
    let dataUrl: string;
    try {
      // JPEG: several times quicker to encode than PNG, and a thumbnail needs no exact pixel (the
      // exact crop replaces it).
      dataUrl = await browser.tabs.captureVisibleTab(windowId, { format: 'jpeg', quality: 85 });
    } catch {
      return null; // a preview is optional: the exact capture still comes
    }
    this.drop();
    const id = crypto.randomUUID();
    const bitmap = fetch(dataUrl)
      .then((r) => r.blob())
      .then((blob) => createImageBitmap(blob));
    bitmap.catch(() => undefined); // a failed decode only means no preview
    this.frame = { id, tabId, bitmap, viewport };
    return id;
  }

  /** A PNG data URL thumbnail of `rect` from the frame `id` of the tab; null when it is gone. */
  async thumbnail(tabId: number, id: string, rect: CssRect): Promise<string | null> {
    const frame = this.frame;
    if (!frame || frame.id !== id || frame.tabId !== tabId) return null;
    const bitmap = await frame.bitmap.catch(() => null);
    if (!bitmap || this.frame !== frame) return null;
    const px = cropToImage(rect, frame.viewport, bitmap);
    if (!px) return null;
    return `data:image/png;base64,${await thumbnailPng(bitmap, px)}`;
  }

  /** Forgets the frame (of `tabId` only, when given). */
  drop(tabId?: number): void {
    if (!this.frame || (tabId !== undefined && this.frame.tabId !== tabId)) return;
    void this.frame.bitmap.then((b) => b.close()).catch(() => undefined);
    this.frame = null;
  }
}
