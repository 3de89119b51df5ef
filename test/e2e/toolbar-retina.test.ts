import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import {
  compareCrop,
  fullPageShot,
  lastElement,
  openRealPage,
  openToolbar,
  pageOpener,
  scrollSettled,
  viewportShot,
} from '../helpers/real-pages.js';
import { rectOf } from '../helpers/toolbar-driver.js';
import {
  COLOUR_SAMPLES,
  capturesATallElement,
  cropsClearOfFixedNavbar,
  ratesTextByItsPixels,
  samplesThePixel,
  showsNoHoverInAnArea,
  showsTheCropAtThePress,
} from '../helpers/toolbar-scenarios.js';
import { compareImages, decodePng, pngSize } from '../support/png.js';

/**
 * The toolbar on a Retina screen: Chromium started with --force-device-scale-factor=2 (a real
 * devicePixelRatio of 2, not DevTools emulation), on the nine-viewport agency page. Captures are
 * compared with the browser's own screenshots at the same scale.
 */
const IDEA = '001. Demo Idea';
const DPR = 2;

describe('toolbar on a Retina screen (DPR 2)', () => {
  let env: BrowserEnv;
  const pages = pageOpener(() => env);
  const open = pages.open;
  const ctx = () => ({ env, open, dpr: DPR });

  beforeAll(async () => {
    env = await BrowserEnv.start({ deviceScaleFactor: DPR });
  });
  afterEach(() => pages.closeAll());
  afterAll(async () => {
    await env?.dispose();
  });

  it('crops an element pixel-exact at twice the CSS size', async () => {
    const worker = await env.serviceWorker();
    const { page } = await openRealPage(open, '/real/agency');
    expect(await page.evaluate(() => devicePixelRatio)).toBe(DPR);
    const top = await page.$eval('#portfolio', (el) => el.getBoundingClientRect().top + window.scrollY);
    await scrollSettled(page, top + 100);
    const reference = await viewportShot(page);
    const img = await rectOf(page, '#portfolio-2 .portfolio-caption');
    const ui = await openToolbar(env.browser, page);
    await ui.click('[data-mode="element"]');
    // In the caption's padding, so the pick is the caption box.
    await page.mouse.move(img.x + 8, img.y + 8);
    await page.mouse.click(img.x + 8, img.y + 8);
    const { png } = await lastElement(worker, page, 1);
    // Edges are rounded outwards to whole device pixels.
    const px = {
      x: Math.floor(img.x * DPR),
      y: Math.floor(img.y * DPR),
      right: Math.ceil((img.x + img.width) * DPR),
      bottom: Math.ceil((img.y + img.height) * DPR),
    };
    const cmp = compareCrop(png, reference, px);
    expect([cmp.width, cmp.height]).toEqual([px.right - px.x, px.bottom - px.y]);
    expect(cmp.mismatch).toBe(0);
    await ui.detach();
  });

  // The scenarios of toolbar-real-pages.test.ts whose pixels depend on the scale.
  it.each(COLOUR_SAMPLES)('samples the colour of the pixel: $name', (c) => samplesThePixel(ctx(), c));
  it('computes the contrast of text from its pixels and what is behind it', () =>
    ratesTextByItsPixels(ctx()));
  it('crops the element, not the fixed navbar over it', () => cropsClearOfFixedNavbar(ctx()));
  it('shows no :hover in an area confirmed with Enter', () => showsNoHoverInAnArea(ctx()));
  it('shows the element in the panel at the press, from the frame taken while the pointer rested', () =>
    showsTheCropAtThePress(ctx()));
  it(
    'says when an element is taller than the viewport and captures all of it on request',
    () => capturesATallElement(ctx()),
    120_000,
  );

  it('stitches nine viewports like the DevTools full-page screenshot, with no stale band', async () => {
    const worker = await env.serviceWorker();
    const { page, scrollHeight, viewport } = await openRealPage(open, '/real/agency');
    expect(scrollHeight).toBeGreaterThanOrEqual(9 * viewport);
    const reference = await fullPageShot(page);
    const ui = await openToolbar(env.browser, page);
    for (let run = 1; run <= 2; run += 1) {
      await ui.click('[data-mode="page"]');
      const status = await ui.waitForStatus(/^Full page captured/, 90_000);
      console.log(`full page at DPR 2, run ${run}: ${status}`);
      const { png } = await lastElement(worker, page, run);
      const shot = decodePng(png);
      const cmp = compareImages(shot, reference);
      expect([shot.width, shot.height]).toEqual([reference.width, reference.height]);
      expect(cmp.badRows).toEqual([]);
      expect(cmp.mismatch).toBeLessThan(0.001);
    }
    await ui.detach();
  }, 240_000);

  it('saves a session with a nine-viewport full page (over 10 MiB as base64) with file paths', async () => {
    const worker = await env.serviceWorker();
    const { page } = await openRealPage(open, '/real/agency');
    const ui = await openToolbar(env.browser, page);
    await ui.click('[data-mode="page"]');
    await ui.waitForStatus(/^Full page captured/, 90_000);
    const { png } = await lastElement(worker, page, 1);
    expect(Math.ceil(png.length / 3) * 4).toBeGreaterThan(10 * 1024 * 1024);
    await ui.waitForCount(`.save option[value="${IDEA}"]`, 1);
    await ui.click('.save .row .btn:not(.secondary)');
    const status = await ui.waitForStatus(/^Saved session \d+ /, 60_000);
    const sessionPath = /→ (.+\.json)/.exec(status)?.[1] ?? '';
    const session = JSON.parse(fs.readFileSync(path.join(env.workspace, sessionPath), 'utf8'));
    const file = session.elements[0].screenshots.full_page;
    expect(file).toMatch(/^screenshots\/full-page-\d{3}\.png$/);
    const refs = path.dirname(path.dirname(path.join(env.workspace, sessionPath)));
    const written = fs.readFileSync(path.join(refs, file));
    expect(written.equals(png)).toBe(true);
    expect(pngSize(written)).toEqual(pngSize(png));
    await ui.detach();
  });
});
