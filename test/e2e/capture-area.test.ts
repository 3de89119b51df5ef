/**
 * `capture_area` end to end (docs/design.md §7): the real MCP server, host and Chromium with the built
 * extension, on the deep-capture fixture site. The extension captures and fetches, the host judges
 * and writes; the test reads what landed on disk, renders the clone offline with every network
 * request refused and compares it with the screenshot the extension took.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferencedElements } from '#shared/deep-capture/referenced-elements.js';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { comparePngs, FIDELITY_TOLERANCE, rectOf, rectShot, renderOffline } from '../support/deep-capture.js';
import {
  type FixtureServer,
  fillSignup,
  SIGNUP_SECRETS,
  startFixtureServer,
} from '../support/deep-fixtures.js';
import { pageSettled } from '../support/real-pages.js';

const IDEA = '001. Demo Idea';

let env: BrowserEnv;
let mcp: McpSession;
let server: FixtureServer;
let scratch: Page;

beforeAll(async () => {
  env = await BrowserEnv.start();
  server = await startFixtureServer();
  mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  scratch = await env.browser.newPage();
});

afterAll(async () => {
  if (process.env.XIPE_KEEP_DEBUG) fs.cpSync(refsDir(), '/tmp/de/keep', { recursive: true });
  await mcp?.close();
  await server?.close();
  await env?.dispose();
});

async function open(page: string): Promise<Page> {
  const tab = await env.browser.newPage();
  await tab.goto(server.pageUrl(page), { waitUntil: 'load' });
  await tab.evaluate(pageSettled);
  return tab;
}

/** Writes the images of a failed comparison where CI keeps them, and says where and their sizes. */
function failureReport(name: string, images: Record<string, Buffer>, sizes: number[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `capture-area-${name}-`));
  for (const [file, bytes] of Object.entries(images)) fs.writeFileSync(path.join(dir, `${file}.png`), bytes);
  return `crop vs clone (sizes ${sizes.join('×')}), images in ${dir}`;
}

/** The clone's offline render matches the area's crop (≥ 0.97 of pixels); on failure both and the diff are kept. */
async function expectCloneMatches(name: string, crop: Buffer, clone: Buffer): Promise<void> {
  const { share, sizes, diff } = await comparePngs(scratch, crop, clone, FIDELITY_TOLERANCE);
  const report = share < 0.97 ? failureReport(name, { crop, clone, diff }, sizes) : '';
  expect(share, report).toBeGreaterThanOrEqual(0.97);
}

const refsDir = () => path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');

