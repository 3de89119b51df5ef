import type { RenderCandidateParams, RenderCandidateResult } from '#shared/index.js';
import { invalidInput, loopbackUrlProblem, makeIssue, XipeError } from '#shared/index.js';
import { VERIFY_STYLE_KEYS } from '#shared/verify/style-keys.js';
import { executeFunction } from '../../platform/browser.js';
import { captureCrop, context2d, decodePng, pngBase64, type StoredCrop } from '../capture/capture.js';
import { schedule } from '../capture/turns.js';
import { type PageRect, shootArea, wholeBand } from '../deep-capture/area-shot.js';
import { type PageMetrics, preparePage } from '../screenshot/page-functions.js';
import { readCandidate } from '../verify/page-functions.js';
import { fitViewport, openRenderWindow, type RenderWindow } from '../verify/render-windows.js';
import { agentJob } from './capture-screenshot.js';
import type { HandlerContext } from './types.js';

/**
 * `render_candidate` (for the host's `compare_with_reference`, DESIGN §8): the agent's rebuild,
 * rendered in a window of its own so the designer's tab, window, scroll and focus stay as they
 * are, with no debugger banner anywhere. The window is sized to the viewport asked for, the page
 * waited for (fonts, images), the region read and shot (in bands when taller than the viewport)
 * and the window closed whatever happens. The PNG is scaled to the reference's pixel size: a
 * devicePixelRatio other than the reference's cannot be set without the debugger, so it is said
 * in `notes` instead.
 */

const MAX_ELEMENTS = 3000;

async function run<R>(
  tabId: number,
  func: (...args: never[]) => R,
  args: unknown[],
  what: string,
): Promise<Awaited<R>> {
  const [injection] = await executeFunction({ target: { tabId }, func: func as never, args: args as never });
  const result = injection?.result as Awaited<R> | null | undefined;
  if (result === null || result === undefined)
    throw new Error(`Could not reach the candidate page to ${what}`);
  return result;
}

async function metricsAt(tabId: number, scrollTo: number): Promise<PageMetrics> {
  const result = await run(
    tabId,
    preparePage,
    [{ scrollTo, selector: null, hideFloating: false }],
    'measure it',
  );
  if (!('metrics' in result)) throw new Error('Could not measure the candidate page');
  return result.metrics;
}

/** The region's pixels at the device scale they were shot at. */
interface Shot {
  scale: number;
  image: StoredCrop | OffscreenCanvas;
}

/**
 * Shoots the region in its turn in the capture queue, as every capture does: the render window is
 * a window of its own, so no other job waits for it, but its captures share Chrome's two a second
 * with theirs and it is listed (bridge_status) while it holds the window. A region one unmasked
 * capture covers is cut from it (Chrome's PNG as it is when the region is the whole viewport, as a
 * full-width area as tall as the reference's viewport is); taller or smaller ones go through the
 * area's band code.
 */
function shootRegion(
  win: RenderWindow,
  region: PageRect,
  at: PageMetrics,
  client: string | undefined,
  ctx: HandlerContext,
  lap: (name: string) => void,
): Promise<Shot> {
  const spec = agentJob({ id: win.tabId, window_id: win.windowId }, 'render_candidate', client, ctx);
  const hole = wholeBand(region, at);
  return schedule(spec, async () => {
    lap('turn');
    if (hole === null) {
      const pixels = await shootArea(win.tabId, region, at, lap);
      return { scale: pixels.scale, image: pixels.canvas };
    }
    const viewport = { width: at.viewportWidth, height: at.viewportHeight, dpr: at.dpr };
    const crop = await captureCrop(win.tabId, hole, viewport, win.windowId);
    if (crop === null) throw new Error('The region is outside the render window');
    return { scale: at.dpr, image: crop };
  });
}

