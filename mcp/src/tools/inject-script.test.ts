import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectScriptParams, ListTabsResult } from '#shared/index.js';
import { XipeError } from '#shared/index.js';
import {
  browserInfo,
  type FakeAnswer,
  FakeBridge,
  hostInfo,
  toolContext,
} from '../../test-support/fake-bridge.js';
import { runTool } from './call/run-tool.js';
import { SentScripts } from './call/sent-scripts.js';
import { injectScriptTool } from './inject-script.js';
import { TOOL_COMMANDS } from './registry.js';

const SECRET = 'const marker = "TOP-SECRET-SCRIPT-BODY";';
let dir: string;
let script: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-inject-'));
  script = path.join(dir, 'probe.js');
  fs.writeFileSync(script, `${SECRET}\n1 + 1;\n`);
  fs.mkdirSync(path.join(dir, 'folder.js'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TAB = { id: 7, url: 'https://example.com/a', title: 'A' };
const injected =
  (...value: [unknown?]): FakeAnswer =>
  (command) => {
    if (command !== 'inject_script') throw new Error(`unexpected ${command}`);
    return { returnValue: value.length === 0 ? 2 : value[0], tab: TAB, method: 'userScripts' };
  };

function tabsOf(
  browser: string,
  tabs: Array<{ id: number; window_id: number; index: number; url: string }>,
): ListTabsResult {
  return {
    browser: browserInfo(browser),
    tabs: tabs.map((t) => ({ ...t, title: `t${t.id}`, active: false, focused_window: false })),
  };
}

/** Two browsers; each answers list_tabs with its tabs and inject_script with the tab it was given. */
function twoBrowsers(): FakeBridge {
  const answer =
    (browser: string, tabs: ListTabsResult): FakeAnswer =>
    (command, params) => {
      if (command === 'list_tabs') return tabs;
      const target = (params as InjectScriptParams).target;
      const tab = tabs.tabs.find(
        (t) =>
          t.id === target.tab_id ||
          (target.url_contains !== undefined && t.url.includes(target.url_contains)),
      );
      if (tab === undefined) throw new XipeError('TAB_NOT_FOUND', `no such tab in ${browser}`);
      return {
        returnValue: browser,
        tab: { id: tab.id, url: tab.url, title: tab.title },
        method: 'scripting',
      };
    };
  return new FakeBridge([
    // Deliberately not in browser_id order: list order must not depend on discovery order.
    {
      info: hostInfo(20, 'zeta'),
      answer: answer('zeta', tabsOf('zeta', [{ id: 1, window_id: 1, index: 0, url: 'https://z.test/' }])),
    },
    {
      info: hostInfo(10, 'alpha'),
      answer: answer(
        'alpha',
        tabsOf('alpha', [
          { id: 5, window_id: 2, index: 0, url: 'https://a.test/two' },
          { id: 1, window_id: 1, index: 1, url: 'https://a.test/one-b' },
          { id: 4, window_id: 1, index: 0, url: 'https://a.test/one-a' },
        ]),
      ),
    },
  ]);
}

async function call(bridge: FakeBridge, args: Record<string, unknown>) {
  const result = await runTool(injectScriptTool, args, toolContext(bridge, { toolName: 'inject_script' }));
  const text = (result.content[0] as { text: string }).text;
  expect(text).not.toContain('TOP-SECRET');
  return { isError: result.isError === true, body: JSON.parse(text) as Record<string, unknown> };
}

describe('inject_script', () => {
  it('reads the file, sends its code with the defaults and returns the contract shape', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b1'), answer: injected(2) }]);
    const { isError, body } = await call(bridge, { file_path: script, tab_id: 7 });
    expect(isError).toBe(false);
    expect(body).toEqual({
      status: 'success',
      success: true,
      returnValue: 2,
      tab: TAB,
      method: 'userScripts',
      bytes: Buffer.byteLength(fs.readFileSync(script)),
      elapsed_ms: expect.any(Number),
    });
    expect(bridge.sent).toHaveLength(1);
    expect(bridge.sent[0]?.params).toEqual({
      code: fs.readFileSync(script, 'utf8'),
      world: 'main',
      cleanup_before: false,
      target: { tab_id: 7 },
      timeout_ms: 30_000,
    });
    expect(bridge.sent[0]?.options.timeoutMs).toBe(30_000);
  });

  it('passes url_contains, world, cleanup_before and timeout_ms straight through with one browser', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b1'), answer: injected() }]);
    await call(bridge, {
      file_path: script,
      url_contains: 'example',
      world: 'isolated',
      cleanup_before: true,
      timeout_ms: 500,
    });
    expect(bridge.sent.map((s) => s.command)).toEqual([TOOL_COMMANDS.inject_script]);
    expect(bridge.sent[0]?.params).toMatchObject({
      world: 'isolated',
      cleanup_before: true,
      target: { url_contains: 'example' },
      timeout_ms: 500,
    });
  });

  it('sends an empty target (active tab) when none is given', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b1'), answer: injected() }]);
    await call(bridge, { file_path: script });
    expect(bridge.sent[0]?.params).toMatchObject({ target: {} });
  });

  it('returns null for an undefined completion value', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b1'), answer: injected(undefined) }]);
    const { body } = await call(bridge, { file_path: script });
    expect(body).toHaveProperty('returnValue', null);
  });

  it('sends a small value twice (text and structuredContent), a larger one as text only, and refuses one over 256 KiB', async () => {
    const run = async (value: unknown) => {
      const bridge = new FakeBridge([{ info: hostInfo(1, 'b1'), answer: injected(value) }]);
      return runTool(
        injectScriptTool,
        { file_path: script },
        toolContext(bridge, { toolName: 'inject_script' }),
      );
    };
    const small = await run({ n: 1 });
    expect(small.structuredContent).toMatchObject({ returnValue: { n: 1 } });
    const medium = await run('m'.repeat(20_000));
    expect(medium.structuredContent).toBeUndefined();
    expect(JSON.parse((medium.content[0] as { text: string }).text).returnValue).toHaveLength(20_000);
    const huge = await run('h'.repeat(300 * 1024));
    expect(huge.isError).toBe(true);
    const text = (huge.content[0] as { text: string }).text;
    expect(text.length).toBeLessThan(2048);
    expect(JSON.parse(text)).toMatchObject({
      error: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('Write a file instead'),
      details: { max_value_bytes: 256 * 1024 },
    });
  });

  it.each([
    [{ file_path: 'relative/probe.js' }, 'file_path', /absolute/],
    [{ file_path: '/tmp/probe.ts' }, 'file_path', /\.js/],
    [{ file_path: '/tmp/p.js', tab_id: 1, url_contains: 'x' }, 'url_contains', /at most one/],
    [{ file_path: '/tmp/p.js', tab_id: 1, page_index: 0 }, 'page_index', /at most one/],
    [{ file_path: '/tmp/p.js', world: 'page' }, 'world', /.+/],
    [{ file_path: '/tmp/p.js', timeout_ms: -1 }, 'timeout_ms', /.+/],
    [{ file_path: '/tmp/p.js', tabId: 1 }, '(root)', /tabId/],
    [{}, 'file_path', /.+/],
  ])('refuses %j with VALIDATION_ERROR naming %s', async (args, field, why) => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b1'), answer: injected() }]);
    const { isError, body } = await call(bridge, args);
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'inject_script' });
    const issues = (body.details as { issues: Array<{ field: string; message: string }> }).issues;
    expect(issues.some((i) => i.field === field && why.test(i.message))).toBe(true);
    expect(bridge.sent).toEqual([]);
  });

  it('answers FILE_NOT_FOUND with the path for a missing file, before any bridge traffic', async () => {
    const bridge = new FakeBridge([]);
    const missing = path.join(dir, 'missing.js');
    const { isError, body } = await call(bridge, { file_path: missing });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'FILE_NOT_FOUND', details: { file_path: missing } });
    expect(body.message).toContain(missing);
  });

  it('refuses a directory named like a script', async () => {
    const { body } = await call(new FakeBridge([]), { file_path: path.join(dir, 'folder.js') });
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'file_path' } });
  });

  it('passes BACKEND_UNREACHABLE on when no host is reachable', async () => {
    const { body } = await call(new FakeBridge([]), { file_path: script });
    expect(body).toMatchObject({ error: 'BACKEND_UNREACHABLE', tool_name: 'inject_script' });
  });

  it.each([
    'TAB_NOT_FOUND',
    'INJECTION_BLOCKED',
    'SCRIPT_ERROR',
    'TIMEOUT',
    'EXTENSION_NOT_CONNECTED',
  ] as const)('relays %s from the extension with its message and details', async (code) => {
    const bridge = new FakeBridge([
      {
        info: hostInfo(1, 'b1'),
        answer: () => {
          throw new XipeError(code, `${code}: what to do`, { where: 'ext' });
        },
      },
    ]);
    const { isError, body } = await call(bridge, { file_path: script });
    expect(isError).toBe(true);
    expect(body).toEqual({
      error: code,
      message: `${code}: what to do`,
      details: { where: 'ext' },
      tool_name: 'inject_script',
    });
  });

  describe('with several browsers', () => {
    it('resolves page_index in list_tabs order (browser, window, index)', async () => {
      const bridge = twoBrowsers();
      // alpha: w1 i0 (tab 4), w1 i1 (tab 1), w2 i0 (tab 5); zeta: tab 1
      for (const [page_index, browser, tab] of [
        [0, 'alpha', 4],
        [1, 'alpha', 1],
        [2, 'alpha', 5],
        [3, 'zeta', 1],
      ] as const) {
        bridge.sent.length = 0;
        const { body } = await call(bridge, { file_path: script, page_index });
        expect(body).toMatchObject({ success: true, returnValue: browser, tab: { id: tab } });
        const sent = bridge.sent.find((s) => s.command === 'inject_script');
        expect(sent?.options.browser).toBe(browser);
        expect(sent?.params).toMatchObject({ target: { tab_id: tab } });
      }
    });

    it('says which page_index values exist when it is out of range', async () => {
      const { body } = await call(twoBrowsers(), { file_path: script, page_index: 9 });
      expect(body).toMatchObject({ error: 'TAB_NOT_FOUND', details: { page_index: 9, tab_count: 4 } });
      expect(body.message).toMatch(/0–3.*list_tabs/);
    });

    it('refuses page_index with a browser that does not own that tab', async () => {
      const { body } = await call(twoBrowsers(), { file_path: script, page_index: 3, browser: 'alpha' });
      expect(body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'browser' } });
    });

    it('routes a url_contains that matches in one browser only', async () => {
      const bridge = twoBrowsers();
      const { body } = await call(bridge, { file_path: script, url_contains: 'z.test' });
      expect(body).toMatchObject({ success: true, returnValue: 'zeta' });
      expect(bridge.sent.at(-1)?.options.browser).toBe('zeta');
    });

    it('asks for `browser` when tab_id exists in both browsers, and says TAB_NOT_FOUND when in none', async () => {
      const both = await call(twoBrowsers(), { file_path: script, tab_id: 1 });
      expect(both.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        details: { field: 'browser', matching_browsers: ['alpha', 'zeta'] },
      });
      const none = await call(twoBrowsers(), { file_path: script, tab_id: 99 });
      expect(none.body).toMatchObject({ error: 'TAB_NOT_FOUND' });
      expect(none.body.message).toMatch(/list_tabs/);
    });

    it('asks for `browser` when no target is given, and uses it directly when given', async () => {
      const ambiguous = await call(twoBrowsers(), { file_path: script });
      expect(ambiguous.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'browser' } });
      expect(ambiguous.body.message).toMatch(/alpha.*zeta|zeta.*alpha/);
      const bridge = twoBrowsers();
      const { body } = await call(bridge, { file_path: script, tab_id: 1, browser: 'zeta' });
      expect(body).toMatchObject({ success: true, returnValue: 'zeta' });
      expect(bridge.sent.map((s) => s.command)).toEqual([TOOL_COMMANDS.inject_script]);
    });

    it('goes straight through when only one host has an extension', async () => {
      const bridge = new FakeBridge([
        {
          info: hostInfo(1, null),
          answer: () => {
            throw new XipeError('EXTENSION_NOT_CONNECTED', 'none');
          },
        },
        { info: hostInfo(2, 'b2'), answer: injected() },
      ]);
      // The fake bridge refuses to route between two hosts without `browser`; the tool must not ask it to list.
      const { body } = await call(bridge, { file_path: script, tab_id: 7, browser: 'b2' });
      expect(body).toMatchObject({ success: true });
    });
  });
});

