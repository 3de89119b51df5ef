/**
 * Many agents, one browser: three real MCP servers capture at once in two tabs of one window and
 * one tab of a second window (deep areas, element crops, full pages). Captures that need one
 * window's screen take turns in the extension's queue: every call succeeds, none times out, every
 * file is whole, and each page is put back as it was (scroll, focus).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferencedElements } from '#shared/deep-capture/referenced-elements.js';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession, type ToolOutcome } from '../helpers/browser-mcp.js';
import { type FixtureServer, startFixtureServer } from '../support/deep-fixtures.js';
import { decodePng } from '../support/png.js';
import { pageSettled } from '../support/real-pages.js';

const IDEA = '001. Demo Idea';

let env: BrowserEnv;
let server: FixtureServer;
let agents: McpSession[];
const tabs: Record<'a' | 'b' | 'c', Page> = {} as Record<'a' | 'b' | 'c', Page>;
/** Tab ids: url_contains looks at origin and path only, and a and b show the same page. */
const tabIds: Record<string, number> = {};

/** Where a page is scrolled and what has focus: what every capture must leave as it found. */
const pageState = (page: Page) =>
  page.evaluate(() => ({
    y: Math.round(window.scrollY),
    focus: (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? null,
  }));

/** A tab's id and window as the extension sees it. */
async function tabOf(url: string): Promise<{ id: number; windowId: number }> {
  const worker = await env.serviceWorker();
  return worker.evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u });
    return { id: tab?.id ?? -1, windowId: tab?.windowId ?? -1 };
  }, url);
}

beforeAll(async () => {
  env = await BrowserEnv.start();
  server = await startFixtureServer();
  for (const [name, file] of [
    ['a', 'landing.html?tab=a'],
    ['b', 'landing.html?tab=b'],
    ['c', 'dashboard.html?tab=c'],
  ] as const) {
    const page = await env.browser.newPage();
    await page.goto(server.pageUrl(file), { waitUntil: 'load' });
    await page.evaluate(pageSettled);
    tabs[name] = page;
  }
  // Tabs b and a in one window, c alone in another.
  const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => tabOf(tabs[n as 'a'].url())));
  const worker = await env.serviceWorker();
  await worker.evaluate(
    async (ids) => {
      await chrome.tabs.move(ids.b, { windowId: ids.windowA, index: -1 });
      const other = await chrome.tabs.get(ids.c);
      if (other.windowId === ids.windowA) await chrome.windows.create({ tabId: ids.c });
    },
    { b: b?.id ?? -1, c: c?.id ?? -1, windowA: a?.windowId ?? -1 },
  );
  for (const n of ['a', 'b', 'c']) tabIds[n] = (await tabOf(tabs[n as 'a'].url())).id;
  await waitUntil('the tabs in two windows', async () => {
    const [ta, tb, tc] = await Promise.all(['a', 'b', 'c'].map((n) => tabOf(tabs[n as 'a'].url())));
    return ta?.windowId === tb?.windowId && ta?.windowId !== tc?.windowId ? true : null;
  });
  agents = await Promise.all(
    [0, 1, 2].map(() => McpSession.start({ env: env.env, workspace: env.workspace })),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all((agents ?? []).map((a) => a.close()));
  await server?.close();
  await env?.dispose();
});

const refsDir = () => path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');

