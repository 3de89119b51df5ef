/**
 * The toolbar as a designer uses it, on published templates nobody here wrote (the real-web
 * corpus, bench/corpus/), at DPR 1 and 2, driven only by real input: keys right after opening,
 * two elements, an area whose instruction ends with Enter, a full page started from a scrolled
 * position on a page whose navbar changes on scroll, Save. Every step must act or say why not;
 * crops are judged against the browser's own screenshot, the full page against plain viewport
 * screenshots (the top band at scroll 0, later bands with fixed and sticky layers hidden), and the
 * panel must never cover what the next pointer action is aimed at.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import {
  compareCrop,
  lastElement,
  openToolbar,
  rectOfDeep,
  scrollSettled,
  viewportShot,
} from '../helpers/real-pages.js';
import type { ToolbarDriver } from '../helpers/toolbar-driver.js';
import { compareImages, decodePng } from '../support/png.js';
import {
  type CorpusServer,
  corpusPages,
  REAL_WEB_ARGS,
  REAL_WEB_WINDOW,
  startCorpusServer,
} from '../support/real-corpus.js';
import { openCorpusPage } from '../support/real-measure.js';

const IDEA = '001. Demo Idea';
/** Two templates whose navbar changes as the page scrolls. */
const TEMPLATES = ['sb-agency/index.html', 'sb-creative/index.html'];
const pages = corpusPages(TEMPLATES);

type Rect = { x: number; y: number; width: number; height: number };
const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Visible, uncovered elements of the first screen a designer would pick: a heading, a button. */
async function targets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const selector of ['h1, h2, .masthead-heading, .masthead-subheading', 'a.btn, button.btn']) {
      for (const el of Array.from(document.querySelectorAll(selector))) {
        const r = el.getBoundingClientRect();
        if (r.width < 40 || r.height < 16 || r.top < 80 || r.bottom > innerHeight - 40) continue;
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        if (!hit || !(el === hit || el.contains(hit))) continue;
        el.setAttribute('data-designer-target', String(found.length));
        found.push(`[data-designer-target="${found.length}"]`);
        break;
      }
    }
    return found;
  });
}

/** The panel is clear of the point the next pointer action is aimed at. */
async function panelClearOf(ui: ToolbarDriver, at: { x: number; y: number }): Promise<boolean> {
  return !overlaps(await ui.boxOf('.panel'), { ...at, width: 1, height: 1 });
}

