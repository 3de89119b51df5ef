import type { AreaPixelsResult, CaptureAreaParams, CaptureAreaPending, TabInfo } from '#shared/index.js';
import { invalidInput, makeIssue } from '#shared/index.js';
import { executeFunction } from '../../platform/browser.js';
import { pngBase64 } from '../capture/capture.js';
import type { Lease } from '../capture/scheduler.js';
import { bringToFront, queueReport, schedule } from '../capture/turns.js';
import { type AreaPixels, pixelCuts, restoreBandLayers, shootArea } from '../deep-capture/area-shot.js';
import {
  type AreaMiss,
  type AreaPlacement,
  hideFloating,
  listUnreadableSheets,
  locateArea,
  restoreFloating,
  setMask,
} from '../deep-capture/page-functions.js';
import { pendingPixels } from '../deep-capture/pending-pixels.js';
import { captureAreaInTab } from '../deep-capture/run-capture.js';
import { fetchSheets } from '../deep-capture/sheets.js';
import { mapApiError } from '../injection/injection-errors.js';
import { type PageMetrics, preparePage, restorePage } from '../screenshot/page-functions.js';
import { scriptableTab } from '../scriptable-tab.js';
import { agentJob } from './capture-screenshot.js';
import type { HandlerContext } from './types.js';

/**
 * `capture_area` (for the host's `save_area`): the deep-capture engine's reading of an area plus
 * the area's pixels. The page is disturbed as little as possible and put back afterwards: an area
 * already in view is captured as the user sees it; otherwise the page scrolls so the area sits
 * under any bar pinned across the top; only an area taller than what that leaves is captured in
 * bands with fixed and sticky elements made transparent (not hidden: that would take focus from
 * an element inside them). Scroll position, those elements and the toolbar are restored whatever
 * happens, as soon as the last band is shot; focus is never touched.
 *
 * It answers as soon as the engine has read the area, with a ticket for the pixels: the bands go on
 * waiting for Chrome's capture quota (two a second) while the host fetches the resources, and the
 * host's `area_pixels` gets the PNG when it is done. The capture takes its turn in its window's
 * capture queue and holds the window until its last band is shot and the page put back.
 */

interface Plan {
  scrollTo: number | null;
  hideFloating: boolean;
}

function inView(p: AreaPlacement, scrollY: number): boolean {
  return (
    p.rect.y >= scrollY + p.topInset - 0.5 &&
    p.rect.y + p.rect.height <= scrollY + p.viewportHeight + 0.5 &&
    p.rect.x >= p.scrollX - 0.5 &&
    p.rect.x + p.rect.width <= p.scrollX + p.viewportWidth + 0.5
  );
}

function plan(p: AreaPlacement): Plan {
  if (inView(p, p.scrollY)) return { scrollTo: null, hideFloating: false };
  if (p.rect.height <= p.viewportHeight - p.topInset) {
    return { scrollTo: Math.max(0, p.rect.y - p.topInset), hideFloating: false };
  }
  return { scrollTo: p.rect.y, hideFloating: true };
}

async function prepare(tabId: number, step: Plan, area: AreaPlacement['rect']): Promise<PageMetrics> {
  if (step.hideFloating) await executeFunction({ target: { tabId }, func: hideFloating, args: [area] });
  const [injection] = await executeFunction({
    target: { tabId },
    func: preparePage,
    args: [{ scrollTo: step.scrollTo, selector: null, hideFloating: false }],
  });
  const result = injection?.result as { metrics?: PageMetrics } | null | undefined;
  if (result?.metrics === undefined) throw new Error('Could not reach the page to capture the area');
  return result.metrics;
}

async function restore(tabId: number): Promise<void> {
  await executeFunction({ target: { tabId }, func: setMask, args: [[]] }).catch(() => undefined);
  // Band layers first: they were hidden over what `hideFloating` had already made transparent.
  await executeFunction({ target: { tabId }, func: restoreBandLayers, args: [] }).catch(() => undefined);
  await executeFunction({ target: { tabId }, func: restoreFloating, args: [] }).catch(() => undefined);
  await executeFunction({ target: { tabId }, func: restorePage, args: [] }).catch(() => undefined);
}

/**
 * The area's pixels once the bands are shot (`placed`: shot, and the page put back): then the
 * nodes that need them get their cuts (once the engine says which) and the PNG is encoded.
 */
async function finishPixels(
  placed: Promise<AreaPixels>,
  engine: ReturnType<typeof captureAreaInTab>,
  timings: Record<string, number>,
  lap: (name: string) => void,
): Promise<AreaPixelsResult> {
  const pixels = await placed;
  const cuts = await pixelCuts(await engine, pixels);
  const png = await pngBase64(pixels.canvas);
  lap('encoded');
  const { width, height } = pixels.canvas;
  return { png, width, height, scale: pixels.scale, cuts, timings };
}

