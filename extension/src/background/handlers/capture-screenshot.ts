import type { CaptureScreenshotParams, CaptureScreenshotResult, TabInfo } from '#shared/index.js';
import { invalidInput, makeIssue, XipeError } from '#shared/index.js';
import { cropToImage } from '../../geometry/crop-math.js';
import { alignStep, planFullPage } from '../../geometry/stitch-plan.js';
import { browser, executeFunction } from '../../platform/browser.js';
import { captureQuota, captureTab, pngBase64 } from '../capture/capture.js';
import { withQuotaRetry } from '../capture/capture-quota.js';
import type { JobSpec } from '../capture/scheduler.js';
import { StitchJobs } from '../capture/stitch-jobs.js';
import { bringToFront, queueReport, schedule, waitText } from '../capture/turns.js';
import { mapApiError } from '../injection/injection-errors.js';
import {
  type ElementProbe,
  type PageMetrics,
  preparePage,
  restorePage,
} from '../screenshot/page-functions.js';
import { scriptableTab } from '../scriptable-tab.js';
import type { HandlerContext } from './types.js';

/**
 * `capture_screenshot`: a PNG of the viewport, of one element (scrolled into view, cropped at the
 * captured image's real scale), or of the full page (scroll and stitch, the toolbar's plan and
 * stitcher). It takes its turn in its window's capture queue (capture/turns.ts), then the tab is
 * brought to front (captureVisibleTab shows the active tab); the shared quota gate keeps within
 * Chrome's 2 captures per second; the toolbar is hidden during the shot and the scroll position is
 * restored whatever happens, before the window goes to the next capture.
 */

const stitcher = new StitchJobs();

type Shot = Omit<CaptureScreenshotResult, 'tab'>;

type PrepareOptions = Parameters<typeof preparePage>[0];

async function inPage(
  tabId: number,
  options: PrepareOptions,
): Promise<ElementProbe | { found: null; metrics: PageMetrics }> {
  const [injection] = await executeFunction({
    target: { tabId },
    func: preparePage,
    args: [options],
  });
  const result = injection?.result as
    | ElementProbe
    | { found: null; metrics: PageMetrics }
    | { hidden: true }
    | null
    | undefined;
  if (result === null || result === undefined)
    throw new Error('Could not reach the page to take the screenshot');
  if ('hidden' in result) {
    throw new XipeError(
      'TAB_NOT_FOUND',
      `Tab ${tabId} is hidden (another tab or window is in front of it), so it paints nothing to capture. Call list_tabs and target the active tab, or bring this one to front and retry.`,
      { tab_id: tabId },
    );
  }
  return result;
}

/** Prepares the page without looking for an element and returns where it is now. */
async function measure(tabId: number, options: Omit<PrepareOptions, 'selector'>): Promise<PageMetrics> {
  const result = await inPage(tabId, { ...options, selector: null });
  if (!('metrics' in result)) throw new Error(`Could not measure the page: ${JSON.stringify(result)}`);
  return result.metrics;
}

async function restore(tabId: number): Promise<void> {
  await executeFunction({ target: { tabId }, func: restorePage, args: [] }).catch(() => undefined);
}

function canvas2d(width: number, height: number): [OffscreenCanvas, OffscreenCanvasRenderingContext2D] {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { alpha: false });
  if (!ctx) throw new Error('OffscreenCanvas 2D context unavailable');
  ctx.imageSmoothingEnabled = false;
  return [canvas, ctx];
}