function readReferenced(): ReferencedElements {
  const file = path.join(refsDir(), 'page-element-references', 'referenced-elements.json');
  return ReferencedElements.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** The resource files an area uses, from referenced-elements.json (the answer only counts them). */
function areaResources(areaId: string): Array<{ type: string; src: string; local_path: string }> {
  return readReferenced()
    .static_resources.filter((r) => r.usage.split(', ').includes(areaId))
    .map((r) => ({ type: r.type, src: r.src, local_path: r.local_path ?? '' }));
}

describe('capture_area', () => {
  it('captures a section below the fold under a sticky header, and its clone renders it offline', async () => {
    const page = await open('landing.html');
    try {
      await page.focus('.btn-ghost');
      const before = await page.evaluate(() => ({
        y: window.scrollY,
        focus: document.activeElement?.className,
      }));
      const { isError, body, size } = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.pricing',
        instruction: 'Rebuild the pricing table',
        url_contains: 'landing.html',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      expect(body).toMatchObject({ status: 'success', area_id: 'area-1' });
      expect(body.element_count as number).toBeGreaterThan(20);
      // Small: paths and counts only.
      expect(size).toBeLessThan(4096);
      expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(2048);
      expect(body).toMatchObject({ resource_count: expect.any(Number), skipped_count: expect.any(Number) });
      expect(
        await page.evaluate(() => ({ y: window.scrollY, focus: document.activeElement?.className })),
      ).toEqual(before);

      const files = body.files as Record<string, string>;
      for (const file of Object.values(files)) expect(fs.existsSync(file), file).toBe(true);
      expect(path.basename(files.screenshot ?? '')).toBe('area-1.png');
      const referenced = readReferenced();
      expect(referenced.areas.map((a) => [a.area_id, a.instruction])).toEqual([
        ['area-1', 'Rebuild the pricing table'],
      ]);
      const summary = fs.readFileSync(
        path.join(refsDir(), 'page-element-references', 'summarized-uiux-reference.md'),
        'utf8',
      );
      expect(summary).toContain('## area-1 — Rebuild the pricing table');
      expect(Buffer.byteLength(summary)).toBeLessThan(8 * 1024);

      // Fonts are the server's bytes, under content-hash names.
      const resources = areaResources('area-1');
      expect(resources).toHaveLength(body.resource_count as number);
      const fonts = resources.filter((r) => r.type === 'font');
      expect(fonts.length).toBeGreaterThan(0);
      for (const r of resources) {
        const onDisk = fs.readFileSync(path.join(refsDir(), 'page-element-references', r.local_path));
        const served = Buffer.from(await (await fetch(r.src)).arrayBuffer());
        expect(onDisk.equals(served), r.src).toBe(true);
        expect(path.basename(r.local_path)).toMatch(/^[0-9a-f]{20}\.(ttf|png|svg)$/);
      }

      const shot = fs.readFileSync(files.screenshot ?? '');
      const rect = referenced.areas[0]?.selected_area_bounding_box;
      if (rect === undefined || rect === null) throw new Error('no area');
      const rendered = await renderOffline(env.browser, files.structure_html ?? '', rect);
      expect(rendered.refused).toEqual([]);
      await expectCloneMatches('pricing', shot, rendered.screenshot);
      // The sticky header was not over the area: the crop is the section itself.
      const cropTop = await comparePngs(scratch, shot, rendered.screenshot, 0);
      expect(cropTop.share).toBeGreaterThan(0.9);
    } finally {
      await page.close();
    }
  });

  it("writes the area's images byte-exact: a CSS background, the srcset's choice, the fonts", async () => {
    const page = await open('landing.html');
    try {
      const { isError, body } = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.hero',
        area_id: 'area-5',
        url_contains: 'landing.html',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      const resources = areaResources('area-5');
      const srcs = resources.map((r) => r.src);
      // At DPR 1 the 1x candidate, never the 2x one; the hero's photo comes from its stylesheet.
      expect(srcs).toContain(server.pageUrl('img/photo.png?w=640&h=360&seed=7'));
      expect(srcs).not.toContain(server.pageUrl('img/photo.png?w=1280&h=720&seed=7'));
      expect(srcs).toContain(server.pageUrl('img/photo.png?w=1600&h=700&seed=3'));
      expect(resources.filter((r) => r.type === 'font').length).toBeGreaterThan(0);
      for (const r of resources) {
        const onDisk = fs.readFileSync(path.join(refsDir(), 'page-element-references', r.local_path));
        const served = Buffer.from(await (await fetch(r.src)).arrayBuffer());
        expect(onDisk.equals(served), r.src).toBe(true);
      }
      const files = body.files as Record<string, string>;
      const rect = await rectOf(page, '.hero');
      const rendered = await renderOffline(env.browser, files.structure_html ?? '', rect);
      expect(rendered.refused).toEqual([]);
      const shot = fs.readFileSync(files.screenshot ?? '');
      // The hero sits right under the sticky header, which is not stuck at scroll 0: a clone that
      // let it stick again would draw it over the hero's top.
      await expectCloneMatches('hero', shot, rendered.screenshot);
    } finally {
      await page.close();
    }
  });

  it('captures a page rectangle into a given area id, and replaces it when captured again', async () => {
    const page = await open('landing.html');
    try {
      const rect = await rectOf(page, '.pricing');
      // Below the fold, under the sticky header once scrolled to.
      expect(rect.y).toBeGreaterThan(await page.evaluate(() => window.innerHeight));
      const args = { idea_folder: IDEA, rect, area_id: 'area-7', url_contains: 'landing.html' };
      const first = await mcp.call('capture_area', args);
      expect(first.isError, JSON.stringify(first.body)).toBe(false);
      expect(first.body).toMatchObject({ area_id: 'area-7' });
      const files = first.body.files as Record<string, string>;
      const shot = fs.readFileSync(files.screenshot ?? '');
      // The crop is the section itself: the browser's own shot of it with the header out of the way.
      const headerPosition = await page.evaluate(() => {
        const h = document.querySelector<HTMLElement>('.site-header');
        if (h === null) return null;
        h.style.visibility = 'hidden';
        return getComputedStyle(h).position;
      });
      expect(headerPosition).toBe('sticky');
      await page.evaluate((y) => window.scrollTo(0, y), rect.y);
      const truth = await rectShot(page, rect);
      await page.evaluate(() => {
        document.querySelector<HTMLElement>('.site-header')?.style.removeProperty('visibility');
        window.scrollTo(0, 0);
      });
      const unobstructed = await comparePngs(scratch, shot, truth, FIDELITY_TOLERANCE);
      expect(unobstructed.share).toBeGreaterThanOrEqual(0.99);
      const rendered = await renderOffline(env.browser, files.structure_html ?? '', rect);
      expect(rendered.refused).toEqual([]);
      await expectCloneMatches('rect', shot, rendered.screenshot);
      const again = await mcp.call('capture_area', { ...args, instruction: 'second take' });
      expect(again.isError, JSON.stringify(again.body)).toBe(false);
      const areas = readReferenced().areas.map((a) => [a.area_id, a.instruction]);
      expect(areas).toEqual([
        ['area-1', 'Rebuild the pricing table'],
        ['area-5', ''],
        ['area-7', 'second take'],
      ]);
      const next = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.site-header',
        url_contains: 'landing.html',
      });
      expect(next.body).toMatchObject({ area_id: 'area-8' });
      // The sticky header the area was drawn around is the area, not a bar to get out of the way.
      const header = readReferenced().areas.find((a) => a.area_id === 'area-8');
      const tags = header?.elements.map((e) => e.element_details.tag) ?? [];
      expect(tags).toContain('header');
      expect(tags.filter((t) => t === 'a').length).toBeGreaterThanOrEqual(6);
      const statics = readReferenced().static_resources.map((r) => r.local_path);
      expect(new Set(statics).size).toBe(statics.length);
    } finally {
      await page.close();
    }
  });

  it("reads a cross-origin stylesheet's :hover rules through the extension: the clone hovers like the page", async () => {
    const page = await open('landing.html');
    try {
      // The page applies the other origin's sheet but cannot read it (no CORS).
      const readable = await page.evaluate((origin) => {
        const sheet = Array.from(document.styleSheets).find((s) => s.href?.startsWith(origin));
        try {
          return sheet === undefined ? null : sheet.cssRules.length >= 0;
        } catch {
          return false;
        }
      }, server.remoteOrigin);
      expect(readable).toBe(false);
      const { isError, body } = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.promo-banner',
        url_contains: 'landing.html',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      const files = body.files as Record<string, string>;
      const css = fs.readFileSync(files.styles_css ?? '', 'utf8');
      expect(css).toMatch(/:hover \{[^}]*(#fed7aa|254, 215, 170)/);

      // Hover the banner in the page and at the same place in the clone opened offline.
      const rect = await rectOf(page, '.promo-banner');
      await page.evaluate((y) => window.scrollTo(0, y - 100), rect.y);
      const scrollY = await page.evaluate(() => window.scrollY);
      const at = { x: rect.width / 2, y: rect.height / 2 };
      await page.mouse.move(rect.x + at.x, rect.y - scrollY + at.y);
      await new Promise((r) => setTimeout(r, 150));
      const hoveredPage = await rectShot(page, rect);
      const hoveredClone = await renderOffline(env.browser, files.structure_html ?? '', rect, { hover: at });
      expect(hoveredClone.refused).toEqual([]);
      await expectCloneMatches('hover', hoveredPage, hoveredClone.screenshot);
      const unhovered = fs.readFileSync(files.screenshot ?? '');
      const { share: same } = await comparePngs(scratch, unhovered, hoveredPage, FIDELITY_TOLERANCE);
      expect(same, 'hovering must change the banner, or this test proves nothing').toBeLessThan(0.9);
    } finally {
      await page.close();
    }
  });

  it("leaves the page's listeners as they were, and sends it no focus, pointer or key events", async () => {
    const page = await open('landing.html');
    const cdp = await page.createCDPSession();
    try {
      await page.focus('.btn-ghost');
      await page.evaluate(() => {
        const w = window as unknown as { __seen: string[] };
        w.__seen = [];
        const types = ['focus', 'blur', 'focusin', 'focusout', 'pointerover', 'pointermove', 'pointerdown'];
        for (const t of [...types, 'mouseover', 'mousemove', 'click', 'keydown', 'keyup', 'input', 'change'])
          window.addEventListener(t, () => w.__seen.push(t), true);
        document.addEventListener('visibilitychange', () => w.__seen.push('visibilitychange'));
      });
      // Every listener on the window and anywhere in the document (open shadow roots too).
      const listeners = async () => {
        const all: string[] = [];
        for (const expression of ['window', 'document']) {
          const { result } = await cdp.send('Runtime.evaluate', { expression });
          const { listeners: found } = await cdp.send('DOMDebugger.getEventListeners', {
            objectId: result.objectId ?? '',
            depth: -1,
            pierce: true,
          });
          for (const l of found)
            all.push(`${expression} ${l.type} ${l.useCapture} ${l.scriptId}:${l.lineNumber}`);
        }
        return all.sort();
      };
      const before = await listeners();
      expect(before.some((l) => l.startsWith('document click'))).toBe(true);
      const { isError, body } = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.pricing',
        area_id: 'area-1',
        instruction: 'Rebuild the pricing table',
        url_contains: 'landing.html',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      expect(await listeners()).toEqual(before);
      expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).toEqual([]);
      expect(await page.evaluate(() => document.activeElement?.className)).toContain('btn-ghost');
    } finally {
      await cdp.detach();
      await page.close();
    }
  });

  it('never writes typed values, the password or handlers', async () => {
    const page = await open('signup.html');
    try {
      await fillSignup(page);
      const { isError, body } = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.signup-card',
        url_contains: 'signup.html',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      // Every file written into the idea, whatever its name: the text ones are read whole.
      const ideaDir = path.dirname(refsDir());
      const files = (fs.readdirSync(ideaDir, { recursive: true }) as string[])
        .map((f) => path.join(ideaDir, f))
        .filter((f) => fs.statSync(f).isFile());
      const texts = files.filter((f) => /\.(json|md|html|css|svg)$/.test(f));
      expect(texts.map((f) => path.basename(f))).toEqual(
        expect.arrayContaining(['referenced-elements.json', 'summarized-uiux-reference.md']),
      );
      expect(texts.some((f) => f.endsWith('-structure.html'))).toBe(true);
      for (const file of files) {
        const bytes = fs.readFileSync(file);
        for (const secret of SIGNUP_SECRETS)
          expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
        if (/\.(html|svg)$/.test(file))
          expect(bytes.toString('utf8'), file).not.toMatch(/<script|\son[a-z]+\s*=|javascript:/i);
      }
    } finally {
      await page.close();
    }
  });

  it('reports deep captures to wait_for_captures and serves the JSON as a resource', async () => {
    const { body } = await mcp.call('wait_for_captures', { timeout_ms: 0 });
    const deep = (body.events as Array<{ type: string; data: Record<string, unknown> }>).filter(
      (e) => e.type === 'deep_capture_saved',
    );
    expect(deep.length).toBeGreaterThan(0);
    expect(deep[0]?.data).toMatchObject({
      idea_folder: IDEA,
      area_id: 'area-1',
      files: { structure_html: expect.stringMatching(/area-1-structure\.html$/) },
    });
    const text = await mcp.readResource(`xipe://ideas/${encodeURIComponent(IDEA)}/referenced-elements`);
    expect(ReferencedElements.parse(JSON.parse(text)).areas.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses bad input with clear errors and writes nothing', async () => {
    const page = await open('landing.html');
    try {
      const before = readReferenced();
      const both = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.hero',
        rect: { x: 0, y: 0, width: 10, height: 10 },
      });
      expect(both.isError).toBe(true);
      expect(both.body).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect(String(both.body.message)).toMatch(/rect: expected exactly one of selector and rect, got both/);
      const neither = await mcp.call('capture_area', { idea_folder: IDEA });
      expect(neither.body).toMatchObject({ error: 'VALIDATION_ERROR' });
      const unknown = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.no-such-thing',
        url_contains: 'landing.html',
      });
      expect(unknown.body).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect(String(unknown.body.message)).toContain('.no-such-thing');
      const idea = await mcp.call('capture_area', {
        idea_folder: '999. Nope',
        selector: '.hero',
        url_contains: 'landing.html',
      });
      expect(idea.body).toMatchObject({
        error: 'IDEA_NOT_FOUND',
        message: expect.stringContaining('Idea folder not found: 999. Nope'),
      });
      const settings = await env.browser.newPage();
      await settings.goto('chrome://version');
      const blocked = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: 'body',
        url_contains: 'chrome://version',
      });
      await settings.close();
      expect(blocked.body).toMatchObject({ error: 'INJECTION_BLOCKED' });
      expect(readReferenced()).toEqual(before);
    } finally {
      await page.close();
    }
  });
});
