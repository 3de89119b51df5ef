import type { PixelSource } from '#shared/deep-capture/area-capture.js';

/**
 * Pixels of what the DOM cannot rebuild. A canvas or a video frame is read through
 * createImageBitmap (the page's canvas is never asked for a context: that would create one);
 * a tainted source throws, and a WebGL canvas without a preserved drawing buffer reads back blank,
 * so both fall back to the area's screenshot, as do frames and closed shadow roots.
 */

const crop = (reason: string): PixelSource => ({ data_url: null, from_crop: true, reason, scale: 1 });

async function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

async function bitmapDataUrl(source: HTMLCanvasElement | HTMLVideoElement): Promise<PixelSource> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(source);
  } catch (err) {
    return crop(`unreadable ${source.localName}: ${err instanceof Error ? err.name : 'error'}`);
  }
  try {
    if (bitmap.width === 0 || bitmap.height === 0) return crop(`empty ${source.localName}`);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (ctx === null) return crop('no 2d context');
    ctx.drawImage(bitmap, 0, 0);
    const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let painted = false;
    for (let i = 3; i < data.length; i += 4) {
      if (data[i] !== 0) {
        painted = true;
        break;
      }
    }
    if (!painted) return crop(`${source.localName} reads back blank`);
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    return {
      data_url: await blobToDataUrl(blob),
      from_crop: false,
      reason: `${source.localName} pixels`,
      scale: 1,
    };
  } catch (err) {
    return crop(`unreadable ${source.localName}: ${err instanceof Error ? err.name : 'error'}`);
  } finally {
    bitmap.close();
  }
}

/**
 * Shown only as pixels: drawn content the clone cannot rebuild from elements. An audio player's
 * controls and a MathML formula are among them: the clone's `<audio>` without `controls` is hidden
 * by the browser's own `!important` rule, and the engine does not walk into MathML, so either
 * would leave an empty box that collapses and pulls everything under it up.
 */
export const PAINTED_ONLY: ReadonlySet<string> = new Set([
  'canvas',
  'video',
  'audio',
  'iframe',
  'frame',
  'embed',
  'object',
  'math',
]);

export function needsPixels(el: Element, closedShadow: boolean): boolean {
  return closedShadow || PAINTED_ONLY.has(el.localName);
}

export async function pixelsOf(el: Element, closedShadow: boolean): Promise<PixelSource> {
  if (closedShadow) return crop('closed shadow root');
  if (el instanceof HTMLCanvasElement) return bitmapDataUrl(el);
  if (el instanceof HTMLVideoElement) {
    return el.readyState >= 2 ? bitmapDataUrl(el) : crop('video has no frame yet');
  }
  return crop(`${el.localName} content`);
}