async function locate(tab: { id: number; url: string }, params: CaptureAreaParams): Promise<AreaPlacement> {
  const [located] = await executeFunction({
    target: { tabId: tab.id },
    func: locateArea,
    args: [
      {
        ...(params.selector !== undefined ? { selector: params.selector } : {}),
        ...(params.rect !== undefined ? { rect: params.rect } : {}),
      },
    ],
  });
  const placement = located?.result as AreaPlacement | AreaMiss | null | undefined;
  if (placement === null || placement === undefined)
    throw new Error('Could not reach the page to find the area');
  if ('found' in placement && placement.found === 'invalid') {
    throw invalidInput(
      [makeIssue('selector', 'a valid CSS selector', params.selector, `is not one (${placement.reason})`)],
      'capture_area arguments',
      { hint: 'Fix the selector (document.querySelector must accept it), or give a page rect.' },
    );
  }
  if ('found' in placement && placement.found === 'outside') {
    const { width, height } = placement.page;
    throw invalidInput(
      [
        makeIssue(
          'rect',
          `a rect inside the page (0–${width} × 0–${height} CSS px, page coordinates)`,
          params.rect,
          'reaches past it',
        ),
      ],
      'capture_area arguments',
      { hint: 'Give a rect within the page, or a selector.', details: { page: placement.page } },
    );
  }
  if ('found' in placement) {
    throw invalidInput(
      [
        makeIssue(
          'selector',
          `a selector matching an element in tab ${tab.id} (${tab.url})`,
          params.selector,
          'matches none',
        ),
      ],
      'capture_area arguments',
      {
        hint: 'Check the selector (inject_script can list candidates), or give a page rect.',
        details: { tab_id: tab.id },
      },
    );
  }
  return placement;
}

/** Cross-origin stylesheets, fetched while the page is placed (for their :hover rules). */
function unreadableSheets(tabId: number, pageUrl: string): Promise<Record<string, string>> {
  return executeFunction({ target: { tabId }, func: listUnreadableSheets, args: [] })
    .then(([listed]) => {
      const hrefs: unknown = listed?.result;
      const list = Array.isArray(hrefs) ? hrefs.filter((h): h is string => typeof h === 'string') : [];
      return fetchSheets(list, pageUrl);
    })
    .catch(() => ({}));
}

export async function captureArea(
  params: CaptureAreaParams,
  ctx: HandlerContext,
): Promise<CaptureAreaPending> {
  const { tab, ref } = await scriptableTab(params.target, 'capture an area of');
  // The job holds the window until the last band is shot and the page put back; the answer goes
  // as soon as the engine has read the area (the pixels follow through the ticket).
  return new Promise<CaptureAreaPending>((answer, refuse) => {
    const job = schedule(agentJob(tab, 'capture_area', params.client, ctx), (lease) =>
      captureInTurn(tab, ref, params, lease, answer),
    );
    job.catch((err: unknown) => refuse(mapApiError(err, tab.id)));
  });
}

/** The capture itself, in the window's turn: resolves once the page is put back. */
async function captureInTurn(
  tab: TabInfo,
  ref: CaptureAreaPending['tab'],
  params: CaptureAreaParams,
  lease: Lease,
  answer: (pending: CaptureAreaPending) => void,
): Promise<void> {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const lap = (name: string) => {
    timings[name] = Math.round(performance.now() - t0);
  };
  let placed: Promise<AreaPixels> | null = null;
  try {
    await bringToFront(tab.id, tab.window_id);
    const placement = await locate(tab, params);
    const sheets = unreadableSheets(tab.id, tab.url);
    let step = plan(placement);
    let metrics = await prepare(tab.id, step, placement.rect);
    if (!step.hideFloating && !inView({ ...placement, scrollX: metrics.scrollX }, metrics.scrollY)) {
      // The page could not scroll far enough (near its end): hide the bars instead.
      step = { scrollTo: placement.rect.y, hideFloating: true };
      metrics = await prepare(tab.id, step, placement.rect);
    }
    lap('placed');
    // The engine reads all geometry before it first yields, so the screenshot's bands may scroll
    // while it finishes: both run at once.
    const rect = placement.rect;
    const engine = captureAreaInTab(tab.id, rect, sheets).finally(() => lap('engine'));
    const shot = shootArea(tab.id, rect, metrics, lap).finally(() => lap('shot'));
    placed = shot.finally(() => restore(tab.id));
    const pixels = finishPixels(placed, engine, timings, lap).catch((err: unknown) => {
      throw mapApiError(err, tab.id);
    });
    const capture = await engine.catch((err: unknown) => {
      pixels.catch(() => undefined); // the engine's error is the one to report
      throw err;
    });
    answer({
      capture,
      tab: ref,
      pixels_ticket: pendingPixels.hold(pixels),
      timings: { ...timings },
      queue: queueReport(lease),
    });
  } finally {
    if (placed === null) await restore(tab.id);
    else await placed.catch(() => undefined); // its error reaches the ticket's redeemer
  }
}
