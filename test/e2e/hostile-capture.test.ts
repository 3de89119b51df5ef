/**
 * Issue 27, attacks 1, 4 and 9, with the built extension, the real host and MCP server and real
 * Chromium: a hostile page on 127.0.0.1 and a collector on localhost (another site). The capture
 * fetches cross-site files without the user's cookies and no more than the cap; the clone and every
 * SVG written, opened from disk and over a loopback server with the network there to use, ask the
 * collector for nothing and never navigate; the Markdown summary shows page text as text.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FETCHES_PER_CAPTURE } from '#shared/commands/fetch-resource.js';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { type HostileServers, MANY_IMAGES, startHostileServers } from '../helpers/hostile-site.js';
import { pageSettled } from '../support/real-pages.js';

const IDEA = '001. Demo Idea';

let env: BrowserEnv;
let mcp: McpSession;
let hostile: HostileServers;
let files: Record<string, string> = {};

const refsDir = () => path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');
const pageRefs = () => path.join(refsDir(), 'page-element-references');

beforeAll(async () => {
  env = await BrowserEnv.start();
  hostile = await startHostileServers();
  mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  // The user has a SameSite=Strict session on the collector's site.
  const visit = await env.browser.newPage();
  await visit.goto(`${hostile.collector}/set-cookie`);
  await visit.close();
  const page = await env.browser.newPage();
  await page.goto(hostile.pageUrl, { waitUntil: 'load' });
  await page.evaluate(pageSettled);
  hostile.collected.length = 0;
  hostile.ownImage.length = 0;
  const { isError, body } = await mcp.call(
    'capture_area',
    { idea_folder: IDEA, selector: '#area', url_contains: 'hostile.html', timeout_ms: 90_000 },
    100_000,
  );
  expect(isError, JSON.stringify(body)).toBe(false);
  files = body.files as Record<string, string>;
  await page.close();
});

afterAll(async () => {
  await mcp?.close();
  await hostile?.close();
  await env?.dispose();
});

/** Records the clone's CSP violations from the document's first moment. */
async function watchViolations(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(() => {
    const seen: string[] = [];
    Object.defineProperty(window, '__violations', { value: seen });
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}

/** Opens `url`, hovers the element showing `hoverText` (if any), waits, and says where it ended. */
async function openAndWait(
  url: string,
  hoverText: string | null,
): Promise<{ url: string; violations: string[] }> {
  const page = await env.browser.newPage();
  try {
    await watchViolations(page);
    await page.goto(url, { waitUntil: 'load' });
    if (hoverText !== null) {
      const box = await page.evaluate((text) => {
        const el = [...document.querySelectorAll('div')].find((d) => d.textContent?.trim() === text);
        const r = el?.getBoundingClientRect();
        return r === undefined ? null : { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }, hoverText);
      expect(box, `the clone shows "${hoverText}"`).not.toBeNull();
      if (box !== null) await page.mouse.move(box.x, box.y);
    }
    // A meta refresh of 0 s or a lazy import would have gone out by now.
    await new Promise((r) => setTimeout(r, 1_500));
    const violations = url.endsWith('.svg')
      ? []
      : await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    return { url: page.url(), violations };
  } finally {
    await page.close();
  }
}

function writtenSvgs(): string[] {
  const dir = path.join(pageRefs(), 'resources');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.svg'))
    .map((f) => path.join(dir, f));
}

/** A static server for the idea's reference folder, on loopback. */
async function serveFolder(root: string): Promise<{ origin: string; close(): Promise<void> }> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.ttf': 'font/ttf',
  };
  const server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a capture of a hostile page', () => {
  it("fetches cross-site files without the user's cookies, own-site ones with them, and stops at the cap", () => {
    const fetches = hostile.collected.filter((r) => r.dest === 'empty');
    expect(fetches.length).toBeGreaterThan(0);
    expect(fetches.filter((r) => r.cookie !== null)).toEqual([]);
    expect(fetches.length).toBeLessThanOrEqual(MAX_FETCHES_PER_CAPTURE);
    expect(MAX_FETCHES_PER_CAPTURE).toBeLessThan(MANY_IMAGES);
    const own = hostile.ownImage.filter((r) => r.dest === 'empty');
    expect(own.length).toBeGreaterThan(0);
    for (const r of own) expect(r.cookie ?? '').toContain('own_session=site-cookie');
  });

  it('writes a clone and SVG files that reach nothing when opened from disk', async () => {
    hostile.collected.length = 0;
    const html = files.structure_html ?? '';
    const opened = await openAndWait(pathToFileURL(html).href, 'hover me');
    expect(opened.url, 'the clone navigated away').toBe(pathToFileURL(html).href);
    expect(opened.violations).toEqual([]);
    const svgs = writtenSvgs();
    expect(svgs.length).toBeGreaterThan(0);
    for (const svg of svgs) {
      const shown = await openAndWait(pathToFileURL(svg).href, null);
      expect(shown.url).toBe(pathToFileURL(svg).href);
    }
    expect(hostile.collected.map((r) => r.path)).toEqual([]);
    const css = fs.readFileSync(files.styles_css ?? '', 'utf8');
    expect(css.replace(/\\[0-9a-f]{1,6}\s?/gi, '?')).not.toMatch(/url\(\s*["']?(?:[a-z?]+:|\/\/|[?]{2})/i);
  });

  it('writes a clone that renders over a loopback server, still reaching nothing', async () => {
    hostile.collected.length = 0;
    const server = await serveFolder(pageRefs());
    try {
      const rel = path.relative(pageRefs(), files.structure_html ?? '');
      const page = await env.browser.newPage();
      try {
        await watchViolations(page);
        await page.goto(`${server.origin}/${rel}`, { waitUntil: 'load' });
        await page.evaluate(pageSettled);
        const state = await page.evaluate(async () => {
          await document.fonts.ready;
          return {
            fonts: [...document.fonts].filter((f) => f.status === 'loaded').length,
            images: [...document.images].filter((i) => i.complete && i.naturalWidth > 0).length,
            sheets: document.styleSheets.length,
            violations: (window as unknown as { __violations: string[] }).__violations,
          };
        });
        expect(state.violations).toEqual([]);
        expect(state.sheets).toBe(1);
        expect(state.fonts).toBeGreaterThan(0);
        expect(state.images).toBeGreaterThan(0);
      } finally {
        await page.close();
      }
    } finally {
      await server.close();
    }
    expect(hostile.collected.map((r) => r.path)).toEqual([]);
  });

  it('shows page text in the Markdown summary as text, never as a link or an image', () => {
    const summary = fs.readFileSync(path.join(pageRefs(), 'summarized-uiux-reference.md'), 'utf8');
    expect(summary).toContain('Evil');
    expect(summary).toContain('md-url');
    // Escaped characters are text: what is left must hold no link, image or HTML syntax.
    expect(summary).toContain('Evil\\]\\(');
    expect(summary.replace(/\\./g, '')).not.toMatch(/!\[|\]\(|<img/);
  });
});
