import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { clickExtensionAction, ToolbarDriver } from '../helpers/toolbar-driver.js';
import { fiveViewportPage } from '../support/pages.js';
import { pngSize } from '../support/png.js';

/**
 * The designer and an agent in one window: the agent's full page of one tab holds the window
 * (its tab in front) while the designer asks for a full page in the other. The toolbar says it
 * waits for the agent's capture, takes its own once the agent's is done and its tab is shown
 * again, and both shots are whole, each of its own page.
 */
describe('a toolbar capture while an agent captures in the same window', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let designer: Page;
  let agentTab: Page;
  let ui: ToolbarDriver;

  beforeAll(async () => {
    env = await BrowserEnv.start();
    designer = await env.openPage('/plain?designer');
    agentTab = await env.openPage('/plain?agent');
    for (const page of [designer, agentTab]) await page.evaluate(fiveViewportPage);
    // Both tabs in one window.
    const worker = await env.serviceWorker();
    await worker.evaluate(async () => {
      const tabs = await chrome.tabs.query({ url: '*://*/plain*' });
      const [first, ...rest] = tabs;
      for (const tab of rest)
        if (tab.id !== undefined)
          await chrome.tabs.move(tab.id, { windowId: first?.windowId ?? -1, index: -1 });
    });
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
    ui = await ToolbarDriver.attach(designer);
    await clickExtensionAction(env.browser, designer);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForStatus(/Pick elements/);
  }, 120_000);

  afterAll(async () => {
    await ui?.detach();
    await mcp?.close();
    await env?.dispose();
  });

  it('waits for the agent, says so, then captures: both succeed, in order', async () => {
    await designer.evaluate(() => window.scrollTo(0, 300));
    const viewport = await designer.evaluate(() => ({ width: innerWidth, height: innerHeight }));
    let agentDoneAt = 0;
    // url_contains looks at origin and path only, and both tabs are on /plain: target by id.
    const agentTabId = await (await env.serviceWorker()).evaluate(
      async () => (await chrome.tabs.query({ url: '*://*/plain?agent' }))[0]?.id ?? -1,
    );
    const agent = mcp
      .call('capture_screenshot', {
        mode: 'full_page',
        tab_id: agentTabId,
        output_path: 'agent.png',
      })
      .then((outcome) => {
        agentDoneAt = Date.now();
        return outcome;
      });
    // The agent's job has the window: its tab is in front.
    const worker = await env.serviceWorker();
    await waitUntil('the agent tab in front', async () =>
      (await worker.evaluate(
        async () => (await chrome.tabs.query({ active: true, url: '*://*/plain?agent' })).length,
      )) === 1
        ? true
        : null,
    );
    await ui.click('[data-mode="page"]');
    const waiting = await ui.waitForStatus(/^Waiting for an agent's capture/, 30_000);
    expect(waiting).toMatch(/queued behind 1 capture: capture_screenshot full_page of tab \d+/);

    const status = await ui.waitForStatus(/^Full page captured/, 60_000);
    const toolbarDoneAt = Date.now();
    const outcome = await agent;
    expect(outcome.isError, JSON.stringify(outcome.body)).toBe(false);
    // In order: the agent's call had its answer before the toolbar's shot was done.
    expect(agentDoneAt).toBeGreaterThan(0);
    expect(agentDoneAt).toBeLessThanOrEqual(toolbarDoneAt);
    expect(status).toContain(`(${viewport.width}×${viewport.height * 5} px)`);
    const agentPng = fs.readFileSync(path.join(env.workspace, 'agent.png'));
    expect(pngSize(agentPng)).toEqual({ width: viewport.width, height: viewport.height * 5 });
    // The designer's tab is shown again and its page is where the designer left it.
    expect(await designer.evaluate(() => document.visibilityState)).toBe('visible');
    expect(await designer.evaluate(() => window.scrollY)).toBe(300);
  }, 180_000);
});
