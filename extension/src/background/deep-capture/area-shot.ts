import { applyPixelCuts, type PixelCut } from '#shared/commands/capture-area.js';
import type { AreaCapture } from '#shared/deep-capture/area-capture.js';
import { cropToImage, maskAround } from '../../geometry/crop-math.js';
import { browser, executeFunction } from '../../platform/browser.js';
import { captureDataUrl, decodePng, pngBase64 } from '../capture/capture.js';
import { type PageMetrics, preparePage } from '../screenshot/page-functions.js';
import { setMask } from './page-functions.js';
import { DEEP_CAPTURE_FILE } from './run-capture.js';

/**
 * The area's pixels: one capture when it fits the viewport, else bands scrolled one viewport at a
 * time, drawn into one canvas at the capture's device scale. A band that needs less than half the
 * viewport (a small area, the last sliver of a tall one) is shot with the rest masked: Chrome's PNG
 * encoding of the capture, most of its time, then takes a fraction as long. Then the pixels the DOM
 * could not give — canvases it could not read, frames, closed shadow roots — are cut from it for
 * their nodes, on whole device pixels around each box (the clone shifts them back by the sub-pixel
 * offset).
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

/** Runs in the tab (serialised): hides the floating layers for a band; null before the bundle is installed. */
async function hideBandLayers(): Promise<number | null> {
  const api = (globalThis as { __xipeBandLayers?: { hide(): Promise<number> } }).__xipeBandLayers;
  return api === undefined ? null : api.hide();
}

/** Runs in the tab (serialised): puts back what `hideBandLayers` changed. */
export function restoreBandLayers(): boolean {
  const api = (globalThis as { __xipeBandLayers?: { restore(): boolean } }).__xipeBandLayers;
  return api?.restore() ?? false;
}

/**
 * Hides the page's fixed and sticky layers for a band after the first, by the rule of the
 * deep-capture bundle (content/deep-capture/band-layers.ts), installing the bundle if the engine
 * has not yet.
 */
async function hideLayersForBand(tabId: number): Promise<void> {
  const hide = async () =>
    (await executeFunction({ target: { tabId }, func: hideBandLayers, args: [] }))[0]?.result as
      | number
      | null
      | undefined;
  if (typeof (await hide()) === 'number') return;
  await browser.scripting.executeScript({ target: { tabId }, files: [DEEP_CAPTURE_FILE] });
  if (typeof (await hide()) !== 'number')
    throw new Error("Could not hide the page's fixed layers for the area's next band");
}

export interface AreaPixels {
  canvas: OffscreenCanvas;
  /** Device pixels per CSS px. */
  scale: number;
}

/** A band's part of the area in the viewport, for a page scrolled as `m` says. */
function bandHole(rect: PageRect, from: number, m: PageMetrics): PageRect {
  const top = Math.max(from, m.scrollY);
  const end = Math.min(rect.y + rect.height, m.scrollY + m.viewportHeight);
  return { x: rect.x - m.scrollX, y: top - m.scrollY, width: rect.width, height: end - top };
}

/** The mask for a band: none when the band needs half the viewport or more. */
function maskFor(hole: PageRect, m: PageMetrics): PageRect[] {
  if (hole.height <= 0 || hole.width * hole.height >= (m.viewportWidth * m.viewportHeight) / 2) return [];
  return maskAround(hole, { width: m.viewportWidth, height: m.viewportHeight }, m.dpr);
}

/**
 * The region's place in the viewport when one capture without a mask is all it takes (it is on
 * screen as the page stands and covers half the viewport or more), else null.
 */
export function wholeBand(rect: PageRect, m: PageMetrics): PageRect | null {
  const hole = bandHole(rect, rect.y, m);
  const inside =
    rect.y >= m.scrollY - 0.01 &&
    rect.x >= m.scrollX - 0.01 &&
    hole.height >= rect.height - 0.01 &&
    hole.x + rect.width <= m.viewportWidth + 0.01;
  return inside && maskFor(hole, m).length === 0 ? hole : null;
}

