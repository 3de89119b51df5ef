import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { clickExtensionAction, rowsMatching, ToolbarDriver } from '../helpers/toolbar-driver.js';
import { fiveViewportPage } from '../support/pages.js';

/** Scroll-and-stitch on a page five viewports tall with a sticky header. */
describe('full-page capture', () => {
  let env: BrowserEnv;

  beforeAll(async () => {
    env = await BrowserEnv.start();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it('has the page size, one sticky header, and restores the scroll position', async () => {
    const page = await env.openPage('/plain?tall');
    const viewport = await page.evaluate(fiveViewportPage);
    await page.evaluate(() => window.scrollTo(0, 300));
    expect(viewport.scroll).toBe(viewport.height * 5);
    const ui = await ToolbarDriver.attach(page);
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForStatus(/Pick elements/);
    await ui.click('[data-mode="page"]');
    const status = await ui.waitForStatus(/^Full page captured/, 30_000);
    console.log(`full page (5 viewports): ${status}`);
    expect(status).toContain(`(${viewport.width}×${viewport.height * 5} px)`);
    expect(await page.evaluate(() => window.scrollY)).toBe(300);

    // The stitched image, as the worker stored it for the next save.
    const worker = await env.serviceWorker();
    const png = await worker.evaluate(async () => {
      const all = await chrome.storage.local.get(null);
      const crops = Object.entries(all).filter(([k]) => k.startsWith('xipe-toolbar:crop:'));
      const biggest = crops
        .map(([, v]) => v as { png: string; height: number })
        .sort((a, b) => b.height - a.height)[0];
      return biggest?.png ?? '';
    });
    const magenta = rowsMatching(png, [255, 0, 255]);
    expect([magenta.width, magenta.height]).toEqual([viewport.width, viewport.height * 5]);
    // The sticky header appears once, at the top, and nowhere else.
    expect(magenta.rows).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // Fixed/sticky elements are visible again afterwards.
    expect(await page.$eval('header', (h) => getComputedStyle(h).visibility)).toBe('visible');
    await ui.detach();
  });
});
