/// <reference types="@crxjs/vite-plugin/client" />
import { AreaCapture, type CaptureRect } from '../../../../shared/src/deep-capture/area-capture.js';
import deepCaptureFile from '../../content/deep-capture/index.ts?iife';
import { browser, executeFunction } from '../../platform/browser.js';

/**
 * Runs the deep-capture engine in a tab: its bundle is injected on demand into the isolated world
 * (a file from the extension package, so page CSP does not apply and the toolbar bundle stays
 * small), then called with the area. The result crosses back structured-cloned and is parsed
 * before use, like every message between processes.
 */

export const DEEP_CAPTURE_FILE = deepCaptureFile;

/** Runs in the tab's isolated world (executeScript serialises it): calls the installed engine. */
async function runEngine(rect: CaptureRect, reduce: boolean): Promise<unknown> {
  const api = (globalThis as { __xipeDeepCapture?: { capture(r: CaptureRect, o: object): Promise<unknown> } })
    .__xipeDeepCapture;
  if (api === undefined) throw new Error('the deep-capture engine is not installed in this tab');
  return api.capture(rect, { reduce });
}

export async function captureAreaInTab(
  tabId: number,
  rect: CaptureRect,
  reduce = true,
): Promise<AreaCapture> {
  await browser.scripting.executeScript({ target: { tabId }, files: [DEEP_CAPTURE_FILE] });
  const [injection] = await executeFunction({
    target: { tabId },
    func: runEngine,
    args: [rect, reduce],
  });
  if (injection === undefined || injection.result === null || injection.result === undefined) {
    throw new Error('The deep capture did not return: the page may have navigated or the engine failed');
  }
  return AreaCapture.parse(injection.result);
}