/** The shot as a PNG at the reference's device size (`drawImage` scales when the DPRs differ). */
async function toReferenceSize(shot: Shot, width: number, height: number): Promise<string> {
  const { image } = shot;
  if (image.width === width && image.height === height)
    return image instanceof OffscreenCanvas ? pngBase64(image) : image.png;
  const source =
    image instanceof OffscreenCanvas ? image : await decodePng(`data:image/png;base64,${image.png}`);
  const canvas = new OffscreenCanvas(width, height);
  const ctx = context2d(canvas);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(source, 0, 0, width, height);
  if (source instanceof ImageBitmap) source.close();
  return pngBase64(canvas);
}

export async function renderCandidate(
  params: RenderCandidateParams,
  ctx: HandlerContext,
): Promise<RenderCandidateResult> {
  const problem = loopbackUrlProblem(params.url);
  if (problem !== null)
    throw invalidInput([makeIssue('url', problem, params.url)], 'render_candidate arguments');
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const lap = (name: string) => {
    timings[name] = Math.round(performance.now() - t0);
  };
  const deadline = Date.now() + params.timeout_ms;
  const left = () => Math.max(500, deadline - Date.now());
  const height = params.viewport_height ?? Math.ceil(params.height);
  const win = await openRenderWindow(params.url, { width: params.viewport_width, height }, left());
  try {
    await win.loaded;
    lap('loaded');
    const readPage = () =>
      run(
        win.tabId,
        readCandidate,
        [
          {
            timeoutMs: left(),
            selector: params.selector,
            width: params.width,
            height: params.height,
            keys: [...VERIFY_STYLE_KEYS],
            max: MAX_ELEMENTS,
          },
        ],
        'read its elements',
      );
    let read = await readPage();
    lap('read');
    const measured = { width: read.metrics.viewportWidth, height: read.metrics.viewportHeight };
    const resized = await fitViewport(win.windowId, measured, params.viewport_width, height);
    if (resized) {
      // Laid out again at the new size (responsive images may load).
      read = await readPage();
      lap('read_resized');
    }
    if (!read.found)
      throw invalidInput(
        [
          makeIssue(
            'selector',
            `a selector matching an element of the candidate (${params.url})`,
            params.selector,
            'matches none',
          ),
        ],
        'compare_with_reference arguments',
        {
          hint: 'Check the selector against the candidate page, or leave it out to compare its top-left region.',
        },
      );
    // Scrolled to the region unless it shows whole as the page stands (it usually does: the top-left).
    const at =
      wholeBand(read.region, read.metrics) !== null
        ? read.metrics
        : await metricsAt(win.tabId, read.region.y);
    const notes: string[] = [];
    if (resized && Math.abs(at.viewportWidth - params.viewport_width) > 0.5)
      notes.push(
        `The render window's viewport is ${at.viewportWidth} px wide, not ${params.viewport_width} (the screen refused that size).`,
      );
    if (!read.ready) notes.push('The candidate was still loading fonts or images when it was shot.');
    const shot = await shootRegion(win, read.region, at, params.client, ctx, lap);
    lap('shot');
    const expectedScale = params.out_width / params.width;
    if (Math.abs(shot.scale - expectedScale) > 0.01)
      notes.push(
        `The browser renders at devicePixelRatio ${shot.scale}, the reference at ${Math.round(expectedScale * 100) / 100}: ` +
          'that ratio cannot be set without the debugger, so the candidate was scaled to the reference size.',
      );
    const png = await toReferenceSize(shot, params.out_width, params.out_height);
    lap('encoded');
    return {
      png,
      width: params.out_width,
      height: params.out_height,
      tab_id: win.tabId,
      dpr: at.dpr,
      viewport: { width: at.viewportWidth, height: at.viewportHeight },
      region: read.region,
      elements: read.elements,
      notes,
      timings,
    };
  } catch (err) {
    if (err instanceof XipeError) throw err;
    throw new XipeError('INTERNAL_ERROR', `Rendering the candidate failed: ${(err as Error).message}`, {
      url: params.url,
    });
  } finally {
    await win.close();
  }
}
