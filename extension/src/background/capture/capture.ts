import { PNG_SIZE_BYTES, pngSize } from '../../../../shared/src/png-header.js';
import type { CssRect, ViewportInfo } from '../../../../shared/src/toolbar-messages.js';
import { MARKER_HEIGHT, MARKER_WIDTH, markerMatches } from '../../geometry/band-marker.js';
import { cropToImage } from '../../geometry/crop-math.js';
import { browser } from '../../platform/browser.js';
import { CaptureQuota, withQuotaRetry } from './capture-quota.js';

/**
 * Pixel captures for the toolbar and capture_screenshot (background/capture/): captureVisibleTab (lossless PNG) through the shared quota gate,
 * cropped and stitched with OffscreenCanvas in the worker, so the full viewport image never
 * travels to the page and the crop is exactly the rectangle's device pixels.
 */

/** A PNG image as the worker keeps it (crops in storage, stitched pages). */
export interface StoredCrop {
  /** PNG bytes, base64 (no prefix). */
  png: string;
  width: number;
  height: number;
}

/** One gate per worker: every caller of captureVisibleTab in the extension should share it. */
export const captureQuota = new CaptureQuota();

/**
 * A PNG data URL of a tab's visible area. With `windowId` (the tab sent the request from a click,
 * so it is the one shown in that window) the capture starts at once and the tab is looked up in
 * parallel, to refuse an image of another tab the designer switched to meanwhile. Without it the
 * tab is looked up and made the active one of its window first.
 */
export async function captureDataUrl(tabId: number, windowId?: number): Promise<string> {
  const shoot = (window: number) =>
    withQuotaRetry(captureQuota, () => browser.tabs.captureVisibleTab(window, { format: 'png' }));
  if (windowId === undefined) {
    const tab = await browser.tabs.get(tabId);
    if (tab.windowId === undefined) throw new Error(`Tab ${tabId} is in no window that can be captured.`);
    if (!tab.active) await browser.tabs.update(tabId, { active: true });
    return shoot(tab.windowId);
  }
  const [dataUrl, tab] = await Promise.all([shoot(windowId), browser.tabs.get(tabId)]);
  if (!tab.active || tab.windowId !== windowId)
    throw new Error('The tab was switched during the capture; pick it again.');
  return dataUrl;
}

type Base64Decoder = (base64: string) => Uint8Array<ArrayBuffer>;
const fromBase64 = (Uint8Array as unknown as { fromBase64?: Base64Decoder }).fromBase64;

/** The PNG bytes of a data URL. */
async function pngBlob(dataUrl: string): Promise<Blob> {
  return fromBase64
    ? new Blob([fromBase64(dataUrl.slice(dataUrl.indexOf(',') + 1))], { type: 'image/png' })
    : (await fetch(dataUrl)).blob();
}

/** No colour conversion or premultiplication: crops must be the captured bytes. */
const EXACT: ImageBitmapOptions = { colorSpaceConversion: 'none', premultiplyAlpha: 'none' };

/** Decodes a PNG data URL (see EXACT). */
export async function decodePng(dataUrl: string): Promise<ImageBitmap> {
  return createImageBitmap(await pngBlob(dataUrl), EXACT);
}

/** Captures a tab's visible area (see captureDataUrl). */
export async function captureTab(tabId: number, windowId?: number): Promise<ImageBitmap> {
  return decodePng(await captureDataUrl(tabId, windowId));
}

/** Uint8Array.prototype.toBase64 (Chrome 140+), where the browser has it. */
const toBase64 = (Uint8Array.prototype as unknown as { toBase64?: (this: Uint8Array) => string }).toBase64;

export async function pngBase64(canvas: OffscreenCanvas): Promise<string> {
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  const bytes = new Uint8Array(await blob.arrayBuffer());
  if (toBase64) return toBase64.call(bytes);
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

function context2d(canvas: OffscreenCanvas): OffscreenCanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', { alpha: false });
  if (!ctx) throw new Error('OffscreenCanvas 2D context unavailable');
  ctx.imageSmoothingEnabled = false;
  return ctx;
}

/**
 * Crops a viewport rectangle out of a fresh capture. Null when the rectangle is off-screen. The
 * image size is read from the PNG header, so only the crop is decoded into a bitmap (not the whole
 * viewport), then drawn 1:1 and encoded.
 */
export async function captureCrop(
  tabId: number,
  rect: CssRect,
  viewport: ViewportInfo,
  windowId?: number,
): Promise<StoredCrop | null> {
  const blob = await pngBlob(await captureDataUrl(tabId, windowId));
  const size = pngSize(new Uint8Array(await blob.slice(0, PNG_SIZE_BYTES).arrayBuffer()));
  if (!size) throw new Error('The browser returned a capture that is not a PNG.');
  const px = cropToImage(rect, viewport, size);
  if (!px) return null;
  const bitmap = await createImageBitmap(blob, px.sx, px.sy, px.sw, px.sh, EXACT);
  try {
    const canvas = new OffscreenCanvas(px.sw, px.sh);
    context2d(canvas).drawImage(bitmap, 0, 0);
    return { png: await pngBase64(canvas), width: px.sw, height: px.sh };
  } finally {
    bitmap.close();
  }
}

