import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

/**
 * Which tab an agent's call reaches, against a page that makes its URL look like another tab's
 * (attack 5), and after the user switched tabs (attack 8).
 */
describe('tab targeting against pages and tab switches', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let scripts: string;

  beforeAll(async () => {
    env = await BrowserEnv.start();
    scripts = path.join(env.root, 'scripts');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  it('never sends a call meant for one tab to a page that put its name in its own URL', async () => {
    // The hostile tab comes first in list order, as the attack had it.
    const hostile = await env.openPage('/hostile-tabs');
    await hostile.evaluate(() => history.replaceState(null, '', `${location.pathname}?to=/victim#/victim`));
    const victim = await env.openPage('/plain');
    await victim.evaluate(() => history.replaceState(null, '', '/plain/victim'));
    const file = writeScript(scripts, 'where.js', 'location.href');
    const fromFragment = await mcp.call('inject_script', { file_path: file, url_contains: '/victim' });
    expect(fromFragment.isError, JSON.stringify(fromFragment.body)).toBe(false);
    expect(fromFragment.body.returnValue).toBe(env.url('/plain/victim'));

    // A page may rewrite its path within its origin too: then two tabs match, and none is picked.
    await hostile.evaluate(() => history.replaceState(null, '', '/hostile-tabs/victim'));
    const twoMatch = await mcp.call('inject_script', { file_path: file, url_contains: '/victim' });
    expect(twoMatch.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { field: 'url_contains', candidate_count: 2 },
    });
    expect(twoMatch.body.message).toContain(JSON.stringify(env.url('/hostile-tabs/victim')));
    const { candidates } = twoMatch.body.details as { candidates: Array<{ title: string }> };
    expect(candidates.map((c) => c.title)).toContain('"Hostile /hostile-tabs"');
    expect(
      await hostile.evaluate(
        () => (window as unknown as { __hostile: { globals: string[] } }).__hostile.globals,
      ),
    ).toEqual([]);
    await hostile.close();
    await victim.close();
  });

  it('after the user switched tabs, a screenshot of the one behind comes back promptly', async () => {
    const first = await env.openPage('/plain');
    const second = await env.openPage('/other');
    await first.bringToFront();
    const shot = (url: string) => mcp.call('capture_screenshot', { url_contains: url }, 20_000);
    const front = await shot('/plain');
    expect(front.isError, JSON.stringify(front.body)).toBe(false);
    // The user brings the other tab to front: the first is hidden now.
    await second.bringToFront();
    const started = Date.now();
    const behind = await shot('/plain');
    expect(behind.isError, JSON.stringify(behind.body)).toBe(false);
    expect(behind.body).toMatchObject({ tab: { url: env.url('/plain') } });
    expect(Date.now() - started).toBeLessThan(10_000);
    // Without a target, the active tab of the focused window: the one the user is looking at.
    await second.bringToFront();
    const active = await mcp.call('capture_screenshot', {}, 20_000);
    expect(active.body).toMatchObject({ tab: { url: env.url('/other') } });
    await first.close();
    await second.close();
  });
});