async function viewportShot(tab: TabInfo): Promise<Shot> {
  const metrics = await measure(tab.id, { scrollTo: null, hideFloating: false });
  const dataUrl = await withQuotaRetry(captureQuota, () =>
    browser.tabs.captureVisibleTab(tab.window_id, { format: 'png' }),
  );
  const png = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const bytes = Uint8Array.from(atob(png.slice(0, 44)), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return { png, width, height, scale: width / metrics.viewportWidth };
}

async function elementShot(tab: TabInfo, selector: string): Promise<Shot> {
  const probe = await inPage(tab.id, { scrollTo: null, selector, hideFloating: false });
  if (probe.found === 'invalid') {
    throw invalidInput(
      [makeIssue('selector', 'a valid CSS selector', selector, `is not one (${probe.reason})`)],
      'input',
      {
        hint: 'Fix the selector (document.querySelector must accept it).',
        details: { selector, tab_id: tab.id },
      },
    );
  }
  if (probe.found === false) {
    throw invalidInput(
      [
        makeIssue(
          'selector',
          `a selector matching an element in tab ${tab.id} (${tab.url})`,
          selector,
          'matches none',
        ),
      ],
      'input',
      {
        hint: "Check the selector (inject_script can list candidates), or use mode 'viewport'.",
        details: { selector, tab_id: tab.id },
      },
    );
  }
  if (probe.found !== true) throw new Error('element probe failed');
  const viewport = { width: probe.metrics.viewportWidth, height: probe.metrics.viewportHeight };
  const bitmap = await captureTab(tab.id);
  try {
    const px = cropToImage(probe.rect, viewport, bitmap);
    if (px === null) {
      throw invalidInput(
        [
          makeIssue(
            'selector',
            'a visible element',
            selector,
            'has no visible box (zero size, hidden or off-screen)',
          ),
        ],
        'input',
        { hint: 'Pick a visible element.', details: { selector, rect: probe.rect } },
      );
    }
    const [canvas, ctx] = canvas2d(px.sw, px.sh);
    ctx.drawImage(bitmap, px.sx, px.sy, px.sw, px.sh, 0, 0, px.sw, px.sh);
    return {
      png: await pngBase64(canvas),
      width: px.sw,
      height: px.sh,
      scale: bitmap.width / viewport.width,
    };
  } finally {
    bitmap.close();
  }
}

/**
 * Shoots the full page's bands; resolves once the last is shot, with what finishes the image
 * (drawing and encoding, which need neither the page nor the window).
 */
async function fullPageShot(tab: TabInfo): Promise<() => Promise<Shot>> {
  const m = await measure(tab.id, { scrollTo: null, hideFloating: false });
  const plan = planFullPage({
    scrollHeight: m.scrollHeight,
    viewportWidth: m.clientWidth,
    viewportHeight: m.clientHeight,
    devicePixelRatio: m.dpr,
  });
  const job = stitcher.begin(tab.id, plan.width, plan.height);
  try {
    for (const [i, step] of plan.steps.entries()) {
      const at = await measure(tab.id, { scrollTo: step.scrollY, hideFloating: i >= 1 });
      const band = alignStep(step, at.scrollY, at.clientHeight);
      if (band === null) {
        throw new XipeError(
          'SCRIPT_ERROR',
          `The page would not scroll to ${step.scrollY}px for the next band of the full-page shot. Try mode 'viewport', or scroll the page first.`,
          { tab_id: tab.id, scroll_y: step.scrollY, reached: at.scrollY },
        );
      }
      const viewport = { width: at.viewportWidth, height: at.viewportHeight, dpr: at.dpr };
      await stitcher.band(tab.id, job, { srcY: band.srcY, height: band.height, destY: band.destY }, viewport);
    }
  } catch (err) {
    stitcher.abandon(tab.id, job);
    throw err;
  }
  return async () => {
    const out = await stitcher.end(tab.id, job);
    if (out === null) throw new Error('the full-page shot produced no image');
    return {
      png: out.png,
      width: out.width,
      height: out.height,
      scale: out.width / plan.width,
      ...(plan.capped ? { capped_at: plan.height } : {}),
    };
  };
}

/** The job as the queue lists it and errors name it. */
function jobLabel(params: CaptureScreenshotParams): string {
  return `capture_screenshot ${params.mode}`;
}

/**
 * The spec of an agent's capture for the queue (capture/turns.ts): its window, who asked, the
 * asker's cancel, and where to say it waits (the host pauses its time limit meanwhile).
 */
export function agentJob(
  tab: Pick<TabInfo, 'id' | 'window_id'>,
  label: string,
  client: string | undefined,
  ctx: HandlerContext,
): JobSpec {
  return {
    windowId: tab.window_id,
    tabId: tab.id,
    label,
    client: client ?? 'agent',
    signal: ctx.signal,
    onWait: (wait) =>
      ctx.progress?.({
        state: wait.state === 'waiting' ? 'queued' : 'started',
        message: waitText(wait),
        queued_ms: wait.queued_ms,
      }),
  };
}

export async function captureScreenshot(
  params: CaptureScreenshotParams,
  ctx: HandlerContext,
): Promise<CaptureScreenshotResult> {
  const { tab, ref } = await scriptableTab(params.target, 'take a screenshot of');
  try {
    // The window goes to the next capture once the page is put back; a full page's image is
    // finished after that.
    const { finish, queue } = await schedule(
      agentJob(tab, jobLabel(params), params.client, ctx),
      async (lease) => {
        try {
          await bringToFront(tab.id, tab.window_id);
          let finish: () => Promise<Shot>;
          if (params.mode === 'full_page') finish = await fullPageShot(tab);
          else {
            const shot =
              params.mode === 'element'
                ? await elementShot(tab, params.selector ?? '')
                : await viewportShot(tab);
            finish = async () => shot;
          }
          return { finish, queue: queueReport(lease) };
        } finally {
          await restore(tab.id);
        }
      },
    );
    return { ...(await finish()), tab: ref, queue };
  } catch (err) {
    throw mapApiError(err, tab.id);
  }
}