describe('concurrent captures from three agents', () => {
  it('runs 12 mixed captures at once: all succeed, files whole, areas distinct, pages put back', async () => {
    // Each page scrolled and with focus somewhere, as a user would leave it.
    await tabs.a.evaluate(() => window.scrollTo(0, 240));
    await tabs.b.evaluate(() => window.scrollTo(0, 600));
    await tabs.a.focus('.hero .btn-ghost');
    await tabs.b.focus('.site-header .btn-primary');
    const before = { a: await pageState(tabs.a), b: await pageState(tabs.b), c: await pageState(tabs.c) };

    const area = (agent: number, tab: 'a' | 'b' | 'c', selector: string) =>
      agents[agent]?.call(
        'capture_area',
        { idea_folder: IDEA, selector, tab_id: tabIds[tab], instruction: `${selector} in ${tab}` },
        180_000,
      ) as Promise<ToolOutcome>;
    const shot = (agent: number, tab: 'a' | 'b' | 'c', mode: string, selector?: string) =>
      agents[agent]?.call(
        'capture_screenshot',
        { idea_folder: IDEA, mode, tab_id: tabIds[tab], ...(selector ? { selector } : {}) },
        180_000,
      ) as Promise<ToolOutcome>;

    const started = Date.now();
    const calls: Array<[string, Promise<ToolOutcome>]> = [
      ['A area a .hero', area(0, 'a', '.hero')],
      ['B area b .site-header', area(1, 'b', '.site-header')],
      ['C full page a', shot(2, 'a', 'full_page')],
      ['A area a .features', area(0, 'a', '.features')],
      ['B full page c', shot(1, 'c', 'full_page')],
      ['C element b', shot(2, 'b', 'element', '.features .feature')],
      ['A element c', shot(0, 'c', 'element', '.stats')],
      ['B area b .pricing', area(1, 'b', '.pricing')],
      ['C full page b', shot(2, 'b', 'full_page')],
      ['A area a .pricing', area(0, 'a', '.pricing')],
      ['B element a', shot(1, 'a', 'element', '.hero .eyebrow')],
      ['C area c .stats', area(2, 'c', '.stats')],
    ];
    const outcomes = await Promise.all(calls.map(([, call]) => call));
    const elapsed = Date.now() - started;

    for (const [i, outcome] of outcomes.entries())
      expect(outcome.isError, `${calls[i]?.[0]}: ${JSON.stringify(outcome.body)}`).toBe(false);
    // Someone waited, and said how long and behind what.
    const waited = outcomes.filter((o) => (o.body.queued_ms as number) > 0);
    expect(waited.length).toBeGreaterThan(0);
    expect(String(waited[0]?.body.queued_behind)).toMatch(/^queued behind \d+ captures?: /);

    const areas = outcomes.filter((o) => 'area_id' in o.body);
    const ids = areas.map((o) => o.body.area_id as string);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    const referenced = ReferencedElements.parse(
      JSON.parse(
        fs.readFileSync(path.join(refsDir(), 'page-element-references', 'referenced-elements.json'), 'utf8'),
      ),
    );
    expect(referenced.areas.map((a) => a.area_id).sort()).toEqual([...ids].sort());

    // Every file whole: each PNG decodes in full, each area's JSON and clone are there.
    const pngs = [
      ...outcomes.filter((o) => 'path' in o.body).map((o) => o.body.path as string),
      ...areas.map((o) => (o.body.files as { screenshot: string }).screenshot),
    ];
    expect(new Set(pngs).size).toBe(12);
    for (const file of pngs) {
      const image = decodePng(fs.readFileSync(file));
      expect(image.width * image.height, file).toBeGreaterThan(0);
    }
    for (const o of areas) {
      const files = o.body.files as Record<string, string>;
      for (const key of ['structure_html', 'styles_css'])
        expect(fs.statSync(files[key] as string).size).toBeGreaterThan(0);
    }

    // Put back as found.
    expect(await pageState(tabs.a)).toEqual(before.a);
    expect(await pageState(tabs.b)).toEqual(before.b);
    expect(await pageState(tabs.c)).toEqual(before.c);
    process.stderr.write(`concurrent captures: 12 in ${elapsed} ms\n`);
  }, 240_000);

  it('never times out a call for its wait, and takes a cancelled call out of the queue at once', async () => {
    const status = async () =>
      (await (agents[2] as McpSession).call('bridge_status')).body.capture_queue as Array<{
        state: string;
        label: string;
        tab_id: number;
      }>;
    // Two full pages hold the window for seconds; a viewport shot with a 0.5 s limit waits behind
    // both (the host alone would have given up on it after 1.5 s).
    const long = [
      agents[0]?.call(
        'capture_screenshot',
        { idea_folder: IDEA, mode: 'full_page', tab_id: tabIds.a },
        120_000,
      ),
      agents[2]?.call(
        'capture_screenshot',
        { idea_folder: IDEA, mode: 'full_page', tab_id: tabIds.b },
        120_000,
      ),
    ];
    await waitUntil(
      'the full pages in the queue',
      async () => ((await status()).length === 2 ? true : null),
      30_000,
      20,
    );
    const patient = agents[1]?.call(
      'capture_screenshot',
      { idea_folder: IDEA, mode: 'viewport', tab_id: tabIds.a, timeout_ms: 500 },
      120_000,
    );
    const cancel = new AbortController();
    const cancelled = agents[2]
      ?.call(
        'capture_screenshot',
        { idea_folder: IDEA, mode: 'viewport', tab_id: tabIds.b },
        120_000,
        cancel.signal,
      )
      .then(
        () => 'answered',
        () => 'cancelled',
      );
    await waitUntil(
      'both viewport shots in the queue',
      async () =>
        (await status()).filter((j) => j.label === 'capture_screenshot viewport').length === 2 ? true : null,
      30_000,
      20,
    );
    cancel.abort();
    expect(await cancelled).toBe('cancelled');
    // Gone from the queue at once, while the patient shot still waits or runs.
    const tabB = (await tabOf(tabs.b.url())).id;
    await waitUntil(
      'the cancelled shot gone from the queue',
      async () =>
        (await status()).some((j) => j.label === 'capture_screenshot viewport' && j.tab_id === tabB)
          ? null
          : true,
      2_000,
      20,
    );
    const [shot, ...longs] = await Promise.all([patient, ...long]);
    for (const o of longs) expect(o?.isError, JSON.stringify(o?.body)).toBe(false);
    expect(shot?.isError, JSON.stringify(shot?.body)).toBe(false);
    // It waited longer than its own 0.5 s limit, and still succeeded.
    expect(shot?.body.queued_ms as number).toBeGreaterThan(500);
    expect(String(shot?.body.queued_behind)).toMatch(
      /^queued behind \d+ captures?: capture_screenshot full_page/,
    );
  }, 180_000);

  it('lists the queue in bridge_status while captures wait, and leaves it empty after', async () => {
    const pending = [
      agents[0]?.call(
        'capture_screenshot',
        { idea_folder: IDEA, mode: 'full_page', tab_id: tabIds.a },
        120_000,
      ),
      agents[1]?.call(
        'capture_screenshot',
        { idea_folder: IDEA, mode: 'full_page', tab_id: tabIds.b },
        120_000,
      ),
    ];
    const listed = await waitUntil(
      'a waiting capture in bridge_status',
      async () => {
        const { body } = await (agents[2] as McpSession).call('bridge_status');
        const queue = body.capture_queue as Array<{ state: string; label: string }>;
        return queue.some((j) => j.state === 'waiting') ? { queue, summary: String(body.summary) } : null;
      },
      30_000,
      20,
    );
    expect(listed.queue[0]).toMatchObject({ state: 'running', label: 'capture_screenshot full_page' });
    expect(listed.summary).toMatch(
      /capture queue: 1 running \(capture_screenshot full_page of tab \d+\), \d+ waiting/,
    );
    for (const o of await Promise.all(pending)) expect(o?.isError, JSON.stringify(o?.body)).toBe(false);
    await waitUntil('an empty queue', async () => {
      const { body } = await (agents[2] as McpSession).call('bridge_status');
      return (body.capture_queue as unknown[]).length === 0 ? true : null;
    });
  }, 180_000);
});
