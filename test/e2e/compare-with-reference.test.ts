/**
 * `compare_with_reference` end to end (DESIGN §8): the real MCP server, host and Chromium with the
 * built extension. A fixture page's promo card is deep-captured; its own clone must score ≥ 0.98;
 * an independently written rebuild (other classes and DOM, six known changes) must have ≥ 90 % of
 * them named in report.json with at most two false differences. The designer's tab keeps its URL,
 * scroll and focus; bad candidates and references are refused; the served file is gone after.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { REPO_ROOT } from '../helpers/fake-extension.js';
import { CLI_BIN } from '../support/chromium.js';

const IDEA = '001. Demo Idea';
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'verify');

let env: BrowserEnv;
let mcp: McpSession;
let server: http.Server;
let origin: string;
let designer: Page;

beforeAll(async () => {
  // A desktop's screen: headless Chromium's default one refuses any other size for the render window.
  env = await BrowserEnv.start({ extraArgs: ['--screen-info={0,0 1920x1080}'] });
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(fs.readFileSync(path.join(FIXTURES, req.url === '/viewport' ? 'viewport.html' : 'page.html')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  designer = await env.browser.newPage();
  await designer.goto(`${origin}/product`, { waitUntil: 'load' });
});

afterAll(async () => {
  await mcp?.close();
  await env?.dispose();
  // The browser's keep-alive sockets would hold close() open for a minute and more.
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const refsDir = () => path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');

interface Report {
  scores: Record<string, number | null>;
  differences: Array<{
    kind: string;
    property: string | null;
    selector: string | null;
    reference: string | null;
    text: string;
  }>;
}

const readReport = (file: string): Report => JSON.parse(fs.readFileSync(file, 'utf8')) as Report;

describe('compare_with_reference', () => {
  it('scores the clone of a captured area ≥ 0.98 and leaves the designer tab as it was', async () => {
    const captured = await mcp.call('capture_area', {
      idea_folder: IDEA,
      selector: '.promo',
      url_contains: '/product',
    });
    expect(captured.isError, JSON.stringify(captured.body)).toBe(false);
    await designer.evaluate(() => window.scrollTo(0, 300));
    const before = await designer.evaluate(() => ({
      url: location.href,
      y: window.scrollY,
      focus: document.hasFocus(),
    }));
    const tabsBefore = await mcp.call('list_tabs');
    const worker = await env.serviceWorker();
    const focused = () =>
      worker.evaluate(async () => {
        const win = await chrome.windows.getLastFocused({ populate: true });
        return {
          window: win.id,
          active: win.tabs?.find((t) => t.active)?.url,
          windows: (await chrome.windows.getAll()).length,
        };
      });
    const focusBefore = await focused();
    const clone = (captured.body.files as Record<string, string>).structure_html ?? '';
    const { isError, body, size } = await mcp.call('compare_with_reference', {
      idea_folder: IDEA,
      area_id: 'area-1',
      file_path: clone,
    });
    expect(isError, JSON.stringify(body)).toBe(false);
    expect(size).toBeLessThanOrEqual(2048);
    const scores = body.scores as Record<string, number>;
    for (const [name, value] of Object.entries(scores))
      expect(value, `${name} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(0.98);
    const files = body.files as Record<string, string>;
    for (const file of Object.values(files)) expect(fs.existsSync(file), file).toBe(true);
    expect(path.dirname(files.report_json ?? '')).toBe(path.join(refsDir(), 'verify', 'area-1-1'));
    expect(
      await designer.evaluate(() => ({ url: location.href, y: window.scrollY, focus: document.hasFocus() })),
    ).toEqual(before);
    // The designer's window stayed the focused one, on the same tab; the render window is closed.
    expect(await focused()).toEqual(focusBefore);
    const events = await mcp.call('wait_for_captures', { timeout_ms: 0 });
    const saved = (events.body.events as Array<{ type: string; data: Record<string, unknown> }>).filter(
      (e) => e.type === 'verify_report_saved',
    );
    expect(saved.at(-1)?.data).toMatchObject({
      reference: 'area-1',
      files: { report_json: files.report_json },
    });
    // The render window is gone and was never listed.
    expect((await mcp.call('list_tabs')).body.tabs).toEqual(tabsBefore.body.tabs);
  });

  it('names the known changes of an independent rebuild, with at most two false differences', async () => {
    const rebuild = path.join(env.workspace, 'mockups', 'promo.html');
    fs.mkdirSync(path.dirname(rebuild), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'rebuild.html'), rebuild);
    const { isError, body } = await mcp.call('compare_with_reference', {
      idea_folder: IDEA,
      area_id: 'area-1',
      file_path: 'mockups/promo.html',
    });
    expect(isError, JSON.stringify(body)).toBe(false);
    const report = readReport((body.files as Record<string, string>).report_json ?? '');
    const d = report.differences;
    const has = (pred: (x: Report['differences'][number]) => boolean) => d.filter(pred);
    const injected = {
      font: has((x) => x.property === 'font-family' && /title/.test(x.selector ?? '')),
      buttonPadding: has((x) => x.property === 'padding' && /primary/.test(x.selector ?? '')),
      cardPadding: has((x) => x.property === 'padding' && /card-x/.test(x.selector ?? '')),
      colour: has((x) => x.property === 'color' && /lede/.test(x.selector ?? '')),
      removed: has((x) => x.kind === 'missing' && /Watch demo/.test(x.text)),
      moved: has(
        (x) => x.kind === 'moved' && /fine/.test(x.selector ?? '') && /12 px further right/.test(x.text),
      ),
    };
    const named = Object.values(injected).filter((hits) => hits.length > 0).length;
    const matched = new Set(Object.values(injected).flat());
    const falseOnes = d.filter((x) => !matched.has(x));
    const summary = JSON.stringify({
      named: Object.fromEntries(Object.entries(injected).map(([k, v]) => [k, v.length])),
      falseOnes: falseOnes.map((x) => x.text),
      scores: report.scores,
    });
    expect(named / 6, summary).toBeGreaterThanOrEqual(0.9);
    expect(falseOnes.length, summary).toBeLessThanOrEqual(2);
    expect((body.scores as Record<string, number>).pixel).toBeLessThan(0.98);
    expect((body.differences as string[]).length).toBeLessThanOrEqual(5);
    // Nothing is served once the call has answered.
    expect(JSON.stringify(report)).not.toMatch(/127\.0\.0\.1:\d+\/[0-9a-f]{32}/);
  });

  it('x-ipe-uiux compare exits 0 at or above --min, 1 below, 2 on error', async () => {
    // Asynchronously: puppeteer holds new tabs until this process resumes them.
    const cli = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [CLI_BIN, 'compare', '--idea', IDEA, '--area', 'area-1', ...args],
          { cwd: env.workspace, env: env.env, encoding: 'utf8', timeout: 60_000 },
          (err, stdout, stderr) =>
            resolve({ status: err === null ? 0 : (err.code as number | null), stdout, stderr }),
        );
      });
    const clone = path.join(refsDir(), 'page-element-references', 'resources', 'area-1-structure.html');
    const pass = await cli('--file', clone, '--min', '0.98');
    expect(pass.status, pass.stdout + pass.stderr).toBe(0);
    expect(JSON.parse(pass.stdout)).toMatchObject({ status: 'success', reference: 'area-1' });
    const below = await cli('--file', 'mockups/promo.html', '--score', 'block_match', '--min', '0.999');
    expect(below.status, below.stdout + below.stderr).toBe(1);
    const error = await cli('--url', 'http://example.com/');
    expect(error.status).toBe(2);
    expect(JSON.parse(error.stdout)).toMatchObject({ error: 'VALIDATION_ERROR' });
  });

  it('takes its turn in the capture queue beside other agents’ captures: all succeed, the clone still scores ≥ 0.98', async () => {
    const other = await McpSession.start({ env: env.env, workspace: env.workspace });
    try {
      const clone = path.join(refsDir(), 'page-element-references', 'resources', 'area-1-structure.html');
      const compared = mcp.call(
        'compare_with_reference',
        { idea_folder: IDEA, area_id: 'area-1', file_path: clone },
        120_000,
      );
      const captures = [
        other.call('capture_screenshot', { idea_folder: IDEA, mode: 'full_page', url_contains: '/product' }),
        other.call('capture_area', { idea_folder: IDEA, selector: '.promo', url_contains: '/product' }),
        other.call('capture_screenshot', { idea_folder: IDEA, mode: 'viewport', url_contains: '/product' }),
      ];
      const [comparison, ...shots] = await Promise.all([compared, ...captures]);
      for (const shot of shots) expect(shot?.isError, JSON.stringify(shot?.body)).toBe(false);
      expect(comparison.isError, JSON.stringify(comparison.body)).toBe(false);
      for (const [name, value] of Object.entries(comparison.body.scores as Record<string, number>))
        expect(value, `${name} ${JSON.stringify(comparison.body)}`).toBeGreaterThanOrEqual(0.98);
      // The render's shot ran as a job of the queue: its turn came after the page was read, before
      // its shot ended (the extension's steps, in report.json).
      const report = JSON.parse(
        fs.readFileSync((comparison.body.files as Record<string, string>).report_json ?? '', 'utf8'),
      ) as { timings: Record<string, number> };
      const t = report.timings;
      expect(t.extension_turn, JSON.stringify(t)).toBeGreaterThanOrEqual(t.extension_read ?? Infinity);
      expect(t.extension_turn).toBeLessThanOrEqual(t.extension_shot ?? -1);
    } finally {
      await other.close();
    }
  });

  it('renders a dev-server URL and compares the region a selector names', async () => {
    const { isError, body } = await mcp.call('compare_with_reference', {
      idea_folder: IDEA,
      area_id: 'area-1',
      url: `${origin}/product`,
      selector: '.promo',
    });
    expect(isError, JSON.stringify(body)).toBe(false);
    // The page the area was captured from, at the same width: the same pixels and elements.
    for (const [name, value] of Object.entries(body.scores as Record<string, number>))
      expect(value, `${name} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(0.98);
    const missing = await mcp.call('compare_with_reference', {
      idea_folder: IDEA,
      area_id: 'area-1',
      url: `${origin}/product`,
      selector: '.nothing-here',
    });
    expect(missing.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(String(missing.body.message)).toMatch(/selector.*\.nothing-here/);
  });

  it('refuses a file outside the workspace, a remote URL and a missing area with clear errors', async () => {
    const outside = await mcp.call('compare_with_reference', {
      idea_folder: IDEA,
      area_id: 'area-1',
      file_path: path.join(FIXTURES, 'page.html'),
    });
    expect(outside.isError).toBe(true);
    expect(outside.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(String(outside.body.message)).toMatch(/file_path.*inside the workspace/);
    for (const url of [
      'https://example.com/',
      'http://localhost.example.com/',
      'http://127.0.0.1@example.com/',
    ]) {
      const remote = await mcp.call('compare_with_reference', { idea_folder: IDEA, area_id: 'area-1', url });
      expect(remote.isError, url).toBe(true);
      expect(remote.body, url).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect(String(remote.body.message), url).toMatch(/url/);
    }
    const missing = await mcp.call('compare_with_reference', {
      idea_folder: IDEA,
      area_id: 'area-9',
      file_path: 'mockups/promo.html',
    });
    expect(missing.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(String(missing.body.message)).toMatch(/area-9.*area-1|area_id/);
    const noIdea = await mcp.call('compare_with_reference', {
      idea_folder: 'nope',
      area_id: 'area-1',
      file_path: 'mockups/promo.html',
    });
    expect(noIdea.body).toMatchObject({ error: 'IDEA_NOT_FOUND' });
  });

  it("lays the candidate out in the reference's viewport: a hero 45vh tall comes out as tall", async () => {
    const tab = await env.browser.newPage();
    try {
      await tab.goto(`${origin}/viewport`, { waitUntil: 'load' });
      const captured = await mcp.call('capture_area', {
        idea_folder: IDEA,
        selector: '.hero',
        url_contains: '/viewport',
      });
      expect(captured.isError, JSON.stringify(captured.body)).toBe(false);
      const { isError, body } = await mcp.call('compare_with_reference', {
        idea_folder: IDEA,
        area_id: captured.body.area_id,
        url: `${origin}/viewport`,
        selector: '.hero',
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      // A viewport as tall as the region would make the hero 45 % of that, and move all below it.
      for (const [name, value] of Object.entries(body.scores as Record<string, number>))
        expect(value, `${name} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(0.98);
    } finally {
      await tab.close();
    }
  });
});
