import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

/**
 * inject_script end to end, with user scripts allowed (what `x-ipe-uiux start` sets up): agent →
 * MCP server → native host → service worker → page, and back.
 */
describe('inject_script (user scripts allowed)', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let plain: Page;
  let csp: Page;
  let scripts: string;
  let n = 0;
  const script = (code: string): string => writeScript(scripts, `s${++n}.js`, code);
  const inject = (code: string, args: Record<string, unknown> = {}) =>
    mcp.call('inject_script', { file_path: script(code), ...args });

  beforeAll(async () => {
    env = await BrowserEnv.start();
    scripts = path.join(env.root, 'scripts');
    plain = await env.openPage('/plain');
    csp = await env.openPage('/csp');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  /** The tab id of the open tab at `url` (url_contains looks at origin and path only). */
  async function tabIdOf(url: string): Promise<number> {
    const { body } = await mcp.call('list_tabs');
    const tab = (body.tabs as Array<{ tab_id: number; url: string }>).find((t) => t.url === url);
    if (tab === undefined) throw new Error(`no tab at ${url}`);
    return tab.tab_id;
  }

  describe.each([
    ['a plain page', '/plain'],
    ["a page with CSP script-src 'self'", '/csp'],
  ])('on %s', (_label, pathname) => {
    const target = () => ({ url_contains: pathname });

    it('returns the completion value and the tab, via userScripts', async () => {
      const { isError, body, structured } = await inject(
        'const h = document.querySelector("h1");\n({ title: document.title, h1: h.textContent, sum: 1 + 2 })',
        target(),
      );
      expect(isError).toBe(false);
      expect(body).toMatchObject({
        success: true,
        returnValue: { title: expect.any(String), h1: expect.any(String), sum: 3 },
        tab: { url: env.url(pathname), title: expect.any(String) },
        method: 'userScripts',
        bytes: expect.any(Number),
        elapsed_ms: expect.any(Number),
      });
      expect(structured).toEqual(body);
    });

    it('awaits a promise', async () => {
      const { body } = await inject(
        'new Promise((resolve) => setTimeout(() => resolve({ late: 42 }), 50))',
        target(),
      );
      expect(body.returnValue).toEqual({ late: 42 });
      const { body: asyncBody } = await inject(
        '(async () => { await null; return document.title })()',
        target(),
      );
      expect(asyncBody.returnValue).toEqual(expect.any(String));
    });

    it('reports a throw as SCRIPT_ERROR with the message and line', async () => {
      const { isError, body } = await inject('const a = 1;\nthrow new Error("boom " + a);', target());
      expect(isError).toBe(true);
      expect(body).toMatchObject({
        error: 'SCRIPT_ERROR',
        message: expect.stringContaining('boom 1'),
        details: { kind: 'throw', line: 2 },
        tool_name: 'inject_script',
      });
    });

    it('reports a rejected promise as SCRIPT_ERROR with the reason', async () => {
      const { isError, body } = await inject(
        'new Promise((_, reject) => setTimeout(() => reject(new TypeError("nope")), 20))',
        target(),
      );
      expect(isError).toBe(true);
      expect(body).toMatchObject({
        error: 'SCRIPT_ERROR',
        details: { kind: 'rejection', name: 'TypeError' },
      });
      expect(body.message).toContain('nope');
    });

    it('reports a syntax error as SCRIPT_ERROR with its location, without running anything', async () => {
      const { isError, body } = await inject('window.__ranBeforeSyntaxError = true;\nlet x = ;', target());
      expect(isError).toBe(true);
      expect(body).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'syntax', line: 2 } });
      expect(body.message).toMatch(/SyntaxError/);
      const { body: check } = await inject('window.__ranBeforeSyntaxError === true', target());
      expect(check.returnValue).toBe(false);
    });

    it('reports a syntax error only V8 finds (acorn parses it), with its location, without running anything', async () => {
      // V8 refuses more than 65535 arguments while parsing; acorn has no such limit.
      const code = `window.__ranBeforeV8Error = true;\nf(${'0,'.repeat(70_000)}0);`;
      const fresh = await env.openPage(`${pathname}?fresh`);
      for (const [where, tab] of [
        ['a page that had injections', { tab_id: await tabIdOf(env.url(pathname)) }],
        ['a page with none yet', { tab_id: await tabIdOf(fresh.url()) }],
      ] as const) {
        const { isError, body } = await inject(code, tab);
        expect(isError, where).toBe(true);
        expect(body, where).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'syntax', line: 2 } });
        expect(body.message, where).toMatch(/SyntaxError: Too many arguments/);
        const { body: check } = await inject('window.__ranBeforeV8Error === true', tab);
        expect(check.returnValue, where).toBe(false);
      }
      await fresh.close();
    });

    it('says the page went away when it navigates while the script runs, and never runs it twice', async () => {
      const page = await env.openPage(`${pathname}?navigates`);
      const { isError, body } = await inject(
        'sessionStorage.runs = String(Number(sessionStorage.runs ?? 0) + 1);\n' +
          'setTimeout(() => location.reload(), 20);\nnew Promise(() => {})',
        { tab_id: await tabIdOf(page.url()) },
      );
      expect(isError).toBe(true);
      expect(body).toMatchObject({ error: 'SCRIPT_ERROR', message: expect.stringMatching(/navigat|closed/) });
      await page.waitForFunction(() => document.readyState === 'complete');
      expect(await page.evaluate(() => sessionStorage.runs)).toBe('1');
      await page.close();
    });

    it('when no outcome comes back although the code parsed, says so without running it again', async () => {
      // The script breaks a built-in the runtime uses to convert its value, with a throw whose
      // description throws too: its run ends with no outcome.
      const { isError, body } = await inject(
        'window.__noOutcomeRuns = (window.__noOutcomeRuns ?? 0) + 1;\n' +
          'window.__map = Array.prototype.map;\n' +
          'Array.prototype.map = function () { throw { get message() { throw 1 } } };\n' +
          '[1]',
        target(),
      );
      expect(isError).toBe(true);
      expect(body).toMatchObject({ error: 'SCRIPT_ERROR', message: expect.stringContaining('no result') });
      const { body: check } = await inject(
        'Array.prototype.map = window.__map;\nwindow.__noOutcomeRuns',
        target(),
      );
      expect(check.returnValue).toBe(1);
    });

    it('reports a thrown non-Error value', async () => {
      const { body } = await inject('throw "plain string"', target());
      expect(body).toMatchObject({ error: 'SCRIPT_ERROR', message: expect.stringContaining('plain string') });
    });

    it('accepts top-level await and keeps the completion value, like the DevTools console', async () => {
      const { isError, body } = await inject(
        'const t = await new Promise((r) => setTimeout(() => r(document.title), 20));\n' +
          'for await (const n of [Promise.resolve(1)]) n;\n({ t, n: await 2 })',
        target(),
      );
      expect(isError).toBe(false);
      expect(body).toMatchObject({ returnValue: { t: expect.any(String), n: 2 }, method: 'userScripts' });
    });

    it('with top-level await still reports a throw, a rejection and a syntax error as SCRIPT_ERROR', async () => {
      const thrown = await inject('await null;\nthrow new Error("after await")', target());
      expect(thrown.body).toMatchObject({
        error: 'SCRIPT_ERROR',
        message: expect.stringContaining('after await'),
        details: { kind: 'throw', line: 2 },
      });
      const rejected = await inject('await Promise.reject(new TypeError("refused"))', target());
      expect(rejected.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { name: 'TypeError' } });
      expect(rejected.body.message).toContain('refused');
      const syntax = await inject('await 1;\nlet x = ;', target());
      expect(syntax.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'syntax', line: 2 } });
    });
  });

  it('converts values that are not JSON sensibly', async () => {
    const { body } = await inject(
      [
        'const cyclic = { name: "c" }; cyclic.self = cyclic;',
        '({',
        '  undef: undefined, nan: NaN, inf: -Infinity, big: 10n, sym: Symbol("s"), fn: function named() {},',
        '  el: document.querySelector("h1"), list: document.querySelectorAll("h1"), win: window,',
        '  date: new Date(0), map: new Map([["k", 1]]), set: new Set([1, 2]), re: /a+/g,',
        '  err: new RangeError("r"), cyclic, arr: [undefined, 1],',
        '})',
      ].join('\n'),
      { url_contains: '/plain' },
    );
    expect(body.returnValue).toMatchObject({
      nan: 'NaN',
      inf: '-Infinity',
      big: '10n',
      sym: 'Symbol(s)',
      fn: '[Function named]',
      el: '[Element h1#title]',
      list: ['[Element h1#title]'],
      win: '[Window]',
      date: '1970-01-01T00:00:00.000Z',
      map: [['k', 1]],
      set: [1, 2],
      re: '/a+/g',
      err: { name: 'RangeError', message: 'r' },
      cyclic: { name: 'c', self: '[Circular]' },
      arr: [null, 1],
    });
    expect(body.returnValue).not.toHaveProperty('undef');
    const { body: undef } = await inject('undefined', { url_contains: '/plain' });
    expect(undef).toMatchObject({ success: true, returnValue: null });
  });

  it('runs in the isolated world when asked (page globals invisible, DOM shared)', async () => {
    await plain.evaluate(() => {
      (window as unknown as { pageGlobal: number }).pageGlobal = 7;
    });
    const { body: main } = await inject('typeof window.pageGlobal', { url_contains: '/plain' });
    expect(main.returnValue).toBe('number');
    const { body: isolated } = await inject('[typeof window.pageGlobal, document.title]', {
      url_contains: '/plain',
      world: 'isolated',
    });
    expect(isolated.returnValue).toEqual(['undefined', 'Plain page']);
  });

  it('targets by tab_id, url_contains and page_index (list_tabs order)', async () => {
    const { body: tabs } = await mcp.call('list_tabs');
    const list = tabs.tabs as Array<{ tab_id: number; url: string; page_index: number }>;
    const cspTab = list.find((t) => t.url === env.url('/csp'));
    expect(cspTab).toBeDefined();
    if (cspTab === undefined) return;
    const byId = await inject('location.pathname', { tab_id: cspTab.tab_id });
    expect(byId.body).toMatchObject({ returnValue: '/csp', tab: { id: cspTab.tab_id } });
    const byUrl = await inject('location.pathname', { url_contains: 'csp' });
    expect(byUrl.body).toMatchObject({ returnValue: '/csp', tab: { id: cspTab.tab_id } });
    const byIndex = await inject('location.pathname', { page_index: cspTab.page_index });
    expect(byIndex.body).toMatchObject({ returnValue: '/csp', tab: { id: cspTab.tab_id } });
  });

  it('without a target uses the active tab of the focused window', async () => {
    await csp.bringToFront();
    const { body } = await inject('location.pathname');
    expect(body.returnValue).toBe('/csp');
  });

  it('fails clearly for an unknown tab', async () => {
    const byId = await inject('1', { tab_id: 999_999 });
    expect(byId.body).toMatchObject({ error: 'TAB_NOT_FOUND' });
    const byUrl = await inject('1', { url_contains: 'no-such-page' });
    expect(byUrl.body).toMatchObject({
      error: 'TAB_NOT_FOUND',
      message: expect.stringContaining(env.url('/plain')),
    });
  });

  it('gives FILE_NOT_FOUND for a missing file', async () => {
    const { isError, body } = await mcp.call('inject_script', {
      file_path: path.join(env.root, 'missing.js'),
    });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'FILE_NOT_FOUND', tool_name: 'inject_script' });
  });

  it('gives INJECTION_BLOCKED for chrome:// pages', async () => {
    const page = await env.browser.newPage();
    await page.goto('chrome://version/');
    try {
      const { isError, body } = await inject('1', { url_contains: 'chrome://version' });
      expect(isError).toBe(true);
      expect(body).toMatchObject({
        error: 'INJECTION_BLOCKED',
        message: expect.stringContaining('chrome://'),
      });
    } finally {
      await page.close();
    }
  });

  it('runs a 5 MiB script (chunked on the way in) and keeps the response small', async () => {
    const filler = `// ${'x'.repeat(1000)}\n`.repeat(5 * 1024 + 100);
    const code = `${filler}const big = ${JSON.stringify('y'.repeat(64 * 1024))};\n({ length: big.length, title: document.title })`;
    expect(code.length).toBeGreaterThan(5 * 1024 * 1024);
    const { isError, body, size } = await inject(code, { url_contains: '/csp' });
    expect(isError).toBe(false);
    expect(body).toMatchObject({
      returnValue: { length: 64 * 1024, title: 'Strict CSP page' },
      bytes: code.length,
    });
    expect(size).toBeLessThan(2_000);
  });

  it('cleanup_before removes the legacy toolbar and its guards first', async () => {
    const legacy = await env.openPage('/legacy');
    try {
      const probe =
        '({ toolbar: document.querySelectorAll(".xipe-toolbar").length, styles: document.querySelectorAll("style[id^=xipe-], link[id^=xipe-]").length, guard: window.__xipeToolbarInjected === true })';
      const before = await inject(probe, { url_contains: '/legacy' });
      expect(before.body.returnValue).toEqual({ toolbar: 1, styles: 2, guard: true });
      const after = await inject(probe, { url_contains: '/legacy', cleanup_before: true });
      expect(after.body.returnValue).toEqual({ toolbar: 0, styles: 0, guard: false });
      expect(await legacy.$eval('main', (el) => el.textContent)).toBe('content');
    } finally {
      await legacy.close();
    }
  });

  it('honours timeout_ms', async () => {
    const { isError, body } = await inject('new Promise(() => {})', {
      url_contains: '/plain',
      timeout_ms: 300,
    });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'TIMEOUT' });
  });

  it('measures one MCP call with a 24 KB script (median of 50, reported, not asserted)', async () => {
    const code = `${`// ${'z'.repeat(76)}\n`.repeat(300)}document.title`;
    const file = script(code);
    const times: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const started = performance.now();
      const { isError } = await mcp.call('inject_script', { file_path: file, url_contains: '/csp' });
      times.push(performance.now() - started);
      expect(isError).toBe(false);
    }
    times.sort((a, b) => a - b);
    const median = ((times[24] ?? 0) + (times[25] ?? 0)) / 2;
    console.info(
      `inject_script latency, 24 KB script, 50 MCP calls: median ${median.toFixed(1)} ms, min ${times[0]?.toFixed(1)} ms, max ${times[49]?.toFixed(1)} ms`,
    );
  });
});
