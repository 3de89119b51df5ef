/**
 * `capture_area`'s own screenshot (`screenshots/area-N.png`) of an area taller than the viewport
 * on a page with fixed layers, judged against the browser's own screenshot of the same rows
 * (DevTools Page.captureScreenshot): the first viewport as the page shows it, every later one with
 * the page's fixed and sticky layers hidden — they show once, not again over each band.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { comparePngs, FIDELITY_TOLERANCE, rectOf, rectShot } from '../support/deep-capture.js';
import { type FixtureServer, startFixtureServer } from '../support/deep-fixtures.js';
import { type CorpusServer, corpusPages, startCorpusServer } from '../support/real-corpus.js';
import { openCorpusPage } from '../support/real-measure.js';
import { pageSettled } from '../support/real-pages.js';

const IDEA = '001. Demo Idea';

let env: BrowserEnv;
let mcp: McpSession;
let server: FixtureServer;
let scratch: Page;
let corpus: CorpusServer;
const agency = corpusPages(['sb-agency/index.html']);

beforeAll(async () => {
  env = await BrowserEnv.start();
  server = await startFixtureServer();
  corpus = await startCorpusServer(agency);
  mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  scratch = await env.browser.newPage();
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await corpus?.close();
  await env?.dispose();
});

type Rect = { x: number; y: number; width: number; height: number };

/** Hides (or shows again) every fixed and sticky element of the page. */
function setLayersHidden(hidden: boolean): void {
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
    const pos = getComputedStyle(el).position;
    if (hidden && (pos === 'fixed' || pos === 'sticky')) el.dataset.refHidden = '1';
    if (el.dataset.refHidden === '1') el.style.visibility = hidden ? 'hidden' : '';
    if (!hidden) delete el.dataset.refHidden;
  }
}

/**
 * The browser's own picture of `rect`, one viewport of rows at a time from the area's top, drawn
 * together in the scratch page: fixed and sticky layers hidden below the first viewport (and in it
 * too with `hideFirst`).
 */
async function referenceShot(page: Page, rect: Rect, hideFirst = false): Promise<Buffer> {
  const vh = await page.evaluate(() => document.documentElement.clientHeight);
  const bands: { y: number; png: string }[] = [];
  for (let top = rect.y; top < rect.y + rect.height; top += vh) {
    await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (top > rect.y || hideFirst) await page.evaluate(setLayersHidden, true);
    const height = Math.min(vh, rect.y + rect.height - top);
    const png = await rectShot(page, { x: rect.x, y: top, width: rect.width, height });
    bands.push({ y: top - rect.y, png: png.toString('base64') });
  }
  await page.evaluate(setLayersHidden, false);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  const b64 = await scratch.evaluate(
    async (list, w, h) => {
      const canvas = new OffscreenCanvas(w, h);
      const ctx = canvas.getContext('2d');
      if (ctx === null) throw new Error('no 2D context');
      for (const band of list) {
        const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${band.png}`)).blob());
        ctx.drawImage(img, 0, band.y);
      }
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    },
    bands,
    Math.round(rect.width),
    Math.round(rect.height),
  );
  return Buffer.from(b64, 'base64');
}

/** The area's own screenshot matches the browser's (≥ 0.99 of pixels); on failure the images are kept. */
async function expectMatches(shot: Buffer, reference: Buffer): Promise<void> {
  const { share, sizes, diff } = await comparePngs(scratch, shot, reference, FIDELITY_TOLERANCE);
  let report = '';
  if (share < 0.99) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-area-tall-'));
    for (const [name, bytes] of Object.entries({ shot, reference, diff }))
      fs.writeFileSync(path.join(dir, `${name}.png`), bytes);
    report = `area-N.png vs the browser's screenshot (sizes ${sizes.join('×')}), images in ${dir}`;
  }
  expect(share, report).toBeGreaterThanOrEqual(0.99);
}

describe("capture_area's own screenshot of a tall area", () => {
  it('shows fixed layers once, at the top, as the browser does', async () => {
    const page = await env.browser.newPage();
    try {
      await page.goto(server.pageUrl('tall-fixed.html'), { waitUntil: 'load' });
      await page.evaluate(pageSettled);
      const rect = await rectOf(page, '.tall');
      const vh = await page.evaluate(() => window.innerHeight);
      expect(rect.height).toBeGreaterThan(2 * vh);
      const { isError, body } = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.tall',
        url_contains: 'tall-fixed.html',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      const shot = fs.readFileSync((body.files as Record<string, string>).screenshot ?? '');
      // The layers hidden for the bands are put back as they were.
      const styled = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.navbar, .veil, .to-top'), (el) => el.getAttribute('style')),
      );
      expect(styled).toEqual([null, null, null]);
      await expectMatches(shot, await referenceShot(page, rect));
    } finally {
      await page.close();
    }
  });

  it('shows no fixed navbar over a tall section of a real template (sb-agency)', async () => {
    const [spec] = agency;
    if (spec === undefined) throw new Error('sb-agency/index.html is not in the corpus');
    const page = await openCorpusPage(env.browser, corpus.pageUrl(spec));
    try {
      const vh = await page.evaluate(() => window.innerHeight);
      // The tallest section, by rule; it must need more than two bands.
      const selector = await page.evaluate(() => {
        const sections = Array.from(document.querySelectorAll('section[id]'));
        sections.sort((a, b) => b.getBoundingClientRect().height - a.getBoundingClientRect().height);
        return sections[0] ? `#${sections[0].id}` : null;
      });
      if (selector === null) throw new Error('sb-agency has no section with an id');
      const rect = await rectOf(page, selector);
      expect(rect.height).toBeGreaterThan(1.5 * vh);
      expect(
        await page.evaluate(() => getComputedStyle(document.querySelector('#mainNav') as Element).position),
      ).toBe('fixed');
      const { isError, body } = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector,
        url_contains: 'startbootstrap-agency',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      const shot = fs.readFileSync((body.files as Record<string, string>).screenshot ?? '');
      // Below the fold, the navbar is outside the area and made transparent from the first band.
      await expectMatches(shot, await referenceShot(page, rect, true));
    } finally {
      await page.close();
    }
  });
});
