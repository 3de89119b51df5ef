/**
 * Toolbar scenarios of issue #12 that depend on the device pixel ratio, run by both
 * toolbar-real-pages.test.ts (DPR 1) and toolbar-retina.test.ts (DPR 2): the same designer's
 * gestures, checked against DevTools' own screenshot at the browser's scale.
 */
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import type { BrowserEnv } from './browser-fixture.js';
import {
  compareCrop,
  fullPageShot,
  hexAt,
  hexDistance,
  lastColor,
  lastElement,
  openRealPage,
  openToolbar,
  rectOfDeep,
  scrollSettled,
  sleep,
  viewportShot,
} from './real-pages.js';
import { clickMiddle, rectOf } from './toolbar-driver.js';

export interface ScenarioContext {
  env: BrowserEnv;
  open: (path: string) => Promise<Page>;
  dpr: number;
}

/** A colour-mode sample point where the CSS colour is not what is painted. */
export interface ColourSample {
  name: string;
  path: string;
  point: (page: Page) => Promise<{ x: number; y: number; scroll?: number }>;
  /** The role it goes into the design tokens with, where the page's palette decides it. */
  role?: string;
}

export const COLOUR_SAMPLES: ColourSample[] = [
  // A spot of the creative hero with no text: a photo under a brown gradient. A photo's pixel is in
  // no CSS rule, so it is not the page's text colour (the CSS reading once put it in as 'text').
  {
    name: 'a photo hero under a gradient',
    path: '/real/creative',
    point: async () => ({ x: 160, y: 600 }),
    role: 'custom',
  },
  // The right end of a todo row: white inside todo-app's shadow root, on a #f5f5f5 page.
  {
    name: 'a white row inside a shadow root',
    path: '/real/todo',
    point: async (page) => {
      const r = await rectOfDeep(page, 'todo-app >>>> todo-list todo-item:nth-child(4) >>>> li');
      return { x: r.x + r.width - 60, y: r.y + r.height / 2 };
    },
  },
  // Inside the dark #two section, whose background-color (#6fc3df) lies under a dark image.
  {
    name: 'a section painted by its background image',
    path: '/real/dark',
    point: async (page) => {
      const top = await page.$eval('#two', (el) => el.getBoundingClientRect().top + window.scrollY);
      return { x: 200, y: 150, scroll: top };
    },
  },
];

