import type { AreaCapture, CaptureRect } from '../../../../shared/src/deep-capture/area-capture.js';
import { captureArea } from './engine.js';

/**
 * Entry of the deep-capture bundle: injected on demand (chrome.scripting.executeScript({files}))
 * into the isolated world, so the toolbar bundle stays lean and the page never sees it. It only
 * installs the engine on the isolated world's globalThis; a later executeScript call runs
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

/** The toolbar's host element (extension/src/toolbar): our own UI, never part of a capture. */
const TOOLBAR_TAG = 'x-ipe-uiux-toolbar';

const g = globalThis as { __xipeDeepCapture?: DeepCaptureApi };

g.__xipeDeepCapture ??= {
  version: 1,
  capture: (rect, options) => {
    const sheets = options?.sheets ?? {};
    return captureArea({
      rect,
      ignoreTags: [TOOLBAR_TAG],
      sheets: (href) => (Object.hasOwn(sheets, href) ? (sheets[href] ?? null) : null),
      reduce: options?.reduce !== false,
    });
  },
};
