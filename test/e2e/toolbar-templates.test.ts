/**
 * The toolbar on a published template nobody here wrote (startbootstrap-agency from the real-web
 * corpus), through real input: an open toolbar costs the idle page nothing, and leaving the page
 * with captures made on it brings up the browser's own leave-page prompt — not without captures,
 * not after Save, not for items captured on another page — while those items say where they came
 * from. Remove is taken back with Ctrl+Z, and a note typed just before a mode button leaves that
 * mode's hint on the status line.
 */
import type { Dialog, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { openToolbar, rectOfDeep, sleep } from '../helpers/real-pages.js';
import type { ToolbarDriver } from '../helpers/toolbar-driver.js';
import { costsAnIdlePageNothing } from '../helpers/toolbar-scenarios.js';
import {
  type CorpusServer,
  corpusPages,
  REAL_WEB_ARGS,
  REAL_WEB_WINDOW,
  startCorpusServer,
} from '../support/real-corpus.js';
import { openCorpusPage } from '../support/real-measure.js';

const pages = corpusPages(['sb-agency/index.html']);
const SAVE = '.save .row .btn:not(.secondary)';

let env: BrowserEnv;
let server: CorpusServer;
const opened: Page[] = [];
let serial = 0;

beforeAll(async () => {
  server = await startCorpusServer(pages);
  env = await BrowserEnv.start({ windowSize: REAL_WEB_WINDOW, extraArgs: REAL_WEB_ARGS });
});
afterEach(async () => {
  for (const page of opened.splice(0)) await page.close().catch(() => undefined);
});
afterAll(async () => {
  await env?.dispose();
  await server?.close();
});

/** The template under a URL of its own (the action button finds its tab by URL). */
function templateUrl(): string {
  const page = pages[0];
  if (!page) throw new Error('sb-agency is not in the corpus');
  serial += 1;
  return `${server.pageUrl(page)}?visit=${serial}`;
}

async function openTemplate(): Promise<Page> {
  const page = await openCorpusPage(env.browser, templateUrl());
  opened.push(page);
  return page;
}

/**
 * Every dialog the page raises, answered `leave` (accept) or stay (dismiss) as `answer` says at
 * that moment.
 */
function dialogs(page: Page) {
  const seen: string[] = [];
  const state = { leave: false };
  page.on('dialog', (d: Dialog) => {
    seen.push(d.type());
    void (state.leave ? d.accept() : d.dismiss()).catch(() => undefined);
  });
  return { seen, state };
}

/** Navigates as the address bar does; resolves whether the page got there. */
async function leaveFor(page: Page, url: string): Promise<boolean> {
  const went = await page
    .goto(url, { waitUntil: 'load', timeout: 8_000 })
    .then(() => true)
    .catch(() => false);
  return went && page.url() === url;
}

/** Element mode with the key, a click on the template's headline: one item captured here. */
async function captureHeadline(page: Page, ui: ToolbarDriver): Promise<void> {
  await page.keyboard.press('e');
  await ui.waitForCount('.mode[data-mode="element"][aria-pressed="true"]', 1);
  const r = await rectOfDeep(page, '.masthead-heading');
  await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2, { steps: 3 });
  await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
  await ui.waitForStatus(/^Captured /);
  await page.keyboard.press('Escape');
}

describe('the toolbar on a published template', () => {
  it('costs the idle page nothing: no toggle events, no style or layout work, still above page popovers', async () => {
    const page = await openTemplate();
    await costsAnIdlePageNothing(env, page);
  });

  it('asks before leaving with captures made on the page, never without them or after Save', async () => {
    // Used, but nothing captured: leaving is not held.
    let page = await openTemplate();
    let log = dialogs(page);
    let ui = await openToolbar(env.browser, page);
    await page.keyboard.press('e');
    await ui.waitForCount('.mode[data-mode="element"][aria-pressed="true"]', 1);
    await page.keyboard.press('Escape');
    expect(await leaveFor(page, templateUrl())).toBe(true);
    expect(log.seen).toEqual([]);
    await ui.detach();

    // A capture: the browser asks; staying keeps the page, the toolbar and the item.
    page = await openTemplate();
    log = dialogs(page);
    ui = await openToolbar(env.browser, page);
    await captureHeadline(page, ui);
    const here = page.url();
    expect(await leaveFor(page, templateUrl())).toBe(false);
    expect(log.seen).toEqual(['beforeunload']);
    expect(page.url()).toBe(here);
    expect(await ui.count('.list .item')).toBe(1);

    // Leaving anyway: the item goes along and, on another site's page, says where it came from; an
    // idle toolbar there, with nothing captured on that page, does not hold it.
    log.state.leave = true;
    expect(await leaveFor(page, env.url(`/plain?visit=${++serial}`))).toBe(true);
    expect(log.seen).toEqual(['beforeunload', 'beforeunload']);
    await ui.detach();
    ui = await openToolbar(env.browser, page);
    await ui.waitForCount('.list .item', 1);
    expect(await ui.text('.list .item .from')).toMatch(/^from 127\.0\.0\.1:\d+\/.+\/index\.html$/);
    expect(await leaveFor(page, templateUrl())).toBe(true);
    expect(log.seen).toHaveLength(2);
    await ui.detach();

    // Back on the template in the same tab: captured here too, then saved — nothing to ask about.
    log.state.leave = false;
    ui = await openToolbar(env.browser, page);
    await ui.waitForCount('.list .item', 1);
    await captureHeadline(page, ui);
    await ui.waitForCount('.list .item', 2);
    await ui.click(SAVE);
    await ui.waitForStatus(/^Saved session \d+/, 30_000);
    await ui.waitForCount('.list .item', 0);
    await sleep(100);
    expect(await leaveFor(page, templateUrl())).toBe(true);
    expect(log.seen).toHaveLength(2);
    await ui.detach();
  });
  it('brings a removed item back with Ctrl+Z, and a note typed before a mode button leaves that mode its hint', async () => {
    const page = await openTemplate();
    const ui = await openToolbar(env.browser, page);
    await captureHeadline(page, ui);
    await ui.waitForCount('.list .item', 1);
    await ui.click('.list .item .actions [aria-label="Remove"]');
    await ui.waitForCount('.list .item', 0);
    await ui.waitForStatus(/^Removed /);
    // Ctrl+Z from the keyboard, the focus where the click left it.
    await page.keyboard.down('Control');
    await page.keyboard.press('z');
    await page.keyboard.up('Control');
    await ui.waitForCount('.list .item', 1);
    await ui.waitForStatus(/^Restored/);

    // A note, then straight to the Area button: the note is saved, and the line ends on Area's hint.
    await ui.click('.list .item textarea');
    await page.keyboard.type('Keep this weight');
    await ui.click('[data-mode="area"]');
    await ui.waitForCount('.mode[data-mode="area"][aria-pressed="true"]', 1);
    await ui.waitForStatus(/^Drag a rectangle/, 5_000);
    await sleep(1800);
    expect(await ui.text('.status')).toMatch(/^Drag a rectangle/);
    await page.keyboard.press('Escape');
    await ui.detach();
  });
});
