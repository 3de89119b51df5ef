import { PNG_SIZE_BYTES, pngSize } from '#shared/png-header.js';
import type { CssRect, ViewportInfo } from '#shared/toolbar-messages.js';
import { cropToImage, type PixelRect } from '../../geometry/crop-math.js';
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
  /**
   * A stitched shot's thumbnail for the panel (PNG base64, see thumbnailPng): the shot itself is
   * often 10–20 MB, which the page would receive and decode whole for a 44×34 px box.
   */
  thumb?: string;
}

/** Longest side of a thumbnail in the panel (device px): its boxes are 44×34 CSS px. */
export const THUMB_MAX = 96;

/** PNG base64 of `px` of `source`, scaled down (never up) to THUMB_MAX on its longest side. */
export async function thumbnailPng(source: CanvasImageSource, px: PixelRect): Promise<string> {
  const scale = Math.min(1, THUMB_MAX / Math.max(px.sw, px.sh));
  const canvas = new OffscreenCanvas(
    Math.max(1, Math.round(px.sw * scale)),
    Math.max(1, Math.round(px.sh * scale)),
  );
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('OffscreenCanvas 2D context unavailable');
  ctx.drawImage(source, px.sx, px.sy, px.sw, px.sh, 0, 0, canvas.width, canvas.height);
  return pngBase64(canvas);
}

/** One gate per worker: every caller of captureVisibleTab in the extension should share it. */
export const captureQuota = new CaptureQuota();

/**
 * A PNG data URL of a tab's visible area. With `windowId` (the tab sent the request from a click,
 * so it is the one shown in that window) the capture starts at once and the tab is looked up in
 * parallel, to refuse an image of another tab the designer switched to meanwhile. Without it the
 * tab is looked up and made the active one of its window first. `onCall` runs each time
 * captureVisibleTab is called (a call refused for the quota is made again).
 */
export async function captureDataUrl(
  tabId: number,
  windowId?: number,
  onCall: () => void = () => undefined,
): Promise<string> {
  const shoot = (window: number) =>
    withQuotaRetry(captureQuota, () => {
      const call = browser.tabs.captureVisibleTab(window, { format: 'png' });
      onCall();
      return call;
    });
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

export function context2d(canvas: OffscreenCanvas): OffscreenCanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', { alpha: false });
  if (!ctx) throw new Error('OffscreenCanvas 2D context unavailable');
  ctx.imageSmoothingEnabled = false;
  return ctx;
}

/**
 * Crops a viewport rectangle out of a fresh capture. Null when the rectangle is off-screen. The
 * image size is read from the PNG header, so only the crop is decoded into a bitmap (not the whole
 * viewport), then drawn 1:1 and encoded; a crop that is the whole viewport is Chrome's PNG as it is.
 */
export async function captureCrop(
  tabId: number,
  rect: CssRect,
  viewport: ViewportInfo,
  windowId?: number,
): Promise<StoredCrop | null> {
  const dataUrl = await captureDataUrl(tabId, windowId);
  const blob = await pngBlob(dataUrl);
  const size = pngSize(new Uint8Array(await blob.slice(0, PNG_SIZE_BYTES).arrayBuffer()));
  if (!size) throw new Error('The browser returned a capture that is not a PNG.');
  const px = cropToImage(rect, viewport, size);
  if (!px) return null;
  if (px.sw === size.width && px.sh === size.height)
    return { png: dataUrl.slice(dataUrl.indexOf(',') + 1), width: size.width, height: size.height };
  const bitmap = await createImageBitmap(blob, px.sx, px.sy, px.sw, px.sh, EXACT);
  try {
    const canvas = new OffscreenCanvas(px.sw, px.sh);
    context2d(canvas).drawImage(bitmap, 0, 0);
    return { png: await pngBase64(canvas), width: px.sw, height: px.sh };
  } finally {
    bitmap.close();
  }
}
