import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

/**
 * Nobody restarts anything by hand: after the service worker is stopped (as Chrome does when
 * idle) or the host process dies, the extension reconnects by itself and the same MCP server's
 * next inject_script works.
 */
describe('recovery without manual steps', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let file: string;

  beforeAll(async () => {
    // Not attached to the worker: puppeteer would keep a restarted worker paused (see the fixture).
    env = await BrowserEnv.start({ attachToWorker: false });
    await env.openPage('/plain');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
    file = writeScript(path.join(env.root, 'scripts'), 'title.js', 'document.title');
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  const injectOk = async () => {
    const { isError, body } = await mcp.call('inject_script', { file_path: file, url_contains: '/plain' });
    expect(body).toMatchObject({ success: true, returnValue: 'Plain page' });
    expect(isError).toBe(false);
  };

  it('works after the service worker is stopped (it restarts on the next tab event)', async () => {
    await injectOk();
    const before = await env.waitForHost();
    const page = (await env.browser.pages()).find((p) => p.url() === env.url('/plain'));
    if (page === undefined) throw new Error('the /plain page is gone');
    await env.stopServiceWorker(page);
    // The worker's port closed with it, so its host exits.
    await waitUntil('the host to exit with the stopped worker', () =>
      env.descriptors().some((d) => d.pid === before.descriptor.pid) ? null : true,
    );
    // A tab event (here a reload) wakes the worker, which reconnects by itself.
    await page.reload({ waitUntil: 'load' });
    await env.waitForHost({ exceptPid: before.descriptor.pid });
    await injectOk();
  });

  it('works after the host process is killed', async () => {
    const before = await env.waitForHost();
    process.kill(before.descriptor.pid, 'SIGKILL');
    // The worker sees the port close and reconnects after its back-off (100 ms at first).
    const after = await env.waitForHost({ exceptPid: before.descriptor.pid });
    expect(after.descriptor.pid).not.toBe(before.descriptor.pid);
    await injectOk();
  });
});
