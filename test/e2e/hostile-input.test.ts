import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { clickExtensionAction, ToolbarDriver } from '../helpers/toolbar-driver.js';

/**
 * A page that makes up input (attack 7): while the designer has drawn an area, the page
 * dispatches Enter and Escape keys and clicks of its own. Only the designer's real keys count.
 */
describe('the toolbar ignores input the page makes up', () => {
  let env: BrowserEnv;
  let page: Page;
  let ui: ToolbarDriver;

  beforeAll(async () => {
    env = await BrowserEnv.start();
    page = await env.openPage('/demo/');
    ui = await ToolbarDriver.attach(page);
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
  });
  afterAll(async () => {
    await ui?.detach();
    await env?.dispose();
  });

  const forge = (key: string) =>
    page.evaluate((k) => {
      for (const target of [window, document, document.body]) {
        for (const type of ['keydown', 'keyup']) {
          target.dispatchEvent(new KeyboardEvent(type, { key: k, code: k, bubbles: true, cancelable: true }));
        }
      }
      document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, clientX: 5, clientY: 5 }));
      document.body.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 5, clientY: 5 }));
    }, key);

  it('a drawn area is confirmed by a real Enter only, and a made-up Escape does not stop the tool', async () => {
    await ui.click('[data-mode="area"]');
    await page.mouse.move(40, 120);
    await page.mouse.down();
    await page.mouse.move(300, 260, { steps: 5 });
    await page.mouse.up();
    await forge('Enter');
    await forge('Escape');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await ui.count('.list .item')).toBe(0);
    expect(await ui.count('.modes [aria-pressed="true"]')).toBe(1);
    await page.keyboard.press('Enter');
    await ui.waitForCount('.list .item', 1);
  });
});
