import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';
import { launchChromium } from '../support/chromium.js';

/**
 * Two Chromium instances with separate profiles (so two hosts) under one XIPE_UIUX_HOME and one
 * MCP server: the second browser appears without a restart, calls are routed by `browser` (or by a
 * target only one browser has), and closing one mid-session leaves the other working.
 */

interface Tab {
  page_index: number;
  browser_id: string;
  profile: string;
  tab_id: number;
  url: string;
}

/** A second browser profile sharing `env`'s home and workspace, with its own host registration. */
function launchSecondBrowser(env: BrowserEnv): Promise<Browser> {
  return launchChromium({
    userDataDir: path.join(env.root, 'profile2'),
    env: env.env,
    workspace: env.workspace,
    windowSize: '1024,700',
  });
}

describe('two browsers, one MCP server', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let second: Browser | null = null;
  let scripts: string;
  let first: string;
  let other: string;

  const tabs = async (): Promise<{
    tabs: Tab[];
    browsers: Array<{ browser_id: string | null; error: unknown }>;
  }> => {
    const { isError, body } = await mcp.call('list_tabs');
    if (isError) throw new Error(JSON.stringify(body));
    return body as never;
  };
  const inject = (code: string, args: Record<string, unknown>) =>
    mcp.call('inject_script', {
      file_path: writeScript(scripts, `s${Date.now()}${Math.random()}.js`, code),
      ...args,
    });

  beforeAll(async () => {
    env = await BrowserEnv.start();
    scripts = path.join(env.root, 'scripts');
    await env.openPage('/plain');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await second?.close().catch(() => undefined);
    await env?.dispose();
  });

  it('finds a browser started after the MCP server, with its own profile', async () => {
    const before = await tabs();
    expect(new Set(before.tabs.map((t) => t.browser_id)).size).toBe(1);
    first = String(before.tabs[0]?.browser_id);

    second = await launchSecondBrowser(env);
    const page = await second.newPage();
    await page.goto(env.url('/other'));
    const after = await waitUntil(
      'the second browser in list_tabs',
      async () => {
        const listing = await tabs();
        return listing.tabs.some((t) => t.url.endsWith('/other')) ? listing : null;
      },
      20_000,
      200,
    );
    other = String(after.tabs.find((t) => t.url.endsWith('/other'))?.browser_id);
    expect(other).not.toBe(first);
    expect(after.browsers.map((b) => b.browser_id).sort()).toEqual([first, other].sort());
    const profiles = new Set(after.tabs.map((t) => t.profile));
    expect(profiles.size).toBe(2);
    // One stable order: grouped by browser, page_index counting through both.
    expect(after.tabs.map((t) => t.page_index)).toEqual(after.tabs.map((_, i) => i));
    const order = after.tabs.map((t) => t.browser_id);
    expect(order).toEqual([...order].sort());
  });

  it('routes by browser, by a target only one browser has, and asks when ambiguous', async () => {
    const named = await inject('location.pathname', { browser: other, url_contains: '/other' });
    expect(named.body).toMatchObject({ success: true, returnValue: '/other' });
    const wrong = await inject('location.pathname', { browser: first, url_contains: '/other' });
    expect(wrong.body).toMatchObject({ error: 'TAB_NOT_FOUND' });
    const unique = await inject('location.pathname', { url_contains: '/plain' });
    expect(unique.body).toMatchObject({ success: true, returnValue: '/plain' });
    const ambiguous = await inject('1', {});
    expect(ambiguous.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.stringContaining('browser'),
    });

    const toolbar = await mcp.call('inject_toolbar', { browser: other, url_contains: '/other' });
    expect(toolbar.body).toMatchObject({ status: 'success', tab: { url: env.url('/other') } });
    const shot = await mcp.call('capture_screenshot', { url_contains: '/other', output_path: 'b2.png' });
    expect(shot.body).toMatchObject({
      status: 'success',
      width: expect.any(Number),
      tab: { url: env.url('/other') },
    });
    const unknown = await mcp.call('list_tabs');
    expect(unknown.isError).toBe(false);
  });

  it('keeps the first browser working while the second closes mid-call', async () => {
    const slow = inject('new Promise((r) => setTimeout(() => r(location.pathname), 1500))', {
      browser: first,
      url_contains: '/plain',
    });
    await second?.close();
    second = null;
    const { isError, body } = await slow;
    expect(isError).toBe(false);
    expect(body.returnValue).toBe('/plain');

    const listing = await waitUntil(
      'the closed browser to leave list_tabs',
      async () => {
        const l = await tabs();
        return l.browsers.every((b) => b.browser_id === first) ? l : null;
      },
      20_000,
      200,
    );
    expect(listing.tabs.every((t) => t.browser_id === first)).toBe(true);
    const again = await inject('document.title', {});
    expect(again.body).toMatchObject({ success: true, returnValue: 'Plain page' });
    const gone = await inject('1', { browser: other });
    expect(gone.body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringContaining(other) });
  });
});