for (const dpr of [1, 2]) {
  describe(`a designer's session on real templates (DPR ${dpr})`, () => {
    let env: BrowserEnv;
    let server: CorpusServer;

    beforeAll(async () => {
      server = await startCorpusServer(pages);
      env = await BrowserEnv.start({
        deviceScaleFactor: dpr,
        windowSize: REAL_WEB_WINDOW,
        extraArgs: REAL_WEB_ARGS,
      });
    });
    afterAll(async () => {
      await env?.dispose();
      await server?.close();
    });

    it.each(TEMPLATES)(
      '%s: keys, two elements, an area with an instruction, a full page, Save',
      async (name) => {
        const corpusPage = pages.find((p) => p.name === name);
        if (!corpusPage) throw new Error(`${name} is not in the corpus`);
        const page = await openCorpusPage(env.browser, server.pageUrl(corpusPage));
        const worker = await env.serviceWorker();
        const started = Date.now();
        await scrollSettled(page, 0);
        const picks = await targets(page);
        expect(picks.length).toBe(2);
        // The browser's own screenshot of the first screen, before the toolbar is there.
        const top = await viewportShot(page);

        const ui = await openToolbar(env.browser, page);
        // Keys work right after opening, with no toolbar control focused.
        await page.keyboard.press('e');
        await ui.waitForCount('.mode[data-mode="element"][aria-pressed="true"]', 1);

        for (const [i, selector] of picks.entries()) {
          const r = await rectOfDeep(page, selector);
          const middle = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
          await page.mouse.move(middle.x, middle.y, { steps: 4 });
          await new Promise((resolve) => setTimeout(resolve, 150));
          expect(await panelClearOf(ui, middle), `the panel covers ${selector}`).toBe(true);
          await page.mouse.click(middle.x, middle.y);
          await ui.waitForStatus(/^Captured /);
          const { item, png } = await lastElement(worker, page, i + 1);
          expect(item.label ?? '').not.toBe('');
          // A crop takes every device pixel the box touches: it starts at the floor of its edge.
          const cmp = compareCrop(png, top, { x: Math.floor(r.x * dpr), y: Math.floor(r.y * dpr) });
          expect(cmp.mismatch, `${selector} crop vs the browser's screenshot`).toBeLessThan(0.02);
        }
        await page.keyboard.press('Escape');
        await ui.waitForCount('.mode[aria-pressed="true"]', 0);

        // An area on the side the panel leaves free; its instruction ends with Enter.
        await page.keyboard.press('a');
        await ui.waitForCount('.mode[data-mode="area"][aria-pressed="true"]', 1);
        const panel = await ui.boxOf('.panel');
        const left = panel.x > 640 ? 60 : 760;
        const area = { x: left, y: 140, width: 420, height: 260 };
        expect(overlaps(panel, area)).toBe(false);
        await page.mouse.move(area.x, area.y);
        await page.mouse.down();
        await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2, { steps: 4 });
        await page.mouse.move(area.x + area.width, area.y + area.height, { steps: 4 });
        await page.mouse.up();
        const bar = await ui.boxOf('.area-bar');
        expect(overlaps(await ui.boxOf('.panel'), bar), 'the Capture button is under the panel').toBe(false);
        await ui.click('.options .instruction');
        await page.keyboard.type('Rebuild this part of the hero');
        await page.keyboard.press('Enter');
        await ui.waitForStatus(/^Deep-captured |^Captured /, 60_000);
        const areaItem = await lastElement(worker, page, 3);
        const areaCmp = compareCrop(areaItem.png, top, { x: area.x * dpr, y: area.y * dpr });
        expect(areaCmp.mismatch, 'area crop vs the browser screenshot').toBeLessThan(0.02);

        // A full page started from a scrolled position (the navbar in its scrolled state).
        await page.keyboard.press('Escape');
        await scrollSettled(page, 1200);
        await page.keyboard.press('p');
        await ui.waitForStatus(/^Full page captured/, 90_000);
        const full = await lastElement(worker, page, 4);
        expect(await page.evaluate(() => Math.round(window.scrollY))).toBe(1200);
        const shot = decodePng(full.png);
        // Band 0 against the page at scroll 0 (fixed navbar in its state at the top).
        const viewportRows = top.height - 8 * dpr;
        const band0 = compareImages(top, shot, { rows: viewportRows });
        expect(band0.mismatch, 'the top band vs the page at scroll 0').toBeLessThan(0.03);
        // Later screens against viewport screenshots with fixed and sticky layers hidden.
        const viewportCss = await page.evaluate(() => document.documentElement.clientHeight);
        for (const screen of [1, 2]) {
          const y = screen * viewportCss;
          if ((y + viewportCss) * dpr > shot.height) break;
          await scrollSettled(page, y);
          const hidden = await page.evaluate(() => {
            const els = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter((el) => {
              const p = getComputedStyle(el).position;
              return (p === 'fixed' || p === 'sticky') && el.localName !== 'x-ipe-uiux-toolbar';
            });
            for (const el of els) el.style.setProperty('visibility', 'hidden', 'important');
            const host = document.querySelector<HTMLElement>('x-ipe-uiux-toolbar');
            if (host) host.style.setProperty('visibility', 'hidden', 'important');
            return els.length;
          });
          await new Promise((resolve) => setTimeout(resolve, 100));
          const plain = await viewportShot(page);
          await page.evaluate(() => {
            for (const el of Array.from(document.querySelectorAll<HTMLElement>('[style*="visibility"]')))
              el.style.removeProperty('visibility');
          });
          const later = compareImages(plain, shot, { y: y * dpr, rows: viewportRows });
          expect(later.mismatch, `screen ${screen + 1} (${hidden} fixed/sticky layers hidden)`).toBeLessThan(
            0.03,
          );
        }
        await scrollSettled(page, 0);

        // Save: the session and every crop on disk.
        await ui.click('.save .row .btn:not(.secondary)');
        const saved = await ui.waitForStatus(/^Saved session \d+/, 30_000);
        const refs = path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');
        const session = JSON.parse(
          fs.readFileSync(
            path.join(refs, 'sessions', /ref-session-\d+\.json/.exec(saved)?.[0] ?? ''),
            'utf8',
          ),
        );
        expect(session.elements).toHaveLength(4);
        for (const e of session.elements as { screenshots: Record<string, string | null> }[]) {
          const file = e.screenshots.element_crop ?? e.screenshots.full_page;
          expect(file && fs.existsSync(path.join(refs, file))).toBe(true);
        }
        const share = await ui.boxOf('.panel').then(async (b) => {
          const vp = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }));
          return (b.width * b.height) / (vp.w * vp.h);
        });
        process.stderr.write(
          `[designer] ${name} DPR ${dpr}: open → saved ${Date.now() - started} ms, panel ${(share * 100).toFixed(1)} % of the viewport with 4 items\n`,
        );
        expect(share).toBeLessThan(0.3);
        await page.close();
      },
    );
  });
}
