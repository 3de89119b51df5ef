/**
 * Deep capture on pages nobody here wrote (the real-web corpus, bench/corpus/): one page per
 * failure class the corpus showed, each area chosen by the bench's rule (selectAreas), its clone
 * compared with the browser's own screenshot of the rectangle taken before the capture. The full
 * corpus, at DPR 1 and 2 with held-out pages apart, is `npm run bench -- --only=area_clone_fidelity_real`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import {
  type CorpusServer,
  corpusPages,
  REAL_WEB_ARGS,
  REAL_WEB_WINDOW,
  selectAreas,
  startCorpusServer,
} from '../support/real-corpus.js';
import { measureRealArea, openCorpusPage } from '../support/real-measure.js';

/** A page of the corpus, the area of it (by the bench's rule, 1-based) and what it shows. */
const CASES: { page: string; area: number; why: string; quirks?: boolean }[] = [
  { page: 'sb-creative/index.html', area: 1, why: "an ancestor's cover photo under a gradient" },
  {
    page: 'sb-admin-2/login.html',
    area: 1,
    why: 'a gradient on body, propagated to the canvas; a bottom margin collapsing through its parent',
  },
  {
    page: 'sb-admin-2/index.html',
    area: 3,
    quirks: true,
    why: 'served without its doctype: quirks mode, kept in the clone',
  },
  {
    page: 'sb-admin/tables.html',
    area: 1,
    why: "the first child's top margin collapsing through the root; table cells with a border style and no width",
  },
];

let root: string;
let browser: Browser;
let scratch: Page;
let server: CorpusServer;
let failed = false;
const pages = corpusPages(CASES.map((c) => c.page));

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'xdeep-real-'));
  server = await startCorpusServer(pages);
  browser = await launchChromium({
    userDataDir: path.join(root, 'profile'),
    env: { ...process.env, HOME: root },
    installHost: false,
    windowSize: REAL_WEB_WINDOW,
    extraArgs: REAL_WEB_ARGS,
  });
  scratch = await browser.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  // A failed area keeps reference, crop, clone render and diff under root (the message says where).
  if (root !== undefined && !failed) fs.rmSync(root, { recursive: true, force: true });
});

describe('a real page, cloned, against the browser’s own screenshot', () => {
  for (const c of CASES) {
    it(`${c.page}${c.quirks === true ? ' without doctype' : ''} #${c.area} (${c.why}) reaches 0.90`, async () => {
      const page = pages.find((p) => p.name.endsWith(c.page));
      if (page === undefined) throw new Error(`${c.page} is not in bench/corpus/packages.json`);
      const url = server.pageUrl(page, { quirks: c.quirks === true });
      const tab = await openCorpusPage(browser, url);
      const areas = await tab.evaluate(selectAreas, 3, 800);
      await tab.close();
      const area = areas[c.area - 1];
      if (area === undefined)
        throw new Error(`${c.page} has ${areas.length} areas by the rule, not ${c.area}`);
      const dir = path.join(root, `${c.page.replace(/\W+/g, '-')}-${c.area}`);
      const r = await measureRealArea({ browser, scratch, url, selector: area.selector, dir });
      if (c.quirks === true) {
        // The clone lays out in the page's mode: no doctype, as the page had none.
        expect(r.compatMode).toBe('BackCompat');
        expect(r.cloneHead).toBe('<html>');
      }
      if (r.share < 0.9) failed = true;
      expect(r.share, `reference, crop, clone and diff kept in ${r.dir}`).toBeGreaterThanOrEqual(0.9);
    });
  }
});
