/**
 * The verify loop's designer side in real Chromium, at DPR 1 and 2, driven with real mouse and
 * keyboard events: a deep-captured area's screenshot shown over the page by the toolbar (the right
 * pixels at the right place, checked against the area's own PNG in DevTools screenshots), nudged
 * by the arrow keys (1 CSS px, Shift 10), locked to an element, blended by difference (the page
 * under its own capture is black), never in an agent's capture, gone without a trace when off; and
 * the panel's Compare, which runs the host's comparison of this tab with the area.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { REPO_ROOT } from '../helpers/fake-extension.js';
import { clickExtensionAction, comparePng, rectOf, ToolbarDriver } from '../helpers/toolbar-driver.js';
import { decodePng } from '../support/png.js';

const IDEA = '001. Demo Idea';
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'verify');
const OVERLAY_TAG = 'x-ipe-uiux-overlay';

/** Share of a PNG's pixels in a device-px rectangle whose channels are all ≤ `max` (near black). */
function darkShare(
  png: string,
  r: { x: number; y: number; width: number; height: number },
  max = 24,
): number {
  const image = decodePng(Buffer.from(png, 'base64'));
  let dark = 0;
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) {
      const i = (y * image.width + x) * 4;
      if ([0, 1, 2].every((k) => (image.data[i + k] ?? 255) <= max)) dark += 1;
    }
  return dark / (r.width * r.height);
}

describe.each([1, 2])('the toolbar overlay at DPR %i', (dpr) => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let server: http.Server;
  let page: Page;
  let ui: ToolbarDriver;
  let areaPng = '';

  const shot = async () => (await page.screenshot({ encoding: 'base64' })) as string;
  /** The promo card's box in device px of a screenshot. */
  const promoAt = async (dx = 0, dy = 0) => {
    const r = await rectOf(page, '.promo');
    return { x: Math.round((r.x + dx) * dpr), y: Math.round((r.y + dy) * dpr) };
  };

  beforeAll(async () => {
    env = await BrowserEnv.start({ deviceScaleFactor: dpr });
    server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(fs.readFileSync(path.join(FIXTURES, 'page.html')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
    page = await env.browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/product`, { waitUntil: 'load' });
    const captured = await mcp.call('capture_area', {
      idea_folder: IDEA,
      selector: '.promo',
      url_contains: '/product',
    });
    expect(captured.isError, JSON.stringify(captured.body)).toBe(false);
    areaPng = fs
      .readFileSync((captured.body.files as Record<string, string>).screenshot ?? '')
      .toString('base64');
    await clickExtensionAction(env.browser, page);
    ui = await ToolbarDriver.attach(page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForCount('.verify', 1);
  }, 120_000);

  afterAll(async () => {
    await ui?.detach();
    await mcp?.close();
    await env?.dispose();
    // The browser's keep-alive sockets would hold close() open for a minute and more.
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows the area at its place, nudges it by CSS px, follows the locked element', async () => {
    // Nothing of the overlay exists before it is asked for.
    expect(await page.evaluate((tag) => document.querySelectorAll(tag).length, OVERLAY_TAG)).toBe(0);
    await ui.click('.verify .btn', 0); // Overlay
    await ui.waitForStatus(/Overlay: area-1/);
    // Full opacity: the slider's End key (the slider keeps its own keys).
    await ui.click('.verify input[type="range"]');
    await page.keyboard.press('End');
    await ui.click('.verify .btn', 1); // Lock to element
    await ui.waitForStatus(/Click the element/);
    const card = await rectOf(page, '.promo');
    // In the card's padding: the card itself, not its picture.
    await page.mouse.move(card.x + 12, card.y + 12);
    await page.mouse.click(card.x + 12, card.y + 12);
    await ui.waitForStatus(/follows \S*\.promo\.?$/);
    await page.mouse.move(1, 1);
    // The page under the card goes blank, so only the overlay can paint the card's pixels.
    await page.evaluate(() => {
      (document.querySelector('.promo') as HTMLElement).style.visibility = 'hidden';
    });

    const atCard = comparePng(areaPng, await shot(), await promoAt());
    expect(atCard.mismatch, JSON.stringify(atCard)).toBeLessThan(0.01);
    expect(atCard.width).toBe(Math.round(card.width * dpr));

    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight'] as const) await page.keyboard.press(key);
    await page.keyboard.down('Shift');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.up('Shift');
    expect(await ui.text('.verify-where-row')).toMatch(/offset 3, 10 px/);
    const png = await shot();
    const moved = comparePng(areaPng, png, await promoAt(3, 10));
    expect(moved.mismatch, JSON.stringify(moved)).toBeLessThan(0.01);
    const old = comparePng(areaPng, png, await promoAt());
    expect(old.mismatch).toBeGreaterThan(0.05);
    // The arrows never reached the page: it did not scroll.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // Locked: scrolling the page carries the overlay with the card.
    await page.evaluate(() => window.scrollTo(0, 60));
    await waitUntil('the overlay to follow', async () => {
      const m = comparePng(areaPng, await shot(), await promoAt(3, 10));
      return m.mismatch < 0.01 ? m : null;
    });
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it('blends by difference: the card under its own capture is black; no agent capture shows it', async () => {
    await page.evaluate(() => {
      (document.querySelector('.promo') as HTMLElement).style.visibility = 'visible';
    });
    // Back to the card's own place: 3 left, 10 up.
    for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowLeft'] as const) await page.keyboard.press(key);
    await page.keyboard.down('Shift');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.up('Shift');
    await ui.click('.verify input[type="checkbox"]');
    const at = await promoAt();
    const card = await rectOf(page, '.promo');
    const box = { ...at, width: Math.floor(card.width * dpr), height: Math.floor(card.height * dpr) };
    await waitUntil('the difference blend', async () => {
      const dark = darkShare(await shot(), box);
      return dark > 0.98 ? dark : null;
    });
    // An agent's capture of the tab hides our elements: the card shows, not the black difference.
    const { isError, body } = await mcp.call('capture_screenshot', {
      idea_folder: IDEA,
      mode: 'viewport',
      url_contains: '/product',
    });
    expect(isError, JSON.stringify(body)).toBe(false);
    const captured = fs.readFileSync(String(body.path)).toString('base64');
    const inCapture = comparePng(areaPng, captured, at);
    expect(inCapture.mismatch, JSON.stringify(inCapture)).toBeLessThan(0.01);
    // ...and the overlay is back on the page afterwards.
    expect(darkShare(await shot(), box)).toBeGreaterThan(0.98);
  });

  it('Compare shows the host’s scores of this tab against the area, and off leaves nothing', async () => {
    await ui.click('.verify .btn', 2); // Compare
    await ui.waitForStatus(/Compared with area-1/, 60_000);
    expect(await ui.count('.verify-scores li')).toBe(6);
    const pixel = await ui.text('.verify-scores li[data-score="pixel"]');
    expect(Number(pixel.split(' ')[1])).toBeGreaterThanOrEqual(0.98);
    expect(await ui.text('.verify-report')).toMatch(/verify\/area-1-\d+\/report\.md/);
    await ui.click('.verify .btn', 0); // Overlay off
    expect(await page.evaluate((tag) => document.querySelectorAll(tag).length, OVERLAY_TAG)).toBe(0);
  });
});
