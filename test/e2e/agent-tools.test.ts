import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readToken } from '#shared/node/token.js';
import { openToolbarOnPage } from '../../cli/src/start-browser.js';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { comparePng, rectOf, ToolbarDriver } from '../helpers/toolbar-driver.js';

/**
 * inject_toolbar, capture_screenshot and list_tabs through the real MCP server, host and Chromium
 * — with user scripts NOT allowed, to show that neither tool needs them (the toolbar is a bundled
 * file; screenshots use captureVisibleTab and scripting).
 */
const IDEA = '001. Demo Idea';

describe('agent tools without user scripts', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let demo: Page;
  let csp: Page;
  let reference: string;

  beforeAll(async () => {
    env = await BrowserEnv.start({ userScripts: false });
    csp = await env.openPage('/csp');
    demo = await env.openPage('/demo/');
    await demo.evaluate(() => document.fonts.ready);
    reference = Buffer.from(await demo.screenshot({ encoding: 'binary' })).toString('base64');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  it('list_tabs gives browser, profile, window and a stable order', async () => {
    const { isError, body } = await mcp.call('list_tabs');
    expect(isError).toBe(false);
    const tabs = body.tabs as Array<Record<string, unknown>>;
    const demoTab = tabs.find((t) => String(t.url).endsWith('/demo/'));
    expect(demoTab).toMatchObject({
      browser_id: expect.stringMatching(/^chromium-/),
      profile: expect.any(String),
      window_id: expect.any(Number),
      tab_id: expect.any(Number),
      active: expect.any(Boolean),
    });
    expect(String(demoTab?.browser_id).endsWith(String(demoTab?.profile))).toBe(true);
    const again = await mcp.call('list_tabs');
    expect((again.body.tabs as unknown[]).map((t) => (t as { tab_id: number }).tab_id)).toEqual(
      tabs.map((t) => t.tab_id),
    );
  });

  describe('inject_toolbar', () => {
    it('opens the toolbar on a strict-CSP page, once however often it is called', async () => {
      const first = await mcp.call('inject_toolbar', { url_contains: '/csp' });
      expect(first.isError).toBe(false);
      expect(first.body).toMatchObject({
        status: 'success',
        already_open: false,
        tab: { url: env.url('/csp'), title: 'Strict CSP page' },
      });
      const ui = await ToolbarDriver.attach(csp);
      try {
        await waitUntil('the toolbar', async () => ((await ui.count('.status')) === 1 ? true : null));
        const second = await mcp.call('inject_toolbar', { url_contains: '/csp' });
        expect(second.body).toMatchObject({ status: 'success', already_open: true });
        expect(await ui.hostCount()).toBe(1);
        // cleanup_before replaces it: still exactly one.
        const fresh = await mcp.call('inject_toolbar', { url_contains: '/csp', cleanup_before: true });
        expect(fresh.body).toMatchObject({ status: 'success', already_open: false });
        await waitUntil('the new toolbar', async () => ((await ui.count('.status')) === 1 ? true : null));
        expect(await ui.hostCount()).toBe(1);
      } finally {
        await ui.detach();
      }
    });

    it('is what `x-ipe-uiux start` uses to open the toolbar on its page', async () => {
      const page = await env.openPage('/plain');
      const { descriptor } = await env.waitForHost();
      const outcome = await openToolbarOnPage(descriptor, readToken(env.home) ?? '', page.url());
      expect(outcome).toBe('the toolbar is open on the page');
      expect(await page.evaluate(() => document.querySelectorAll('x-ipe-uiux-toolbar').length)).toBe(1);
      await page.close();
    });

    it('targets by page_index from list_tabs', async () => {
      const { body } = await mcp.call('list_tabs');
      const tab = (body.tabs as Array<{ page_index: number; url: string }>).find((t) =>
        t.url.endsWith('/csp'),
      );
      const { isError, body: result } = await mcp.call('inject_toolbar', { page_index: tab?.page_index });
      expect(isError).toBe(false);
      expect(result).toMatchObject({ already_open: true, tab: { url: env.url('/csp') } });
    });

    it('fails clearly for a missing tab, a browser page and two targets', async () => {
      const missing = await mcp.call('inject_toolbar', { url_contains: 'no-such-page' });
      expect(missing.body).toMatchObject({ error: 'TAB_NOT_FOUND', tool_name: 'inject_toolbar' });
      const page = await env.browser.newPage();
      await page.goto('chrome://version');
      const blocked = await mcp.call('inject_toolbar', { url_contains: 'chrome://version' });
      expect(blocked.body).toMatchObject({ error: 'INJECTION_BLOCKED' });
      await page.close();
      const both = await mcp.call('inject_toolbar', { tab_id: 1, url_contains: 'x' });
      expect(both.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: expect.stringContaining('url_contains'),
      });
    });
  });

  describe('capture_screenshot', () => {
    it('writes an element shot whose pixels are the element, and no base64 by default', async () => {
      const { isError, body, size } = await mcp.call('capture_screenshot', {
        mode: 'element',
        selector: '.hero h1',
        url_contains: '/demo/',
        output_path: 'shots/h1.png',
      });
      expect(isError).toBe(false);
      const file = path.join(fs.realpathSync(env.workspace), 'shots', 'h1.png');
      const r = await rectOf(demo, '.hero h1');
      expect(body).toMatchObject({
        status: 'success',
        path: file,
        relative_path: 'shots/h1.png',
        mode: 'element',
        width: Math.ceil(r.x + r.width) - Math.floor(r.x),
        height: Math.ceil(r.y + r.height) - Math.floor(r.y),
        bytes: fs.statSync(file).size,
        tab: { url: env.url('/demo/') },
      });
      expect(body.base64).toBeUndefined();
      expect(size).toBeLessThan(2_000);
      const png = fs.readFileSync(file).toString('base64');
      const cmp = comparePng(png, reference, { x: Math.floor(r.x), y: Math.floor(r.y) });
      expect(cmp.mismatch).toBeLessThan(0.01);
    });

    it('scrolls an element below the fold into view and restores the scroll position', async () => {
      await demo.evaluate(() => window.scrollTo(0, 37));
      const { isError, body } = await mcp.call('capture_screenshot', {
        mode: 'element',
        selector: '.cta .inner',
        url_contains: '/demo/',
        output_path: path.join(env.workspace, 'shots', 'cta.png'),
      });
      expect(isError).toBe(false);
      const size = await demo.$eval('.cta .inner', (el) => {
        const b = el.getBoundingClientRect();
        return { width: b.width, height: b.height };
      });
      expect(Math.abs(Number(body.width) - size.width)).toBeLessThanOrEqual(1);
      expect(Math.abs(Number(body.height) - size.height)).toBeLessThanOrEqual(1);
      expect(await demo.evaluate(() => window.scrollY)).toBe(37);
      await demo.evaluate(() => window.scrollTo(0, 0));
    });

    it('takes the viewport without the toolbar over it, and returns base64 when asked', async () => {
      await mcp.call('inject_toolbar', { url_contains: '/demo/' });
      const ui = await ToolbarDriver.attach(demo);
      await waitUntil('the toolbar', async () => ((await ui.count('.status')) === 1 ? true : null));
      await ui.detach();
      const { isError, body, images } = await mcp.call('capture_screenshot', {
        url_contains: '/demo/',
        return_base64: true,
      });
      expect(isError).toBe(false);
      expect(body).toMatchObject({
        mode: 'viewport',
        relative_path: 'x-ipe-docs/screenshots/screenshot-001.png',
      });
      const viewport = await demo.evaluate(() => ({ w: window.innerWidth, h: window.innerHeight }));
      expect([body.width, body.height]).toEqual([viewport.w, viewport.h]);
      // The PNG comes once, as an MCP image block; the JSON only says so.
      expect(body).not.toHaveProperty('base64');
      expect(images).toEqual([{ data: expect.any(String), mimeType: 'image/png' }]);
      const base64 = images[0]?.data ?? '';
      expect(Buffer.from(base64, 'base64').equals(fs.readFileSync(String(body.path)))).toBe(true);
      // The toolbar's corner (top right) shows the page, not the toolbar.
      const corner = { x: viewport.w - 330, y: 20, width: 300, height: 180 };
      const cropped = await cropPng(demo, base64, corner);
      const cmp = comparePng(cropped, reference, corner);
      expect(cmp.mismatch).toBeLessThan(0.02);
      expect(
        await demo.evaluate(() => document.querySelector('x-ipe-uiux-toolbar')?.getAttribute('style') ?? ''),
      ).not.toContain('hidden');
    });

    it('stitches the full page and numbers shots in an idea folder', async () => {
      const first = await mcp.call('capture_screenshot', {
        mode: 'full_page',
        url_contains: '/demo/',
        idea_folder: IDEA,
      });
      expect(first.isError).toBe(false);
      const metrics = await demo.evaluate(() => ({
        w: document.documentElement.clientWidth,
        h: Math.max(document.documentElement.scrollHeight, document.body.scrollHeight),
        y: window.scrollY,
      }));
      expect(first.body).toMatchObject({
        mode: 'full_page',
        width: metrics.w,
        height: metrics.h,
        relative_path: `x-ipe-docs/ideas/${IDEA}/uiux-references/screenshots/full-page-001.png`,
      });
      expect(metrics.y).toBe(0);
      const second = await mcp.call('capture_screenshot', {
        mode: 'element',
        selector: 'h1',
        url_contains: '/demo/',
        idea_folder: IDEA,
      });
      const third = await mcp.call('capture_screenshot', {
        mode: 'element',
        selector: 'h1',
        url_contains: '/demo/',
        idea_folder: IDEA,
      });
      expect(second.body.relative_path).toMatch(/screenshots\/elem-001-crop\.png$/);
      expect(third.body.relative_path).toMatch(/screenshots\/elem-002-crop\.png$/);
    });

    it('refuses paths outside the workspace, symlink escapes included, before capturing', async () => {
      const outside = path.join(env.root, 'outside');
      fs.mkdirSync(outside, { recursive: true });
      fs.symlinkSync(outside, path.join(env.workspace, 'escape'));
      for (const output_path of [
        '../evil.png',
        'shots/../../evil.png',
        path.join(env.root, 'evil.png'),
        'escape/evil.png',
        'escape/deeper/evil.png',
        'shots/not-a-png.txt',
      ]) {
        const { isError, body } = await mcp.call('capture_screenshot', {
          url_contains: '/demo/',
          output_path,
        });
        expect(isError, output_path).toBe(true);
        expect(body, output_path).toMatchObject({
          error: 'VALIDATION_ERROR',
          tool_name: 'capture_screenshot',
        });
        expect(String(body.message)).toMatch(/output_path/);
      }
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(fs.existsSync(path.join(env.root, 'evil.png'))).toBe(false);
    });

    it('reports a selector that matches nothing, a missing tab and a missing idea', async () => {
      const none = await mcp.call('capture_screenshot', {
        mode: 'element',
        selector: '.nope',
        url_contains: '/demo/',
      });
      expect(none.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: expect.stringContaining('selector'),
      });
      const noSelector = await mcp.call('capture_screenshot', { mode: 'element', url_contains: '/demo/' });
      expect(noSelector.body).toMatchObject({ error: 'VALIDATION_ERROR' });
      const tab = await mcp.call('capture_screenshot', { url_contains: 'no-such-page' });
      expect(tab.body).toMatchObject({ error: 'TAB_NOT_FOUND' });
      const idea = await mcp.call('capture_screenshot', {
        url_contains: '/demo/',
        idea_folder: 'No Such Idea',
      });
      expect(idea.body).toMatchObject({
        error: 'IDEA_NOT_FOUND',
        message: expect.stringMatching(
          /^Idea folder not found: No Such Idea\. Looked in \S.*: existing ideas: "001\. Demo Idea"\. Pass one of the existing names/,
        ),
      });
    });
  });
});

/** A region of a PNG (base64) as a new PNG (base64), decoded in the page. */
async function cropPng(
  page: Page,
  png: string,
  r: { x: number; y: number; width: number; height: number },
): Promise<string> {
  return page.evaluate(
    async (b64, x, y, w, h) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const c = new OffscreenCanvas(w, h);
      const ctx = c.getContext('2d');
      if (!ctx) throw new Error('no 2d');
      ctx.drawImage(bmp, x, y, w, h, 0, 0, w, h);
      const blob = await c.convertToBlob({ type: 'image/png' });
      const out = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const b of out) s += String.fromCharCode(b);
      return btoa(s);
    },
    png,
    r.x,
    r.y,
    r.width,
    r.height,
  );
}
