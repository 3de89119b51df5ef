import path from 'node:path';
import type { CDPSession, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

/**
 * Once a page keeps a function, the worker links the tab (page-channel.ts) and repeated calls go
 * over a content script's port instead of a script injection. Whether a call went that way is
 * seen from the page: an injection parses a script there (`Debugger.scriptParsed`), a call over
 * the link parses none. Everything the agent sees must be what the script injection gives.
 */
describe('inject_script over the linked tab', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let scripts: string;
  let n = 0;
  const script = (code: string): string => writeScript(scripts, `c${++n}.js`, code);

  beforeAll(async () => {
    env = await BrowserEnv.start();
    scripts = path.join(env.root, 'scripts');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  interface Watch {
    page: Page;
    /** Scripts parsed in the page since `reset`, counted once the page has reported them all. */
    parsed(): Promise<number>;
    reset(): void;
  }

  /** A page and a counter of the scripts parsed in it. */
  async function watched(pathname: string): Promise<Watch> {
    const page = await env.openPage(pathname);
    const cdp: CDPSession = await page.createCDPSession();
    await cdp.send('Debugger.enable');
    let count = 0;
    // Ours only (their sourceURL): the barrier below parses a script of its own.
    cdp.on('Debugger.scriptParsed', (event: { url: string }) => {
      if (event.url.startsWith('x-ipe-')) count += 1;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    return {
      page,
      // The page reports a parsed script before it answers a later command of the same session.
      parsed: async () => {
        await cdp.send('Runtime.evaluate', { expression: '0' });
        return count;
      },
      reset: () => {
        count = 0;
      },
    };
  }

  /** Calls `file` until a call parses no script in the page (the tab is linked); their bodies. */
  async function untilLinked(
    file: string,
    tab: Record<string, unknown>,
    watch: Watch,
  ): Promise<Array<Record<string, unknown>>> {
    const bodies = [];
    for (let i = 0; i < 40; i += 1) {
      watch.reset();
      bodies.push((await mcp.call('inject_script', { file_path: file, ...tab })).body);
      if (i > 0 && (await watch.parsed()) === 0) return bodies;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the tab was never linked: every call injected a script');
  }

  describe.each(['/plain', '/csp'])('on %s', (pathname) => {
    it('runs the code on every call without injecting a script, `this` the window', async () => {
      const watch = await watched(`${pathname}?linked`);
      const tab = { url_contains: `${pathname}?linked` };
      const file = script(
        '(window.__links = (window.__links ?? 0) + 1, { n: window.__links, self: this === window })',
      );
      const before = await untilLinked(file, tab, watch);
      watch.reset();
      const values = [];
      for (let i = 0; i < 4; i += 1)
        values.push((await mcp.call('inject_script', { file_path: file, ...tab })).body.returnValue);
      expect(await watch.parsed()).toBe(0);
      const first = before.length + 1;
      expect(values).toEqual([0, 1, 2, 3].map((k) => ({ n: first + k, self: true })));
      await watch.page.close();
    });

    it('reports values, throws, rejections and awaits as the script injection does', async () => {
      const watch = await watched(`${pathname}?same`);
      const tab = { url_contains: `${pathname}?same` };
      const cases = [
        'const t = () => { throw new RangeError("again") };\nnull;\nt()',
        'new Promise((_, reject) => setTimeout(() => reject(new TypeError("late")), 5))',
        'const v = await null;\nthrow new Error("after await")',
        'new Promise((resolve) => setTimeout(() => resolve({ at: "promise", u: undefined, nan: NaN }), 5))',
        '[document.body, undefined, new Map([[1, 2]]), 10n]',
      ];
      for (const code of cases) {
        // The script form (a leading `var` keeps it from being kept) gives the reference answer.
        const asScript = (
          await mcp.call('inject_script', { file_path: script(`var form;\n${code}`), ...tab })
        ).body;
        const calls = await untilLinked(script(`let form;\n${code}`), tab, watch);
        watch.reset();
        const linked = (await mcp.call('inject_script', { file_path: script(`let form;\n${code}`), ...tab }))
          .body;
        for (const body of [...calls, linked]) {
          const { elapsed_ms: _e1, ...got } = body;
          const { elapsed_ms: _e2, ...want } = asScript;
          expect(got, code).toEqual(want);
        }
      }
      await watch.page.close();
    });
  });

  it('runs exactly once per call across a reload, and links the new page again', async () => {
    const watch = await watched('/plain?reload');
    const tab = { url_contains: '/plain?reload' };
    const count = script('sessionStorage.count = String(Number(sessionStorage.count ?? 0) + 1)');
    const before = await untilLinked(count, tab, watch);
    expect(before.map((body) => body.returnValue)).toEqual(before.map((_, i) => String(i + 1)));
    await watch.page.reload();
    const after = await untilLinked(count, tab, watch);
    expect(after.map((body) => body.returnValue)).toEqual(after.map((_, i) => String(before.length + i + 1)));
    await watch.page.close();
  });

  it('says the page went away when it navigates during a linked call, having run it once', async () => {
    const watch = await watched('/plain?leaves');
    const tab = { url_contains: '/plain?leaves' };
    const file = script(
      'sessionStorage.runs = String(Number(sessionStorage.runs ?? 0) + 1);\n' +
        'if (sessionStorage.leave === "yes") { setTimeout(() => location.reload(), 20); await new Promise(() => {}); }\n' +
        'sessionStorage.runs',
    );
    const calls = await untilLinked(file, tab, watch);
    await watch.page.evaluate(() => {
      sessionStorage.leave = 'yes';
    });
    const { isError, body } = await mcp.call('inject_script', { file_path: file, ...tab });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'SCRIPT_ERROR', message: expect.stringMatching(/navigat|closed/) });
    await watch.page.waitForFunction(() => document.readyState === 'complete');
    expect(await watch.page.evaluate(() => sessionStorage.runs)).toBe(String(calls.length + 1));
    await watch.page.close();
  });

  it('honours timeout_ms over the link', async () => {
    const watch = await watched('/plain?slow');
    const tab = { url_contains: '/plain?slow' };
    const file = script('window.__slow === true ? new Promise(() => {}) : "quick"');
    await untilLinked(file, tab, watch);
    await watch.page.evaluate(() => {
      (window as unknown as { __slow: boolean }).__slow = true;
    });
    const { body } = await mcp.call('inject_script', { file_path: file, ...tab, timeout_ms: 300 });
    expect(body).toMatchObject({ error: 'TIMEOUT' });
    await watch.page.close();
  });

  it('runs the code again when the page removed the runtime, and adds nothing the page can see', async () => {
    const watch = await watched('/plain?hidden');
    const tab = { url_contains: '/plain?hidden' };
    await watch.page.evaluate(() => {
      const w = window as unknown as { __messages: number; __linkSeen: number };
      w.__messages = 0;
      w.__linkSeen = 0;
      addEventListener('message', () => {
        w.__messages += 1;
      });
      // A page that reads the runtime's global name still cannot guess the link event's name.
      const poll = setInterval(() => {
        const name = Object.getOwnPropertyNames(window).find((n) => n.startsWith('__xipeInject_'));
        if (name === undefined) return;
        clearInterval(poll);
        for (const guess of [name, `${name}:link`, 'xipe-link'])
          document.addEventListener(guess, () => {
            w.__linkSeen += 1;
          });
      }, 1);
    });
    const seen = () =>
      watch.page.evaluate(() => ({
        globals: Object.getOwnPropertyNames(window).filter((name) => name.startsWith('__xipe')).length,
        nodes: document.getElementsByTagName('*').length,
        messages: (window as unknown as { __messages: number }).__messages,
        linkSeen: (window as unknown as { __linkSeen: number }).__linkSeen,
      }));
    const file = script('(window.__hidden = (window.__hidden ?? 0) + 1)');
    const calls = await untilLinked(file, tab, watch);
    const linkedState = await seen();
    expect(linkedState.globals).toBe(1); // the registry, as without the link
    expect(linkedState.messages).toBe(0);
    expect(linkedState.linkSeen).toBe(0);
    await watch.page.evaluate(() => {
      for (const name of Object.getOwnPropertyNames(window))
        if (name.startsWith('__xipeInject_')) delete (window as unknown as Record<string, unknown>)[name];
    });
    const again = (await mcp.call('inject_script', { file_path: file, ...tab })).body;
    expect(again.returnValue).toBe(calls.length + 1);
    expect(await seen()).toEqual(linkedState);
    await watch.page.close();
  });
});