const sameBoxes = (a: PageRect[], b: PageRect[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The canvas the bands are drawn into, made at the first band's device scale. */
class BandCanvas {
  canvas: OffscreenCanvas | null = null;
  private ctx: OffscreenCanvasRenderingContext2D | null = null;
  scale = 1;

  constructor(private readonly rect: PageRect) {}

  async draw(url: string, m: PageMetrics, hole: PageRect, lap: () => void): Promise<void> {
    const bitmap = await decodePng(url);
    lap();
    try {
      if (this.canvas === null || this.ctx === null) {
        this.scale = bitmap.width / m.viewportWidth;
        this.canvas = new OffscreenCanvas(
          Math.ceil(this.rect.width * this.scale),
          Math.ceil(this.rect.height * this.scale),
        );
        this.ctx = this.canvas.getContext('2d', { alpha: false });
        if (this.ctx === null) throw new Error('OffscreenCanvas 2D context unavailable');
        this.ctx.imageSmoothingEnabled = false;
      }
      const src = cropToImage(hole, { width: m.viewportWidth, height: m.viewportHeight }, bitmap);
      if (src === null) return;
      const destY = Math.round((hole.y + m.scrollY - this.rect.y) * this.scale);
      this.ctx.drawImage(bitmap, src.sx, src.sy, src.sw, src.sh, 0, destY, src.sw, src.sh);
    } finally {
      bitmap.close();
    }
  }
}

/**
 * Captures `rect` starting from the page as it is now (`at`), banding down when it is taller
 * (the caller has already made fixed and sticky bars outside the area transparent then); every
 * band after the first hides all of them, as they show then, so none repeats over the area. A band is decoded and
 * drawn while the next one is placed, and its mask (if it takes one) is set as the page scrolls to
 * it, where the scroll will land; a mask only speeds the capture up, it never covers the band, and
 * is set again if the page landed elsewhere. `lap` times each band's steps for the host's log: a
 * third band waits for Chrome's two-captures-a-second quota.
 */
export async function shootArea(
  tabId: number,
  rect: PageRect,
  at: PageMetrics,
  lap: (n: string) => void = () => {},
): Promise<AreaPixels> {
  const out = new BandCanvas(rect);
  let drawn = Promise.resolve();
  let drawnTo = rect.y;
  let metrics = at;
  let mask: PageRect[] = [];
  const setMaskTo = async (boxes: PageRect[], paint: boolean) => {
    if (sameBoxes(boxes, mask)) return;
    mask = boxes;
    await executeFunction({ target: { tabId }, func: setMask, args: [boxes, paint] });
  };
  try {
    await shootBands();
  } catch (err) {
    drawn.catch(() => undefined); // the band that failed is the error to report
    throw err;
  }
  await drawn;
  if (out.canvas === null) throw new Error('The area has no height');
  return { canvas: out.canvas, scale: out.scale };

  async function shootBands(): Promise<void> {
    for (let band = 0; drawnTo < rect.y + rect.height - 0.01; band++) {
      if (band > 0) {
        const maxScroll = Math.max(0, metrics.scrollHeight - metrics.clientHeight);
        const landing = { ...metrics, scrollX: 0, scrollY: Math.min(drawnTo, maxScroll) };
        // Sent before the scroll, whose two frames then paint it too.
        const early = setMaskTo(maskFor(bandHole(rect, drawnTo, landing), landing), false);
        metrics = await measure(tabId, drawnTo);
        await early;
        // Once this band's scroll handlers have run: layers that turn fixed on scroll are found too.
        await hideLayersForBand(tabId);
      }
      const hole = bandHole(rect, drawnTo, metrics);
      if (hole.height <= 0)
        throw new Error(`The page would not scroll to ${Math.round(drawnTo)}px for the area's next band`);
      await setMaskTo(maskFor(hole, metrics), true);
      lap(`band${band}_placed`);
      const url = await captureDataUrl(tabId);
      lap(`band${band}_captured`);
      const m = metrics;
      const name = `band${band}_decoded`;
      drawn = drawn.then(() => out.draw(url, m, hole, () => lap(name)));
      drawnTo = hole.y + m.scrollY + hole.height;
    }
  }
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
