/**
 * Checks of the toolbar against the browser's own pixels on the fixture pages shaped like real
 * templates (test/support/real-pages.js): the collection as the worker stored it, DevTools
 * screenshots of the same page, and pixel comparisons in Node.
 */
import type { Browser, Page, WebWorker } from 'puppeteer-core';
import type { Collection } from '#shared/toolbar-messages.js';
import { compareImages, type DecodedImage, decodePng, pixelAt } from '../support/png.js';
import { pageSettled } from '../support/real-pages.js';
import { type BrowserEnv, waitUntil } from './browser-fixture.js';
import { clickExtensionAction, ToolbarDriver } from './toolbar-driver.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Opens test pages, each under a URL of its own (the action button finds its tab by URL), and
 * closes them all with `closeAll` (after each test, whatever it did).
 */
export function pageOpener(env: () => BrowserEnv) {
  const opened: Page[] = [];
  let serial = 0;
  return {
    open: async (p: string): Promise<Page> => {
      serial += 1;
      const page = await env().openPage(`${p}?tab=${serial}`);
      opened.push(page);
      return page;
    },
    closeAll: async (): Promise<void> => {
      for (const page of opened.splice(0)) await page.close().catch(() => undefined);
    },
  };
}

/** Opens the toolbar with the action button and waits until it is ready. */
export async function openToolbar(browser: Browser, page: Page): Promise<ToolbarDriver> {
  const ui = await ToolbarDriver.attach(page);
  await clickExtensionAction(browser, page);
  await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
  await ui.waitForStatus(/Pick elements/);
  return ui;
}

/** Closes it with the action button. */
export async function closeToolbar(browser: Browser, page: Page, ui: ToolbarDriver): Promise<void> {
  await clickExtensionAction(browser, page);
  await waitUntil('the toolbar to close', async () => ((await ui.hostCount()) === 0 ? true : null));
}

/** Loads a fixture page and waits for its photos and fonts. */
export async function openRealPage(
  open: (path: string) => Promise<Page>,
  path: string,
): Promise<{ page: Page; scrollHeight: number; viewport: number }> {
  const page = await open(path);
  const info = await page.evaluate(pageSettled);
  return { page, ...info };
}

/** Scrolls instantly and waits until the page's scroll handlers and CSS transitions have settled. */
export async function scrollSettled(page: Page, y: number): Promise<void> {
  await page.evaluate(async (top) => {
    window.scrollTo({ top, behavior: 'instant' });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, y);
}

/** The viewport as DevTools captures it (Page.captureScreenshot), decoded. */
export async function viewportShot(page: Page): Promise<DecodedImage> {
  return decodePng(Buffer.from(await page.screenshot({ encoding: 'binary' })));
}

/** The whole page as DevTools captures it (captureBeyondViewport), from the top, settled. */
export async function fullPageShot(page: Page): Promise<DecodedImage> {
  await scrollSettled(page, 0);
  return decodePng(Buffer.from(await page.screenshot({ encoding: 'binary', fullPage: true })));
}

/** The tab's collection as the worker stored it (null when there is none). */
export async function storedCollection(worker: WebWorker, pageUrl: string): Promise<Collection | null> {
  return worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    if (tab?.id === undefined) throw new Error(`no tab at ${url}`);
    const key = `xipe-toolbar:collection:${tab.id}`;
    const all = await chrome.storage.local.get(key);
    return (all[key] as Collection | undefined) ?? null;
  }, pageUrl);
}

/** The stored crop PNG of an item. */
export async function storedCrop(worker: WebWorker, itemKey: string): Promise<Buffer> {
  const b64 = await worker.evaluate(async (key) => {
    const k = `xipe-toolbar:crop:${key}`;
    const all = await chrome.storage.local.get(k);
    return (all[k] as { png?: string } | undefined)?.png ?? '';
  }, itemKey);
  if (!b64) throw new Error(`no crop stored for ${itemKey}`);
  return Buffer.from(b64, 'base64');
}

/** Waits until the collection holds `n` elements and returns the last one with its crop. */
export async function lastElement(worker: WebWorker, page: Page, n: number) {
  const collection = await waitUntil(`${n} stored elements`, async () => {
    const c = await storedCollection(worker, page.url());
    const last = c?.elements[n - 1];
    return last?.crop ? c : null;
  });
  const item = collection.elements[n - 1];
  if (!item) throw new Error('no element');
  return { item, png: await storedCrop(worker, item.key), collection };
}

/** Waits until the collection holds `n` colours and returns the last one. */
export async function lastColor(worker: WebWorker, page: Page, n: number) {
  const collection = await waitUntil(`${n} stored colours`, async () => {
    const c = await storedCollection(worker, page.url());
    return (c?.colors.length ?? 0) >= n ? c : null;
  });
  const color = collection.colors[n - 1];
  if (!color) throw new Error('no colour');
  return color;
}

/** `#rrggbb` of a pixel of a decoded image (at device pixels). */
export function hexAt(image: DecodedImage, x: number, y: number): string {
  return `#${pixelAt(image, x, y)
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
}

/** Largest per-channel difference between two `#rrggbb` colours. */
export function hexDistance(a: string, b: string): number {
  const parse = (h: string) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
  const [pa, pb] = [parse(a), parse(b)];
  return Math.max(...pa.map((v, i) => Math.abs(v - (pb[i] ?? 0))));
}

/** Compares a crop PNG with the region of a reference image at device pixel (x, y). */
export function compareCrop(png: Buffer, reference: DecodedImage, at: { x: number; y: number }) {
  const crop = decodePng(png);
  return { width: crop.width, height: crop.height, ...compareImages(crop, reference, at) };
}

/** Viewport rectangle of an element found with a puppeteer selector (CSS, `>>>>` for shadow roots). */
export async function rectOfDeep(page: Page, selector: string) {
  const handle = await page.$(selector);
  if (!handle) throw new Error(`no element for ${selector}`);
  try {
    return await handle.evaluate((el) => {
      const b = el.getBoundingClientRect();
      return { x: b.x, y: b.y, width: b.width, height: b.height };
    });
  } finally {
    await handle.dispose();
  }
}
