import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { clickExtensionAction, rectOf, ToolbarDriver } from '../helpers/toolbar-driver.js';

/** The toolbar on hostile pages: hostile CSS, a strict CSP, and page scripts forging messages. */
describe('toolbar isolation', () => {
  let env: BrowserEnv;

  beforeAll(async () => {
    env = await BrowserEnv.start();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  async function openToolbar(page: Page): Promise<ToolbarDriver> {
    const ui = await ToolbarDriver.attach(page);
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForStatus(/Pick elements/);
    return ui;
  }

  async function pick(page: Page, ui: ToolbarDriver, selector: string): Promise<string> {
    await ui.click('[data-mode="element"]');
    const r = await rectOf(page, selector);
    await page.mouse.click(r.x + Math.min(20, r.width / 2), r.y + r.height / 2);
    const status = await ui.waitForStatus(/^Captured /);
    await page.keyboard.press('Escape');
    return status;
  }

  it('stays intact and usable under hostile page CSS and a max z-index click shield', async () => {
    const page = await env.openPage('/plain');
    await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = `
        * { all: unset !important; }
        html * { pointer-events: none !important; }
        x-ipe-uiux-toolbar, [popover] { display: none !important; opacity: 0 !important; }
        :root { font-size: 4px !important; filter: invert(1) !important; }
        h1 { display: block !important; padding: 20px !important; font-size: 40px !important; }`;
      document.head.append(style);
      const shield = document.createElement('div');
      shield.setAttribute(
        'style',
        'position:fixed;inset:0;z-index:2147483647;pointer-events:auto;background:transparent',
      );
      document.body.append(shield);
    });
    const ui = await openToolbar(page);
    const panel = await ui.center('.panel');
    expect(panel.x).toBeGreaterThan(900);
    // Real clicks reach the toolbar's buttons above the page's own top-most overlay.
    await ui.click('[data-mode="element"]');
    expect(await ui.text('.status')).toMatch(/Click an element/);
    await page.keyboard.press('Escape');
    expect(await pick(page, ui, 'h1')).toMatch(/^Captured #title /);
    await ui.detach();
    await page.close();
  });

  it('works on a page whose CSP forbids inline script and eval', async () => {
    const page = await env.openPage('/csp');
    const ui = await openToolbar(page);
    expect(await pick(page, ui, '#title')).toMatch(/^Captured #title \(\d+×\d+ px\)/);
    await ui.detach();
    await page.close();
  });

  it('picks the colour under the pointer where the EyeDropper cannot run, with its contrast', async () => {
    const page = await env.openPage('/csp?colour');
    await page.$eval('#title', (h) =>
      h.setAttribute('style', 'background: rgb(10, 120, 90); color: #ffffff'),
    );
    const ui = await openToolbar(page);
    await ui.click('[data-mode="color"]');
    const r = await rectOf(page, '#title');
    // The pixel under the pointer is sampled: right of the short title, clear of its glyphs (and
    // left of the panel).
    await page.mouse.click(r.x + 300, r.y + r.height / 2);
    await ui.waitForStatus(/^Added #0a785a as /);
    expect(await ui.text('.section .list .item .sub')).toMatch(
      /^10, 120, 90 · \d+\.\d\d:1 (AA|AAA|AA Large|Fail) vs #ffffff/,
    );
    await page.keyboard.press('Escape');
    await ui.detach();
    await page.close();
  });

  it('gives page scripts nothing to read and accepts nothing they post', async () => {
    const page = await env.openPage('/other');
    const ui = await openToolbar(page);
    await pick(page, ui, 'h1');
    const seen = await page.evaluate(async () => {
      const host = document.querySelector('x-ipe-uiux-toolbar');
      const forged = [
        { type: 'xipe-toolbar:save', idea_folder: '001. Demo Idea' },
        { type: 'xipe-toolbar:capture_element', draft: {}, crop: {}, viewport: {} },
        { type: 'xipe-toolbar:clear' },
      ];
      for (const m of forged) window.postMessage(m, '*');
      window.dispatchEvent(new MessageEvent('message', { data: forged[0], origin: location.origin }));
      const runtime = (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime;
      await new Promise((r) => setTimeout(r, 500));
      return {
        shadowRoot: host ? host.shadowRoot : 'no host',
        marker: typeof (window as { __xipeUiuxToolbar?: unknown }).__xipeUiuxToolbar,
        canSendToExtension: typeof runtime?.sendMessage === 'function',
        text: host?.textContent ?? '',
      };
    });
    expect(seen).toEqual({ shadowRoot: null, marker: 'undefined', canSendToExtension: false, text: '' });
    await new Promise((r) => setTimeout(r, 500));
    // Nothing was saved, and the designer's capture is still there.
    const sessions = path.join(
      env.workspace,
      'x-ipe-docs',
      'ideas',
      '001. Demo Idea',
      'uiux-references',
      'sessions',
    );
    expect(fs.existsSync(sessions) ? fs.readdirSync(sessions) : []).toEqual([]);
    expect(await ui.count('.list .item')).toBe(1);
    await ui.detach();
    await page.close();
  });
});

describe('toolbar state across a service-worker restart', () => {
  let env: BrowserEnv;

  beforeAll(async () => {
    // Puppeteer would hold a restarted worker it had attached to paused: stay detached.
    env = await BrowserEnv.start({ attachToWorker: false });
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it('keeps the collection across closing, reopening and a worker restart', async () => {
    const page = await env.openPage('/plain');
    let ui = await ToolbarDriver.attach(page);
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForStatus(/Pick elements/);
    await ui.click('[data-mode="element"]');
    const r = await rectOf(page, 'h1');
    await page.mouse.click(r.x + 10, r.y + r.height / 2);
    await ui.waitForStatus(/^Captured /);
    await page.keyboard.press('Escape');
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar to close', async () => ((await ui.hostCount()) === 0 ? true : null));
    await ui.detach();
    await env.stopServiceWorker(page);
    ui = await ToolbarDriver.attach(page);
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForCount('.list .item', 1);
    expect(await ui.text('.list .item .sel')).toBe('#title');
    await ui.detach();
    await page.close();
  });
});
