import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

/**
 * inject_script called again and again with one file, as an agent iterating on a script does.
 * Every call is a fresh script: everything an agent sees is what the first call gave — the code
 * runs every call, its value, errors, lines and stacks, `this`, globals — also after a navigation.
 */
describe('inject_script, the same file again', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let scripts: string;
  let n = 0;
  const script = (code: string): string => writeScript(scripts, `r${++n}.js`, code);
  const run = (file: string, args: Record<string, unknown> = { url_contains: '/plain' }) =>
    mcp.call('inject_script', { file_path: file, ...args });

  beforeAll(async () => {
    env = await BrowserEnv.start();
    scripts = path.join(env.root, 'scripts');
    await env.openPage('/plain');
    await env.openPage('/csp');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  describe.each(['/plain', '/csp'])('on %s', (pathname) => {
    const target = { url_contains: pathname };

    it('runs the code on every call, with `this` the window and its value each time', async () => {
      const file = script(
        '(window.__repeats = (window.__repeats ?? 0) + 1, { n: window.__repeats, self: this === window })',
      );
      const values = [];
      for (let i = 0; i < 4; i += 1) values.push((await run(file, target)).body.returnValue);
      expect(values).toEqual([1, 2, 3, 4].map((k) => ({ n: k, self: true })));
    });

    it('reports a throw the same on every call, and as a script would (message, line, stack)', async () => {
      // `var` and `let` declare differently at the top level; the error reads the same.
      const code = (kind: string) =>
        `${kind} thrower = () => { throw new RangeError("again") };\nnull;\nthrower()`;
      const asScript = (await run(script(code('var')), target)).body;
      const repeated = script(code('let'));
      const calls = [(await run(repeated, target)).body, (await run(repeated, target)).body];
      expect(asScript).toMatchObject({
        error: 'SCRIPT_ERROR',
        details: { kind: 'throw', name: 'RangeError', line: 1, column: 29 },
      });
      expect((asScript.details as { stack?: string }).stack).toMatch(
        /^RangeError: again\n\s+at thrower \(x-ipe-inject\.js:2:29\)\n\s+at x-ipe-inject\.js:4:\d+$/,
      );
      for (const body of calls) expect(body).toEqual(asScript);
    });

    it('keeps a rejection, and a throw after top-level await, the same on every call', async () => {
      const rejects = script(
        'new Promise((_, reject) => setTimeout(() => reject(new TypeError("late")), 5))',
      );
      const awaits = script('const t = await null;\nthrow new Error("after await")');
      for (let i = 0; i < 2; i += 1) {
        const rejected = (await run(rejects, target)).body;
        expect(rejected).toMatchObject({
          error: 'SCRIPT_ERROR',
          details: { kind: 'rejection', name: 'TypeError' },
        });
        expect(rejected.message).toContain('late');
        const thrown = (await run(awaits, target)).body;
        expect(thrown).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'throw', line: 2 } });
        expect(thrown.message).toContain('after await');
      }
    });
  });

  it("keeps a script's `var` and function declarations global, as scripts do", async () => {
    const file = script(
      'var counted = (typeof counted === "number" ? counted : 0) + 1;\nfunction f() {}\ncounted',
    );
    const values = [];
    for (let i = 0; i < 3; i += 1) values.push((await run(file)).body.returnValue);
    expect(values).toEqual([1, 2, 3]);
    expect((await run(script('typeof window.f'))).body.returnValue).toBe('function');
  });

  it('runs exactly once per call, also after the page navigated', async () => {
    const page: Page = await env.openPage('/plain/repeat');
    const tab = { url_contains: '/plain/repeat' };
    const count = script('sessionStorage.count = String(Number(sessionStorage.count ?? 0) + 1)');
    expect((await run(count, tab)).body.returnValue).toBe('1');
    expect((await run(count, tab)).body.returnValue).toBe('2');
    await page.reload();
    expect((await run(count, tab)).body.returnValue).toBe('3');
    expect((await run(count, tab)).body.returnValue).toBe('4');
    await page.close();
  });

  it('keeps isolated-world code apart from the page', async () => {
    const file = script('(globalThis.__isolatedRuns = (globalThis.__isolatedRuns ?? 0) + 1)');
    const args = { url_contains: '/plain', world: 'isolated' };
    expect((await run(file, args)).body.returnValue).toBe(1);
    expect((await run(file, args)).body.returnValue).toBe(2);
    expect((await run(script('typeof globalThis.__isolatedRuns'))).body.returnValue).toBe('undefined');
  });
});
