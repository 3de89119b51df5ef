/**
 * Page hostility (Hostile input), in real headless Chromium with the built extension and
 * the real host: a page that overrides window.postMessage, EventTarget.prototype.addEventListener,
 * document.querySelector and Element.prototype.attachShadow before any script runs, then posts and
 * dispatches forged toolbar messages, cannot see the toolbar's listeners, its shadow root or its
 * captures, and cannot make the extension save or capture. (Complements
 * test/e2e/toolbar-isolation.test.ts, which forges messages on an unmodified page.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { clickExtensionAction, ToolbarDriver } from '../helpers/toolbar-driver.js';

const IDEA = '001. Demo Idea';

/** Installed before the page's own scripts: spies on (and lies through) the APIs a toolbar might use. */
function hostileOverrides(): void {
  type Spy = { listeners: string[]; posts: unknown[]; shadows: string[]; queries: string[]; armed: boolean };
  const spy: Spy = { listeners: [], posts: [], shadows: [], queries: [], armed: false };
  Object.defineProperty(window, '__spy', { value: spy });
  const addEventListener = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
    if (spy.armed) spy.listeners.push(type);
    // Keep every listener it is given, to call them later with forged events.
    (spy as unknown as { captured: Array<[EventTarget, string, unknown]> }).captured ??= [];
    if (spy.armed)
      (spy as unknown as { captured: Array<[EventTarget, string, unknown]> }).captured.push([
        this,
        type,
        rest[0],
      ]);
    return addEventListener.call(this, type, ...(rest as [EventListener]));
  } as typeof EventTarget.prototype.addEventListener;
  const postMessage = window.postMessage.bind(window);
  window.postMessage = ((message: unknown, ...rest: unknown[]) => {
    if (spy.armed) spy.posts.push(message);
    return (postMessage as (m: unknown, ...r: unknown[]) => void)(message, ...rest);
  }) as typeof window.postMessage;
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    if (spy.armed) spy.shadows.push(`${this.tagName}:${init.mode}`);
    // A hostile page would force shadow roots open to read them.
    return attachShadow.call(this, { ...init, mode: 'open' });
  };
  const querySelector = Document.prototype.querySelector;
  Document.prototype.querySelector = function (this: Document, selector: string) {
    if (spy.armed) spy.queries.push(selector);
    // Lie: every query answers with a decoy element.
    const decoy = querySelector.call(this, '#decoy');
    return decoy ?? querySelector.call(this, selector);
  } as typeof Document.prototype.querySelector;
  document.addEventListener('DOMContentLoaded', () => {
    const decoy = document.createElement('div');
    decoy.id = 'decoy';
    decoy.textContent = 'decoy';
    document.body.append(decoy);
  });
}

describe('a hostile page', () => {
  let env: BrowserEnv;

  beforeAll(async () => {
    env = await BrowserEnv.start();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it('sees none of the toolbar and cannot make the extension save, capture or leak', async () => {
    const page = await env.browser.newPage();
    await page.evaluateOnNewDocument(hostileOverrides);
    await page.goto(env.url('/plain'), { waitUntil: 'load' });
    await page.evaluate(() => {
      (window as unknown as { __spy: { armed: boolean } }).__spy.armed = true;
    });
    const ui = await ToolbarDriver.attach(page);
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForStatus(/Pick elements/);

    // The designer picks the heading: the toolbar works although the page lies about the DOM.
    await ui.click('[data-mode="element"]');
    const r = await page.evaluate(() => {
      const box = (document.getElementById('title') as HTMLElement).getBoundingClientRect();
      return { x: box.x, y: box.y, width: box.width, height: box.height };
    });
    await page.mouse.click(r.x + Math.min(20, r.width / 2), r.y + r.height / 2);
    expect(await ui.waitForStatus(/^Captured /)).toMatch(/#title/);

    const seen = await page.evaluate(async (idea) => {
      const spy = (
        window as unknown as {
          __spy: {
            listeners: string[];
            posts: unknown[];
            shadows: string[];
            queries: string[];
            captured?: Array<[EventTarget, string, unknown]>;
          };
        }
      ).__spy;
      const before = { listeners: [...spy.listeners], posts: spy.posts.length, shadows: [...spy.shadows] };
      const forged = [
        { type: 'xipe-toolbar:save', idea_folder: idea },
        { type: 'xipe-toolbar:capture_element', draft: {}, crop: {}, viewport: {} },
        { type: 'xipe-toolbar:capture_full_page' },
        { type: 'save_reference', params: { data: { idea_folder: idea } } },
        { type: 'request', id: 1, command: 'save_reference', params: {} },
      ];
      for (const m of forged) {
        window.postMessage(m, '*');
        window.dispatchEvent(new MessageEvent('message', { data: m, origin: location.origin }));
        document.dispatchEvent(new CustomEvent('xipe-toolbar', { detail: m }));
      }
      const host = document.querySelectorAll('x-ipe-uiux-toolbar')[0];
      host?.dispatchEvent(
        new CustomEvent('xipe-toolbar:save', { detail: { idea_folder: idea }, bubbles: true }),
      );
      // Call every listener the page managed to capture since arming, with forged events.
      for (const [target, type, listener] of spy.captured ?? []) {
        if (typeof listener === 'function') {
          try {
            listener.call(target, new MessageEvent(type, { data: forged[0] }));
          } catch {
            // a page listener; ignore
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      return {
        before,
        shadowRoot: host ? host.shadowRoot : 'no host',
        hostText: host?.textContent ?? '',
        hostChildren: host?.children.length ?? -1,
        marker: typeof (window as { __xipeUiuxToolbar?: unknown }).__xipeUiuxToolbar,
        runtime: typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime
          ?.sendMessage,
      };
    }, IDEA);

    // The toolbar lives in the isolated world: the page's patched prototypes never saw it.
    expect(seen.before).toEqual({ listeners: [], posts: 0, shadows: [] });
    expect(seen.shadowRoot).toBeNull();
    expect(seen.hostText).toBe('');
    expect(seen.hostChildren).toBe(0);
    expect(seen.marker).toBe('undefined');
    expect(seen.runtime).toBe('undefined');

    await new Promise((resolve) => setTimeout(resolve, 500));
    const sessions = path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references', 'sessions');
    expect(fs.existsSync(sessions) ? fs.readdirSync(sessions) : []).toEqual([]);
    // Forged capture requests added nothing: only the designer's one capture is listed.
    expect(await ui.count('.list .item')).toBe(1);
    await ui.detach();
    await page.close();
  });
});
