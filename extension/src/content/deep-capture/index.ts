import type { AreaCapture, CaptureRect } from '#shared/deep-capture/area-capture.js';
import { type BandLayersApi, bandLayers } from './band-layers.js';
import { captureArea } from './engine.js';

/**
 * Entry of the deep-capture bundle: injected on demand (chrome.scripting.executeScript({files}))
 * into the isolated world, so the toolbar bundle stays lean and the page never sees it. It only
 * installs the engine (and the screenshot bands' layer hiding) on the isolated world's globalThis; a later executeScript call runs
 * `__xipeDeepCapture.capture(rect)` and gets the AreaCapture back (structured-cloned).
 */

export interface DeepCaptureApi {
  version: number;
  /** `sheets`: texts of cross-origin stylesheets the worker fetched, by URL. */
  capture(
    rect: CaptureRect,
    options?: { reduce?: boolean; sheets?: Record<string, string> },
  ): Promise<AreaCapture>;
}

/**
 * Our own elements in the page, never part of a capture: the toolbar's host (extension/src/toolbar)
 * and the mask a screenshot band may show (background/deep-capture/page-functions.ts setMask).
 */
const OWN_TAGS = ['x-ipe-uiux-toolbar', 'x-ipe-uiux-mask', 'x-ipe-uiux-overlay'];

const g = globalThis as { __xipeDeepCapture?: DeepCaptureApi; __xipeBandLayers?: BandLayersApi };

g.__xipeDeepCapture ??= {
  version: 1,
  capture: (rect, options) => {
    const sheets = options?.sheets ?? {};
    return captureArea({
      rect,
      ignoreTags: OWN_TAGS,
      sheets: (href) => (Object.hasOwn(sheets, href) ? (sheets[href] ?? null) : null),
      reduce: options?.reduce !== false,
    });
  },
};

// The screenshot's bands below the first hide the page's floating layers through this
// (background/deep-capture/area-shot.ts).
g.__xipeBandLayers ??= bandLayers();
