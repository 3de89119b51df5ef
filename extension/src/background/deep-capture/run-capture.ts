/// <reference types="@crxjs/vite-plugin/client" />
import { AreaCapture, type CaptureRect } from '#shared/deep-capture/area-capture.js';
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
async function runEngine(
  rect: CaptureRect,
  reduce: boolean,
  sheets: Record<string, string>,
): Promise<unknown> {
  const api = (globalThis as { __xipeDeepCapture?: { capture(r: CaptureRect, o: object): Promise<unknown> } })
    .__xipeDeepCapture;
  if (api === undefined) throw new Error('the deep-capture engine is not installed in this tab');
  return api.capture(rect, { reduce, sheets });
}

/**
 * `sheets`: texts of the page's cross-origin stylesheets (deep-capture/sheets.ts), by URL; the
 * engine is installed meanwhile.
 */
export async function captureAreaInTab(
  tabId: number,
  rect: CaptureRect,
  sheets: Promise<Record<string, string>> = Promise.resolve({}),
  reduce = true,
): Promise<AreaCapture> {
  const [texts] = await Promise.all([
    sheets,
    browser.scripting.executeScript({ target: { tabId }, files: [DEEP_CAPTURE_FILE] }),
  ]);
  const [injection] = await executeFunction({
    target: { tabId },
    func: runEngine,
    args: [rect, reduce, texts],
  });
  if (injection === undefined || injection.result === null || injection.result === undefined) {
    throw new Error('The deep capture did not return: the page may have navigated or the engine failed');
  }
  return AreaCapture.parse(injection.result);
}
