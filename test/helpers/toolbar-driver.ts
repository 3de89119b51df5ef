/**
 * Drives the designer toolbar like a user: real mouse and keyboard events at the coordinates of
 * its controls. The toolbar lives in a closed shadow root that page scripts cannot reach; the test
 * finds its controls through the DevTools protocol (DOM.getDocument with pierce, as DevTools'
 * Elements panel does), which observes without weakening the product's isolation.
 */
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { EXTENSION_ID } from '#shared/constants.js';
import { compareImages, decodePng } from '../support/png.js';
import { waitUntil } from './browser-fixture.js';

interface DomNode {
  nodeId: number;
  localName?: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}

export const HOST_TAG = 'x-ipe-uiux-toolbar';

/**
 * Clicks the extension's toolbar button for `page`'s tab (CDP Extensions.triggerAction on the
 * tab target) — the same path as a user's click: chrome.action.onClicked in the worker.
 */
export async function clickExtensionAction(browser: Browser, page: Page): Promise<void> {
  await page.bringToFront();
  const session = await browser.target().createCDPSession();
  try {
    const url = page.url();
    const { targetInfos } = await session.send('Target.getTargets', { filter: [{ type: 'tab' }] });
    const tabs = targetInfos.filter((t) => t.type === 'tab' && t.url === url);
    if (tabs.length !== 1) throw new Error(`expected one tab target for ${url}, found ${tabs.length}`);
    const tab = tabs[0];
    if (!tab) throw new Error('no tab');
    await session.send('Extensions.triggerAction', { id: EXTENSION_ID, targetId: tab.targetId });
  } finally {
    await session.detach();
  }
}

export class ToolbarDriver {
  private constructor(
    readonly page: Page,
    private readonly session: CDPSession,
  ) {}

  static async attach(page: Page): Promise<ToolbarDriver> {
    const session = await page.createCDPSession();
    await session.send('DOM.enable');
    return new ToolbarDriver(page, session);
  }

  async detach(): Promise<void> {
    await this.session.detach().catch(() => undefined);
  }

  /** Number of toolbar host elements in the page (as the page itself sees them). */
  hostCount(): Promise<number> {
    return this.page.evaluate((tag) => document.querySelectorAll(tag).length, HOST_TAG);
  }

  private async shadowRoot(): Promise<number | null> {
    const { root } = (await this.session.send('DOM.getDocument', { depth: -1, pierce: true })) as {
      root: DomNode;
    };
    const stack: DomNode[] = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!node) break;
      if (node.localName === HOST_TAG) return node.shadowRoots?.[0]?.nodeId ?? null;
      stack.push(...(node.children ?? []), ...(node.shadowRoots ?? []));
    }
    return null;
  }

  async queryAll(selector: string): Promise<number[]> {
    const root = await this.shadowRoot();
    if (root === null) return [];
    const { nodeIds } = await this.session.send('DOM.querySelectorAll', { nodeId: root, selector });
    return nodeIds;
  }

  async count(selector: string): Promise<number> {
    return (await this.queryAll(selector)).length;
  }

  private async one(selector: string, index = 0): Promise<number> {
    const ids = await this.queryAll(selector);
    const id = ids[index];
    if (id === undefined) throw new Error(`toolbar has no ${selector} [${index}] (found ${ids.length})`);
    return id;
  }

  /** Border box of a toolbar element in viewport CSS px (scrolled into view inside the panel). */
  async boxOf(selector: string, index = 0): Promise<{ x: number; y: number; width: number; height: number }> {
    const nodeId = await this.one(selector, index);
    await this.session.send('DOM.scrollIntoViewIfNeeded', { nodeId }).catch(() => undefined);
    const { model } = await this.session.send('DOM.getBoxModel', { nodeId });
    const q = model.border;
    const xs = [q[0], q[2], q[4], q[6]].map(Number);
    const ys = [q[1], q[3], q[5], q[7]].map(Number);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
  }

  async center(selector: string, index = 0): Promise<{ x: number; y: number }> {
    const b = await this.boxOf(selector, index);
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }

  async click(selector: string, index = 0): Promise<void> {
    const { x, y } = await this.center(selector, index);
    await this.page.mouse.click(x, y);
  }

  /** Gives a toolbar control the keyboard focus (as Tab would), for the real key presses that follow. */
  async focus(selector: string, index = 0): Promise<void> {
    await this.session.send('DOM.focus', { nodeId: await this.one(selector, index) });
  }

  async text(selector: string, index = 0): Promise<string> {
    const nodeId = await this.one(selector, index);
    const { outerHTML } = await this.session.send('DOM.getOuterHTML', { nodeId });
    return outerHTML
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .trim();
  }

  /** Waits until the status line matches (and returns its text). */
  async waitForStatus(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    let last = '';
    return waitUntil(
      `toolbar status ${pattern} (last: "${last}")`,
      async () => {
        const t = await this.text('.status').catch(() => '');
        last = t;
        if (/^Not saved|error/i.test(t) && !pattern.test(t)) throw new Error(`status: ${t}`);
        return pattern.test(t) ? t : null;
      },
      timeoutMs,
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; status was "${last}"`);
    });
  }

  async waitForCount(selector: string, n: number, timeoutMs = 15_000): Promise<void> {
    await waitUntil(
      `${n} × ${selector}`,
      async () => ((await this.count(selector)) === n ? true : null),
      timeoutMs,
    );
  }
}

/** Viewport rectangle of a page element (CSS px). */
export async function rectOf(
  page: Page,
  selector: string,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const r = await page.$eval(selector, (el) => {
    const b = el.getBoundingClientRect();
    return { x: b.x, y: b.y, width: b.width, height: b.height };
  });
  return r;
}

/** Moves the pointer to the middle of `r` (the toolbar's highlight follows it), then clicks there. */
export async function clickMiddle(page: Page, r: { x: number; y: number; width: number; height: number }) {
  const x = r.x + r.width / 2;
  const y = r.y + r.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.click(x, y);
}

/**
 * Compares `crop` (PNG base64) with the region of `reference` at (x, y): the fraction of pixels
 * whose channels differ by more than `tolerance`.
 */
export function comparePng(
  crop: string,
  reference: string,
  at: { x: number; y: number },
  tolerance = 8,
): { width: number; height: number; mismatch: number } {
  const image = decodePng(Buffer.from(crop, 'base64'));
  const { mismatch } = compareImages(image, decodePng(Buffer.from(reference, 'base64')), {
    ...at,
    tolerance,
  });
  return { width: image.width, height: image.height, mismatch };
}

/** Rows (top to bottom) of a PNG (base64) in which most pixels are within `tol` of `rgb`. */
export function rowsMatching(png: string, rgb: [number, number, number], tol = 12) {
  const image = decodePng(Buffer.from(png, 'base64'));
  const rows: number[] = [];
  for (let y = 0; y < image.height; y++) {
    let hits = 0;
    for (let x = 0; x < image.width; x += 4) {
      const i = (y * image.width + x) * 4;
      if (rgb.every((v, k) => Math.abs((image.data[i + k] ?? 0) - v) <= tol)) hits++;
    }
    if (hits > image.width / 8) rows.push(y);
  }
  return { width: image.width, height: image.height, rows };
}