interface StitchJob {
  tabId: number;
  left: number;
  width: number;
  height: number;
  canvas: OffscreenCanvas | null;
  scale: number;
  bands: number;
  /** Bands are decoded and drawn in order, behind the captures; `end` waits for the last. */
  drawn: Promise<void>;
}

/** Whether a viewport capture shows the band marker painted at viewport row `marker.y`. */
function showsMarker(
  bitmap: ImageBitmap,
  viewport: ViewportInfo,
  marker: { y: number; code: number },
): boolean {
  const scale = bitmap.width / viewport.width;
  const width = Math.min(bitmap.width, Math.ceil(MARKER_WIDTH * scale));
  const y = Math.floor((marker.y + MARKER_HEIGHT / 2) * scale);
  if (y < 0 || y >= bitmap.height) return false;
  const canvas = new OffscreenCanvas(width, 1);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return false;
  ctx.drawImage(bitmap, 0, y, width, 1, 0, 0, width, 1);
  return markerMatches(ctx.getImageData(0, 0, width, 1).data, scale, marker.code);
}

/** Full-page stitching jobs, one per request; lost with the worker (the toolbar then says so). */
export class StitchJobs {
  private readonly jobs = new Map<string, StitchJob>();

  /** A job stitching `width` × `height` CSS px whose left edge is at viewport x `left`. */
  begin(tabId: number, width: number, height: number, left = 0): string {
    for (const [id, job] of this.jobs) if (job.tabId === tabId) this.jobs.delete(id);
    const id = crypto.randomUUID();
    this.jobs.set(id, {
      tabId,
      left,
      width,
      height,
      canvas: null,
      scale: 1,
      bands: 0,
      drawn: Promise.resolve(),
    });
    return id;
  }

  private job(tabId: number, id: string): StitchJob {
    const job = this.jobs.get(id);
    if (!job || job.tabId !== tabId) {
      throw new Error('The full-page capture was interrupted (the extension restarted). Start it again.');
    }
    return job;
  }

  /**
   * Captures the viewport and queues copying band [srcY, srcY+height) to destY of the output.
   * With a `marker` (geometry/band-marker.ts), the capture is stitched only if it shows that
   * marker: otherwise it is an older frame (`stale`), and the page paints and asks again. Answers
   * once the capture is decoded and checked; the band is drawn behind, while the page scrolls on.
   */
  async band(
    tabId: number,
    id: string,
    band: { srcY: number; height: number; destY: number },
    viewport: ViewportInfo,
    windowId?: number,
    marker?: { y: number; code: number },
  ): Promise<{ done: number; stale: boolean }> {
    const job = this.job(tabId, id);
    const bitmap = await decodePng(await captureDataUrl(tabId, windowId));
    if (marker && !showsMarker(bitmap, viewport, marker)) {
      bitmap.close();
      return { done: job.bands, stale: true };
    }
    job.bands += 1;
    const drawn = job.drawn.then(() => this.draw(job, bitmap, band, viewport));
    // A failure is reported by `end`; until then nothing awaits it.
    drawn.catch(() => undefined);
    job.drawn = drawn;
    return { done: job.bands, stale: false };
  }

  private async draw(
    job: StitchJob,
    bitmap: ImageBitmap,
    band: { srcY: number; height: number; destY: number },
    viewport: ViewportInfo,
  ): Promise<void> {
    try {
      if (!job.canvas) {
        // The measured bitmap/viewport ratio is the real device scale (zoom included).
        job.scale = bitmap.width / viewport.width;
        job.canvas = new OffscreenCanvas(
          Math.round(job.width * job.scale),
          Math.round(job.height * job.scale),
        );
      }
      const px = cropToImage(
        { x: job.left, y: band.srcY, width: job.width, height: band.height },
        viewport,
        bitmap,
      );
      if (px) {
        const destY = Math.round(band.destY * job.scale);
        const h = Math.min(px.sh, job.canvas.height - destY);
        if (h > 0) context2d(job.canvas).drawImage(bitmap, px.sx, px.sy, px.sw, h, 0, destY, px.sw, h);
      }
    } finally {
      bitmap.close();
    }
  }

  async end(tabId: number, id: string): Promise<StoredCrop | null> {
    const job = this.job(tabId, id);
    this.jobs.delete(id);
    await job.drawn;
    if (!job.canvas) return null;
    return { png: await pngBase64(job.canvas), width: job.canvas.width, height: job.canvas.height };
  }

  abandon(tabId: number, id: string): void {
    if (this.jobs.get(id)?.tabId === tabId) this.jobs.delete(id);
  }
}