/** Colour mode without the EyeDropper reports the pixel under the pointer (issue #12 item 4). */
export async function samplesThePixel({ env, open, dpr }: ScenarioContext, c: ColourSample): Promise<void> {
  const worker = await env.serviceWorker();
  const { page } = await openRealPage(open, c.path);
  const at = await c.point(page);
  if (at.scroll !== undefined) await scrollSettled(page, at.scroll);
  const reference = await viewportShot(page);
  const truth = hexAt(reference, Math.floor(at.x * dpr), Math.floor(at.y * dpr));
  const ui = await openToolbar(env.browser, page);
  await ui.click('[data-mode="color"]');
  await page.mouse.move(at.x, at.y);
  await page.mouse.click(at.x, at.y);
  await ui.waitForStatus(/^Added #/);
  const color = await lastColor(worker, page, 1);
  expect({ hex: color.hex, near: hexDistance(color.hex, truth) <= 2 }).toEqual({
    hex: color.hex,
    near: true,
  });
  if (c.role) expect(color.role).toBe(c.role);
  await ui.detach();
}

/** Over text, the contrast is the text colour's against the pixels behind it (item 4). */
export async function ratesTextByItsPixels({ env, open, dpr }: ScenarioContext): Promise<void> {
  const worker = await env.serviceWorker();
  const { page } = await openRealPage(open, '/real/creative');
  const reference = await viewportShot(page);
  const h1 = await rectOf(page, 'header.masthead h1');
  // What is really behind the white heading: the darkest and lightest non-text pixels in its box.
  const lum = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const ratios: number[] = [];
  for (let y = Math.ceil(h1.y * dpr); y < (h1.y + h1.height) * dpr; y += 3)
    for (let x = Math.ceil(h1.x * dpr); x < (h1.x + h1.width) * dpr; x += 3) {
      const l = lum(hexAt(reference, x, y));
      if (l < 0.5) ratios.push(1.05 / (l + 0.05));
    }
  ratios.sort((a, b) => a - b);
  const ui = await openToolbar(env.browser, page);
  await ui.click('[data-mode="color"]');
  const x = h1.x + 12;
  const y = h1.y + h1.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.click(x, y);
  await ui.waitForStatus(/^Added #/);
  const color = await lastColor(worker, page, 1);
  expect(color.contrast).toBeDefined();
  expect(color.contrast?.against).toBe('#ffffff');
  const ratio = color.contrast?.ratio ?? 0;
  expect(ratio).toBeGreaterThanOrEqual((ratios[0] ?? 0) - 0.05);
  expect(ratio).toBeLessThanOrEqual((ratios[ratios.length - 1] ?? 0) + 0.05);
  await ui.detach();
}

/** An element crop shows the element, not the fixed navbar scrolled over it (item 6). */
export async function cropsClearOfFixedNavbar({ env, open, dpr }: ScenarioContext): Promise<void> {
  const worker = await env.serviceWorker();
  const { page } = await openRealPage(open, '/real/agency');
  // Scroll so the photo's top 40 px are under the (shrunk, dark) fixed navbar.
  const imgTop = await page.$eval(
    '#portfolio-4 img',
    (el) => el.getBoundingClientRect().top + window.scrollY,
  );
  await scrollSettled(page, imgTop - 20);
  await page.$eval('#mainNav', (nav) => (nav as HTMLElement).style.setProperty('visibility', 'hidden'));
  const reference = await viewportShot(page);
  await page.$eval('#mainNav', (nav) => nav.removeAttribute('style'));
  const img = await rectOf(page, '#portfolio-4 img');
  const ui = await openToolbar(env.browser, page);
  await ui.click('[data-mode="element"]');
  await clickMiddle(page, img);
  const { png } = await lastElement(worker, page, 1);
  const cmp = compareCrop(png, reference, { x: Math.floor(img.x * dpr), y: Math.floor(img.y * dpr) });
  const edge = (from: number, size: number) => Math.ceil((from + size) * dpr) - Math.floor(from * dpr);
  expect([cmp.width, cmp.height]).toEqual([edge(img.x, img.width), edge(img.y, img.height)]);
  expect(cmp.badRows).toEqual([]);
  expect(cmp.mismatch).toBe(0);
  await ui.detach();
}

/** An element taller than the viewport: the toolbar says so and stitches all of it on request (item 5). */
export async function capturesATallElement({ env, open, dpr }: ScenarioContext): Promise<void> {
  const worker = await env.serviceWorker();
  const { page } = await openRealPage(open, '/real/agency');
  const reference = await fullPageShot(page);
  const top = await page.$eval('#about', (el) => el.getBoundingClientRect().top + window.scrollY);
  await scrollSettled(page, top - 100);
  const about = await rectOf(page, '#about');
  const ui = await openToolbar(env.browser, page);
  await ui.click('[data-mode="element"]');
  // In the section's side padding: the pick is the section itself (~1900 px tall).
  await page.mouse.move(30, about.y + 60);
  await page.mouse.click(30, about.y + 60);
  await ui.waitForStatus(/taller than the viewport/i);
  await ui.click('[data-action="full-element"]');
  await ui.waitForStatus(/^Captured all of #about /, 90_000);
  // The whole element replaces the item of its visible part.
  const { item, png, collection } = await lastElement(worker, page, 1);
  expect(collection.elements).toHaveLength(1);
  expect(item.selector).toBe('#about');
  const cmp = compareCrop(png, reference, { x: 0, y: Math.round(item.bounding_box.y * dpr) });
  expect([cmp.width, cmp.height]).toEqual([Math.round(about.width * dpr), Math.round(about.height * dpr)]);
  expect(cmp.badRows).toEqual([]);
  expect(cmp.mismatch).toBeLessThan(0.001);
  await ui.detach();
}

/** The panel shows the element at the press, from the frame taken while the pointer rested (item 8). */
export async function showsTheCropAtThePress({ env, open, dpr }: ScenarioContext): Promise<void> {
  const worker = await env.serviceWorker();
  const { page } = await openRealPage(open, '/real/agency');
  await page.$eval('#portfolio-5 img', (img) => img.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await scrollSettled(page, await page.evaluate(() => window.scrollY));
  const reference = await viewportShot(page);
  const img = await rectOf(page, '#portfolio-5 img');
  const ui = await openToolbar(env.browser, page);
  await ui.click('[data-mode="element"]');
  await sleep(1_200); // the capture quota is free again after the mode button's click
  await page.mouse.move(img.x + img.width / 2, img.y + img.height / 2, { steps: 3 });
  await sleep(600); // a designer's pointer rests on what they are about to click
  await page.mouse.down();
  // While the button is still down, before any exact capture: the panel already shows it.
  await ui.waitForCount('.list .item.pending .thumb[style*="background-image"]', 1, 5_000);
  expect(await ui.text('.list .item.pending .sub')).toMatch(/capturing/);
  await page.mouse.up();
  // The exact capture replaces the preview, pixel for pixel the page's.
  const { png, collection } = await lastElement(worker, page, 1);
  await ui.waitForCount('.list .item.pending', 0);
  expect(collection.elements).toHaveLength(1);
  const cmp = compareCrop(png, reference, { x: Math.floor(img.x * dpr), y: Math.floor(img.y * dpr) });
  expect(cmp.mismatch).toBe(0);
  await ui.detach();
}

/** An area confirmed with Enter while the pointer rests on a row shows no :hover (item 6). */
export async function showsNoHoverInAnArea({ env, open, dpr }: ScenarioContext): Promise<void> {
  const worker = await env.serviceWorker();
  const todo = (await openRealPage(open, '/real/todo')).page;
  await todo.mouse.move(5, 5);
  const clean = await viewportShot(todo);
  const first = await rectOfDeep(todo, 'todo-app >>>> todo-list todo-item:nth-child(2) >>>> li');
  const last = await rectOfDeep(todo, 'todo-app >>>> todo-list todo-item:nth-child(5) >>>> li');
  const ui = await openToolbar(env.browser, todo);
  await ui.click('[data-mode="area"]');
  const from = { x: first.x + 2, y: first.y + 2 };
  const to = { x: last.x + last.width - 2, y: last.y + last.height - 2 };
  await todo.mouse.move(from.x, from.y);
  await todo.mouse.down();
  await todo.mouse.move(to.x, to.y, { steps: 6 });
  await todo.mouse.up();
  // The pointer rests over the last row, whose delete button shows on :hover; a hand on the mouse
  // moves it by a pixel or two while the capture runs.
  await todo.keyboard.press('Enter');
  for (let i = 1; i <= 4; i += 1) {
    await todo.mouse.move(to.x - i, to.y);
    await sleep(15);
  }
  const area = await lastElement(worker, todo, 1);
  const cmp = compareCrop(area.png, clean, { x: Math.floor(from.x * dpr), y: Math.floor(from.y * dpr) });
  // The crop is the dragged rectangle (edges rounded outwards to device pixels) …
  for (const [got, size] of [
    [cmp.width, to.x - from.x],
    [cmp.height, to.y - from.y],
  ] as const) {
    expect(got).toBeGreaterThanOrEqual(Math.floor(size * dpr));
    expect(got).toBeLessThanOrEqual(Math.ceil(size * dpr) + 1);
  }
  // … and the delete button alone is ~100 CSS px² of the ~546×236 crop: no pixel may differ.
  expect(cmp.mismatch).toBe(0);
  await ui.detach();
}

async function metrics(page: Page): Promise<Record<string, number>> {
  const session = await page.createCDPSession();
  try {
    await session.send('Performance.enable');
    const { metrics: list } = await session.send('Performance.getMetrics');
    return Object.fromEntries(list.map((m) => [m.name, m.value]));
  } finally {
    await session.detach();
  }
}

/**
 * An open toolbar on an idle page does nothing: no `toggle` events, no style recalculation, no
 * layout; a popover the page opens afterwards still goes under it, and the page's toggle events
 * settle (answering its own once looped). `page` is loaded and settled, the toolbar not yet open.
 */
export async function costsAnIdlePageNothing(env: BrowserEnv, page: Page): Promise<void> {
  const toggles = () => page.evaluate(() => (window as { __toggles?: number }).__toggles ?? 0);
  await page.evaluate(() => {
    const w = window as { __toggles?: number };
    w.__toggles = 0;
    document.addEventListener('toggle', () => (w.__toggles = (w.__toggles ?? 0) + 1), true);
  });
  const ui = await openToolbar(env.browser, page);
  await sleep(500);
  const before = await metrics(page);
  const togglesBefore = await toggles();
  await sleep(2000);
  const after = await metrics(page);
  expect((await toggles()) - togglesBefore).toBe(0);
  expect((after.RecalcStyleCount ?? 0) - (before.RecalcStyleCount ?? 0)).toBe(0);
  expect((after.LayoutCount ?? 0) - (before.LayoutCount ?? 0)).toBe(0);

  await page.evaluate(() => {
    const pop = document.createElement('div');
    pop.id = 'page-popover';
    pop.popover = 'manual';
    pop.setAttribute('style', 'inset:0;width:100vw;height:100vh;margin:0;background:rgba(0,0,0,.4)');
    document.body.append(pop);
    pop.showPopover();
  });
  await sleep(300);
  const settled = await toggles();
  await sleep(1000);
  expect(await toggles()).toBe(settled);
  const c = await ui.center('.panel');
  expect(await page.evaluate((x, y) => document.elementFromPoint(x, y)?.localName, c.x, c.y)).toBe(
    'x-ipe-uiux-toolbar',
  );
  await page.evaluate(() => document.getElementById('page-popover')?.remove());
  await ui.detach();
}
