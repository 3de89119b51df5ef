import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { rectOf, ToolbarDriver } from '../helpers/toolbar-driver.js';

/**
 * wait_for_captures end to end: a puppeteer "designer" uses the toolbar with real mouse and
 * keyboard events; two MCP servers (two agents) each receive every event exactly once — one
 * waiting while it happens, one connecting only afterwards (hosts keep recent events).
 */
interface CaptureEvent {
  seq: number;
  type: string;
  time: string;
  browser_id: string | null;
  tab: { id: number; url: string };
  data: Record<string, unknown>;
}

async function collect(mcp: McpSession, until: (events: CaptureEvent[]) => boolean): Promise<CaptureEvent[]> {
  const events: CaptureEvent[] = [];
  for (let i = 0; i < 20 && !until(events); i++) {
    const { isError, body } = await mcp.call('wait_for_captures', { timeout_ms: 15_000 });
    expect(isError).toBe(false);
    expect(body.dropped).toBe(0);
    events.push(...(body.events as CaptureEvent[]));
  }
  return events;
}

describe('wait_for_captures with a designer in the toolbar', () => {
  let env: BrowserEnv;
  let first: McpSession;
  let second: McpSession;
  let page: Page;
  let ui: ToolbarDriver;
  let browserId: string;

  beforeAll(async () => {
    env = await BrowserEnv.start();
    page = await env.openPage('/demo/');
    [first, second] = await Promise.all([
      McpSession.start({ env: env.env, workspace: env.workspace }),
      McpSession.start({ env: env.env, workspace: env.workspace }),
    ]);
    ui = await ToolbarDriver.attach(page);
  });
  afterAll(async () => {
    await ui?.detach();
    await first?.close();
    await second?.close();
    await env?.dispose();
  });

  it('returns an empty list after the timeout when nothing happened', async () => {
    const { isError, body } = await first.call('wait_for_captures', { timeout_ms: 300 });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ events: [], dropped: 0, timed_out: true });
  });

  it('wakes a waiting agent when the designer picks an element', async () => {
    const opened = await first.call('inject_toolbar', { url_contains: '/demo/' });
    expect(opened.isError).toBe(false);
    browserId = String(
      ((await first.call('list_tabs')).body.tabs as Array<{ browser_id: string }>)[0]?.browser_id,
    );
    await waitUntil('the toolbar', async () =>
      (await ui.count('[data-mode="element"]')) === 1 ? true : null,
    );

    const waiting = first.call('wait_for_captures', { timeout_ms: 60_000 });
    await ui.click('[data-mode="element"]');
    const r = await rectOf(page, '.hero .btn-primary');
    await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
    await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
    await ui.waitForCount('.list .item .thumb', 1);
    await page.keyboard.press('Escape');

    const { isError, body } = await waiting;
    expect(isError).toBe(false);
    const events = body.events as CaptureEvent[];
    expect(events[0]).toMatchObject({
      seq: 1,
      type: 'element_picked',
      time: expect.any(String),
      browser_id: browserId,
      tab: { id: opened.body.tab && (opened.body.tab as { id: number }).id, url: env.url('/demo/') },
      data: {
        kind: 'element',
        selector: 'div.actions > a.btn-primary',
        tag: 'a',
        crop: { width: expect.any(Number), height: expect.any(Number) },
      },
    });
    expect(JSON.stringify(body)).not.toMatch(/base64|data:image|"png"/);
  });

  it('keeps what happens between waits: a note, a colour and the saved session', async () => {
    await ui.click('.list .item textarea', 0);
    await page.keyboard.type('Keep this contrast');
    await page.keyboard.press('Enter');
    await ui.waitForStatus(/^Note saved/);
    await ui.click('.section .btn.secondary');
    await ui.click('.palette .swatch[data-hex="#3a5bdb"]');
    await ui.waitForStatus(/^Added #3a5bdb as /);
    await ui.click('.save .row .btn:not(.secondary)');
    await ui.waitForStatus(/^Saved session 1 /);

    const events = await collect(first, (list) => list.some((e) => e.type === 'session_saved'));
    expect(events.map((e) => e.type)).toEqual(['note_added', 'color_picked', 'session_saved']);
    expect(events.map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(events[0]?.data).toMatchObject({ comment: 'Keep this contrast' });
    expect(events[1]?.data).toMatchObject({ hex: '#3a5bdb' });
    expect(events[2]?.data).toMatchObject({
      session_file: 'ref-session-001.json',
      idea_folder: '001. Demo Idea',
    });
    // Delivered once: nothing is left for this agent.
    const again = await first.call('wait_for_captures', { timeout_ms: 200 });
    expect(again.body.events).toEqual([]);
  });

  it('gives an agent that connects afterwards every event, exactly once', async () => {
    const events = await collect(second, (list) => list.length >= 4);
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'element_picked'],
      [2, 'note_added'],
      [3, 'color_picked'],
      [4, 'session_saved'],
    ]);
    const again = await second.call('wait_for_captures', { timeout_ms: 200 });
    expect(again.body.events).toEqual([]);
  });

  it('delivers a new pick to both agents once each', async () => {
    await ui.click('[data-mode="element"]');
    const r = await rectOf(page, '.hero h1');
    await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
    await ui.waitForCount('.list .item .thumb', 1);
    await page.keyboard.press('Escape');
    const [a, b] = await Promise.all([
      collect(first, (list) => list.length > 0),
      collect(second, (list) => list.length > 0),
    ]);
    expect(a.map((e) => [e.seq, e.type])).toEqual([[5, 'element_picked']]);
    expect(b).toEqual(a);
  });

  it('refuses a timeout above the maximum', async () => {
    const { body } = await first.call('wait_for_captures', { timeout_ms: 120_001 });
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringContaining('timeout_ms') });
  });
});
