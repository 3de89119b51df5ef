/**
 * Deep capture end to end in real Chromium: the engine runs in the page through the extension
 * (its bundle injected into the isolated world by the service worker), the clone is written to
 * disk, opened from there with every network request refused, and compared with the browser's
 * own screenshot of the area (test/support/deep-capture.js). Until the host writes captures
 * (`capture_area`), this test stands in for the resource fetcher and the writer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferencedElements } from '#shared/deep-capture/referenced-elements.js';
import { EXTENSION_DIST, launchChromium } from '../support/chromium.js';
import {
  captureArea,
  comparePngs,
  measureArea,
  median,
  rectOf,
  rectShot,
  renderOffline,
  writeClone,
} from '../support/deep-capture.js';
import {
  AREAS,
  type FixtureServer,
  fillSignup,
  SIGNUP_SECRETS,
  startFixtureServer,
} from '../support/deep-fixtures.js';
import { pageSettled } from '../support/real-pages.js';

let root: string;
let browser: Browser;
let server: FixtureServer;
let scratch: Page;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'xdeep-'));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  server = await startFixtureServer();
  browser = await launchChromium({
    userDataDir: path.join(root, 'profile'),
    env: { ...process.env, HOME: home },
    installHost: false,
    // Areas up to ~900 px tall must fit the viewport: Chromium paints nothing below it.
    windowSize: '1280,1000',
  });
  scratch = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
});

async function openPage(page: string): Promise<Page> {
  const tab = await browser.newPage();
  await tab.goto(server.pageUrl(page), { waitUntil: 'load' });
  await tab.evaluate(pageSettled);
  return tab;
}

describe('the clone of an area, rendered offline, matches the page', () => {
  const shares = new Map<string, number>();

  it.each(AREAS)('$name', async (area) => {
    const dir = path.join(root, area.name);
    const result = await measureArea({ browser, scratch, server, area, dir });
    shares.set(area.name, result.share);
    expect(result.refused, 'the clone asked the network for something').toEqual([]);
    expect(result.share, `${area.name}: see ${dir}/diff.png`).toBeGreaterThanOrEqual(0.9);
    const html = fs.readFileSync(result.written.htmlPath, 'utf8');
    // The header comment names the page the clone came from; no rule may point anywhere.
    const css = fs.readFileSync(result.written.cssPath, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(html).not.toMatch(/<script|\son[a-z]+\s*=|javascript:/i);
    expect(css).not.toMatch(/https?:|url\(\s*["']?\/\//i);
    const referenced = ReferencedElements.parse(
      JSON.parse(fs.readFileSync(result.written.referencedPath, 'utf8')),
    );
    const refsDir = path.dirname(result.written.referencedPath);
    const area1 = referenced.areas[0];
    expect(area1?.elements.length).toBeGreaterThan(0);
    for (const r of referenced.static_resources)
      expect(fs.existsSync(path.join(refsDir, r.local_path ?? 'missing'))).toBe(true);
  });

  it('reaches a median of 0.97 over all areas', () => {
    expect(shares.size).toBe(AREAS.length);
    expect(median([...shares.values()])).toBeGreaterThanOrEqual(0.97);
  });
});

describe('what a capture never holds', () => {
  it('typed values, the password, checked boxes, scripts and handlers stay in the page', async () => {
    const page = await openPage('signup.html');
    try {
      await fillSignup(page);
      const rect = await rectOf(page, '.signup-card');
      const { capture, screenshot } = await captureArea(browser, page, rect);
      const dir = path.join(root, 'secrets');
      const written = await writeClone({ capture, screenshot, dir, scratch });
      const everything = [
        JSON.stringify(capture),
        fs.readFileSync(written.referencedPath, 'utf8'),
        fs.readFileSync(written.htmlPath, 'utf8'),
        fs.readFileSync(written.cssPath, 'utf8'),
      ].join('\n');
      for (const secret of SIGNUP_SECRETS) {
        expect(everything, secret).not.toContain(secret);
      }
      // No checked box or chosen option, as an attribute or a key (selected_area_… is the area's box).
      expect(everything).not.toMatch(/\bchecked\b|\bselected\b(?!_area)/);
      const password = capture.nodes.find((n) => n.attrs.type === 'password');
      expect(password?.attrs).toEqual({ type: 'password', placeholder: 'At least 12 characters' });
    } finally {
      await page.close();
    }
  });

  it('leaves the page as it was: DOM, focus, scroll and typed text', async () => {
    const page = await openPage('signup.html');
    try {
      await page.click('#email');
      await page.keyboard.type('kept@example.com');
      const rect = await rectOf(page, '.signup-card');
      await page.evaluate((y) => window.scrollTo(0, y), rect.y);
      const state = () =>
        page.evaluate(() => ({
          html: document.documentElement.outerHTML,
          focus: document.activeElement?.id ?? null,
          scroll: [window.scrollX, window.scrollY],
          value: (document.getElementById('email') as HTMLInputElement).value,
        }));
      await page.evaluate(() => {
        const w = window as unknown as { __mutations: string[] };
        w.__mutations = [];
        new MutationObserver((records) => {
          for (const r of records) {
            const nodes = [...Array.from(r.addedNodes), ...Array.from(r.removedNodes)];
            w.__mutations.push(`${r.type}:${nodes.map((n) => n.nodeName).join(',') || r.attributeName}`);
          }
        }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      });
      const before = await state();
      await captureArea(browser, page, rect, { scrollY: rect.y });
      expect(await state()).toEqual(before);
      // The only change the page can see: the probe that measures initial values, in and out.
      const mutations = await page.evaluate(
        () => (window as unknown as { __mutations: string[] }).__mutations,
      );
      expect(mutations.every((m) => m === 'childList:X-IPE-UIUX-PROBE')).toBe(true);
    } finally {
      await page.close();
    }
  });
});

describe('interaction states and stylesheets', () => {
  it('a hovered link in the clone looks like the hovered link in the page', async () => {
    const page = await openPage('landing.html');
    try {
      const rect = await rectOf(page, '.site-header');
      const { capture, screenshot } = await captureArea(browser, page, rect);
      const hovered = capture.nodes.filter((n) => n.states.some((s) => s.state === 'hover'));
      expect(hovered.length).toBeGreaterThan(0);
      const written = await writeClone({ capture, screenshot, dir: path.join(root, 'hover'), scratch });
      expect(fs.readFileSync(written.cssPath, 'utf8')).toMatch(/\.link-\d+:hover \{/);

      // Hover "Customers" in the page, then at the same place in the clone.
      const link = await page.evaluate(() => {
        const a = Array.from(document.querySelectorAll('.main-nav a')).find(
          (e) => e.textContent === 'Customers',
        );
        const r = a?.getBoundingClientRect();
        if (r === undefined) return null;
        return {
          x: r.left + r.width / 2,
          y: r.top + r.height / 2,
          scrollX: window.scrollX,
          scrollY: window.scrollY,
        };
      });
      if (link === null) throw new Error('no Customers link');
      await page.mouse.move(link.x, link.y);
      await new Promise((r) => setTimeout(r, 100));
      const pageHovered = await rectShot(page, rect);
      const inClone = { x: link.x - (rect.x - link.scrollX), y: link.y - (rect.y - link.scrollY) };
      const { screenshot: rendered } = await renderOffline(browser, written.htmlPath, rect, {
        hover: inClone,
      });
      const { share } = await comparePngs(scratch, pageHovered, rendered);
      expect(share).toBeGreaterThanOrEqual(0.99);
      const { share: unhovered } = await comparePngs(scratch, screenshot, pageHovered);
      expect(unhovered, 'hovering must change the page, or this test proves nothing').toBeLessThan(0.9999);
    } finally {
      await page.close();
    }
  });

  it('keeps the web fonts that text inside an inline SVG is set in', async () => {
    const page = await openPage('docs.html');
    try {
      const { capture } = await captureArea(browser, page, await rectOf(page, '.flow'));
      expect(capture.nodes.map((n) => n.kind)).toEqual(['svg']);
      expect(new Set(capture.fonts.map((f) => f.family))).toEqual(new Set(['Fixture Sans', 'Fixture Mono']));
    } finally {
      await page.close();
    }
  });

  it('reports a cross-origin stylesheet it could not read', async () => {
    const page = await openPage('landing.html');
    try {
      const { capture } = await captureArea(browser, page, await rectOf(page, '.site-header'));
      expect(capture.diagnostics.unreadable_sheets).toEqual([`${server.remoteOrigin}/theme.css`]);
    } finally {
      await page.close();
    }
  });
});

describe('the engine bundle', () => {
  it('is its own file: the toolbar bundle does not carry it', () => {
    const toolbar = fs.readFileSync(
      path.join(EXTENSION_DIST, 'extension/src/content/toolbar/content.js'),
      'utf8',
    );
    const engine = fs.readFileSync(
      path.join(EXTENSION_DIST, 'extension/src/content/deep-capture/index.js'),
      'utf8',
    );
    expect(engine).toContain('__xipeDeepCapture');
    expect(toolbar).not.toContain('__xipeDeepCapture');
    expect(toolbar).not.toContain('scroll-initial-target');
  });
});