describe('inject_script sends a script it already sent to that browser by its hash only', () => {
  /** An extension that keeps scripts sent with their hash, like the real one (ScriptStore). */
  function keepingExtension(browser: string) {
    const kept = new Map<string, string>();
    const answer: FakeAnswer = (command, params) => {
      if (command !== 'inject_script') throw new Error(`unexpected ${command}`);
      const p = params as InjectScriptParams;
      const code = p.code ?? (p.code_sha256 !== undefined ? kept.get(p.code_sha256) : undefined);
      if (code === undefined) throw new XipeError('SCRIPT_NOT_CACHED', 'send the code itself');
      if (p.code !== undefined && p.code_sha256 !== undefined) kept.set(p.code_sha256, p.code);
      if (code.includes('throw')) throw new XipeError('SCRIPT_ERROR', 'Error: thrown');
      return { returnValue: code.length, tab: TAB, method: 'userScripts' };
    };
    return { host: { info: hostInfo(browser === 'b2' ? 2 : 1, browser), answer }, kept };
  }
  const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  const shapes = (bridge: FakeBridge) =>
    bridge.sent.map((s) => {
      const p = s.params as InjectScriptParams;
      return `${p.code !== undefined ? 'code' : ''}${p.code_sha256 !== undefined ? '+sha' : ''}`;
    });

  it('sends in full with the hash first, then the hash alone; resends in full when the extension lost it', async () => {
    const ext = keepingExtension('b1');
    const bridge = new FakeBridge([ext.host]);
    const ctx = toolContext(bridge, { toolName: 'inject_script', sentScripts: new SentScripts() });
    const code = fs.readFileSync(script, 'utf8');
    const run = async () => {
      const result = await runTool(injectScriptTool, { file_path: script, tab_id: 7 }, ctx);
      return JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
    };
    expect(await run()).toMatchObject({ success: true, returnValue: code.length });
    expect(await run()).toMatchObject({ success: true, returnValue: code.length });
    expect(shapes(bridge)).toEqual(['code+sha', '+sha']);
    expect(bridge.sent[1]?.params).toMatchObject({ code_sha256: sha(code) });
    ext.kept.clear(); // the worker restarted
    expect(await run()).toMatchObject({ success: true, returnValue: code.length });
    expect(shapes(bridge)).toEqual(['code+sha', '+sha', '+sha', 'code+sha']);
  });

  it('passes any other error of a hash-only call on without resending', async () => {
    const ext = keepingExtension('b1');
    const bridge = new FakeBridge([ext.host]);
    const ctx = toolContext(bridge, { toolName: 'inject_script', sentScripts: new SentScripts() });
    const thrower = path.join(dir, 'thrower.js');
    fs.writeFileSync(thrower, 'throw new Error("x")');
    ext.kept.set(sha('throw new Error("x")'), 'throw new Error("x")');
    const sent = ctx.sentScripts;
    sent?.add('b1', sha('throw new Error("x")')); // the browser the only host reaches
    const result = await runTool(injectScriptTool, { file_path: thrower }, ctx);
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ error: 'SCRIPT_ERROR' });
    expect(shapes(bridge)).toEqual(['+sha']);
  });

  it('remembers per browser', async () => {
    const bridge = new FakeBridge([keepingExtension('b1').host, keepingExtension('b2').host]);
    const ctx = toolContext(bridge, { toolName: 'inject_script', sentScripts: new SentScripts() });
    for (const browser of ['b1', 'b2', 'b1', 'b2']) {
      const result = await runTool(injectScriptTool, { file_path: script, browser }, ctx);
      expect(result.isError).not.toBe(true);
    }
    expect(shapes(bridge)).toEqual(['code+sha', 'code+sha', '+sha', '+sha']);
  });
});
