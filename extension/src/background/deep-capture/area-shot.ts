import { applyPixelCuts, type PixelCut } from '../../../../shared/src/commands/capture-area.js';
import type { AreaCapture } from '../../../../shared/src/deep-capture/area-capture.js';
import { cropToImage, maskAround } from '../../geometry/crop-math.js';
import { executeFunction } from '../../platform/browser.js';
import { captureDataUrl, decodePng, pngBase64 } from '../capture/capture.js';
import { type PageMetrics, preparePage } from '../screenshot/page-functions.js';
import { setMask } from './page-functions.js';

/**
 * The area's pixels: one capture when it fits the viewport, else bands scrolled one viewport at a
 * time, drawn into one canvas at the capture's device scale. A band that needs less than half the
 * viewport (a small area, the last sliver of a tall one) is shot with the rest masked: Chrome's PNG
 * encoding of the capture, most of its time, then takes a fraction as long. Then the pixels the DOM could not give — canvases it could not read,
 * frames, closed shadow roots — are cut from it into their nodes, on whole device pixels around
 * each box (the clone shifts them back by the sub-pixel offset).
 */

export interface PageRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function measure(tabId: number, scrollTo: number | null): Promise<PageMetrics> {
  const [injection] = await executeFunction({
    target: { tabId },
    func: preparePage,
    args: [{ scrollTo, selector: null, hideFloating: false }],
  });
  const result = injection?.result as { metrics?: PageMetrics } | null | undefined;
  if (result?.metrics === undefined) throw new Error('Could not reach the page to capture the area');
  return result.metrics;
}

export interface AreaPixels {
  canvas: OffscreenCanvas;
  /** Device pixels per CSS px. */
  scale: number;
}

/**
 * Captures `rect` starting from the page as it is now (`at`), banding down when it is taller
 * (the caller has already made fixed and sticky bars transparent then). `lap` times each band's
 * steps for the host's log: a third band waits for Chrome's two-captures-a-second quota.
 */
export async function shootArea(
  tabId: number,
  rect: PageRect,
  at: PageMetrics,
  lap: (n: string) => void = () => {},
): Promise<AreaPixels> {
  let canvas: OffscreenCanvas | null = null;
  let ctx: OffscreenCanvasRenderingContext2D | null = null;
  let scale = 1;
  let drawnTo = rect.y;
  let metrics = at;
  const bottom = rect.y + rect.height;
  let masked = false;
  for (let band = 0; drawnTo < bottom - 0.01; band++) {
    if (band > 0) metrics = await measure(tabId, drawnTo);
    const viewport = { width: metrics.viewportWidth, height: metrics.viewportHeight };
    const top = Math.max(drawnTo, metrics.scrollY);
    const end = Math.min(bottom, metrics.scrollY + metrics.viewportHeight);
    if (end <= top)
      throw new Error(`The page would not scroll to ${Math.round(drawnTo)}px for the area's next band`);
    // This band's part of the area, viewport CSS px.
    const hole = {
      x: rect.x - metrics.scrollX,
      y: top - metrics.scrollY,
      width: rect.width,
      height: end - top,
    };
    const boxes =
      hole.width * hole.height < (viewport.width * viewport.height) / 2
        ? maskAround(hole, viewport, metrics.dpr)
        : [];
    if (boxes.length > 0 || masked) {
      await executeFunction({ target: { tabId }, func: setMask, args: [boxes] });
      masked = boxes.length > 0;
    }
    lap(`band${band}_placed`);
    const url = await captureDataUrl(tabId);
    lap(`band${band}_captured`);
    const bitmap = await decodePng(url);
    lap(`band${band}_decoded`);
    try {
      scale = bitmap.width / metrics.viewportWidth;
      if (canvas === null || ctx === null) {
        canvas = new OffscreenCanvas(Math.ceil(rect.width * scale), Math.ceil(rect.height * scale));
        ctx = canvas.getContext('2d', { alpha: false });
        if (ctx === null) throw new Error('OffscreenCanvas 2D context unavailable');
        ctx.imageSmoothingEnabled = false;
      }
      const src = cropToImage(hole, viewport, bitmap);
      if (src !== null) {
        const destY = Math.round((top - rect.y) * scale);
        ctx.drawImage(bitmap, src.sx, src.sy, src.sw, src.sh, 0, destY, src.sw, src.sh);
      }
      drawnTo = end;
    } finally {
      bitmap.close();
    }
  }
  if (canvas === null) throw new Error('The area has no height');
  return { canvas, scale };
}

/**
 * PNG data URLs cut from the area's pixels for the nodes that must come from the screenshot (the
 * capture itself is left as it is: a live capture has already gone to the host).
 */
export async function pixelCuts(capture: AreaCapture, pixels: AreaPixels): Promise<PixelCut[]> {
  const { canvas, scale } = pixels;
  const cuts: PixelCut[] = [];
  for (const [index, node] of capture.nodes.entries()) {
    if (node.pixels === null || !node.pixels.from_crop || node.pixels.data_url !== null) continue;
    const x = Math.floor(node.rect.x * scale);
    const y = Math.floor(node.rect.y * scale);
    const right = Math.min(canvas.width, Math.ceil((node.rect.x + node.rect.width) * scale));
    const bottom = Math.min(canvas.height, Math.ceil((node.rect.y + node.rect.height) * scale));
    const sx = Math.max(0, x);
    const sy = Math.max(0, y);
    if (right <= sx || bottom <= sy) continue;
    const cut = new OffscreenCanvas(right - sx, bottom - sy);
    const ctx = cut.getContext('2d');
    if (ctx === null) continue;
    ctx.drawImage(canvas, sx, sy, cut.width, cut.height, 0, 0, cut.width, cut.height);
    cuts.push({ node: index, data_url: `data:image/png;base64,${await pngBase64(cut)}`, scale });
  }
  return cuts;
}

/** Fills the `pixels` of nodes that must come from the screenshot with PNG data URLs cut from it. */
export async function cutPixelNodes(capture: AreaCapture, pixels: AreaPixels): Promise<void> {
  applyPixelCuts(capture, await pixelCuts(capture, pixels));
}
