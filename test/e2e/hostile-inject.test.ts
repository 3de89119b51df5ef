import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

interface Seen {
  globals: string[];
  texts: string[];
  events: string[];
  replays: number;
  forged: number;
}

/**
 * A page that runs first attacks what inject_script puts into its main world (hostile-page.ts):
 * it watches new globals, patches prototypes, answers event listeners and replays what it finds.
 * Every call must be a fresh script that leaves the page nothing to read, forge or replay.
 */
describe('inject_script on a hostile page', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let scripts: string;
  let page: Page;
  const secret = `agent-secret-${Math.random().toString(16).slice(2)}`;
  const tab = { url_contains: '/hostile-inject' };

  beforeAll(async () => {
    env = await BrowserEnv.start();
    scripts = path.join(env.root, 'scripts');
    page = await env.openPage('/hostile-inject');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  const seen = (): Promise<Seen> => page.evaluate(() => (window as unknown as { __hostile: Seen }).__hostile);

  it.each(['main', 'isolated'])(
    'in the %s world: the page sees no global of ours, reads no script, forges and replays nothing',
    async (world) => {
      // An expression statement, no declarations: the kind of script a page could be made to keep.
      const file = writeScript(
        scripts,
        `${world}.js`,
        `/* ${secret} */ ({ n: document.title.length, w: "${world}" })`,
      );
      const values = [];
      for (let i = 0; i < 4; i += 1) {
        const { isError, body } = await mcp.call('inject_script', { file_path: file, world, ...tab });
        expect(isError, JSON.stringify(body)).toBe(false);
        values.push(body.returnValue);
        // Let the page's polling and queued listeners run between calls.
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      const expected = { n: 'Hostile /hostile-inject'.length, w: world };
      expect(values).toEqual([expected, expected, expected, expected]);
      const after = await seen();
      expect(after.globals).toEqual([]);
      expect(after.texts.join('\n')).not.toContain(secret);
      expect(after.texts.filter((text) => text.startsWith('link:'))).toEqual([]);
      expect(after.replays).toBe(0);
      expect(after.forged).toBe(0);
    },
  );

  it('reports a throw with no global of ours; code it must run unrewritten gets a name of its own per call', async () => {
    const thrower = writeScript(scripts, 'throw.js', `1;\nthrow new RangeError("${secret}")`);
    const thrown = await mcp.call('inject_script', { file_path: thrower, ...tab });
    expect(thrown.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { name: 'RangeError', line: 2 } });
    expect((await seen()).globals).toEqual([]);
    // Code acorn cannot parse runs unrewritten (V8 may know newer syntax), reporting to a global.
    const broken = writeScript(scripts, 'broken.js', '1 +;');
    for (let i = 0; i < 2; i += 1) {
      const syntax = await mcp.call('inject_script', { file_path: broken, ...tab });
      expect(syntax.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'syntax' } });
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { globals } = await seen();
    expect(globals).toHaveLength(2);
    expect(new Set(globals).size).toBe(2);
    const left = await page.evaluate((names) => names.filter((n) => n in globalThis), globals);
    expect(left).toEqual([]);
  });
});
