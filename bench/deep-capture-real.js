// `area_clone_fidelity_real` for `npm run bench`: deep capture on pages nobody here wrote (the
// corpus of bench/corpus/packages.json), at 1280×800, DPR 1 and DPR 2. Areas are chosen by rule
// (selectAreas); each clone is compared with the browser's own screenshot of the rectangle taken
// before the capture (the figure that counts) and with the pipeline's own screenshot (today's
// crop). Held-out pages (a third, by a hash of the package name) are reported apart. Areas under
// 0.90 keep reference, crop, clone render and diff on disk; the path is printed.
// XIPE_REAL_PAGES=a,b limits the run to pages whose name contains one of the strings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../test/support/chromium.js';
import { median } from '../test/support/deep-capture.js';
import {
  corpusPages,
  REAL_WEB_ARGS,
  REAL_WEB_WINDOW,
  selectAreas,
  startCorpusServer,
} from '../test/support/real-corpus.js';
import { measureRealArea, openCorpusPage } from '../test/support/real-measure.js';

const round = (v) => Math.round(v * 10000) / 10000;
const AREAS_PER_PAGE = 3;

const summary = (list, key = 'share') => {
  const values = list.map((r) => r[key]);
  if (values.length === 0) return { areas: 0, p50: null, min: null, under_0_90: 0 };
  return {
    areas: values.length,
    p50: round(median(values)),
    min: round(Math.min(...values)),
    under_0_90: values.filter((v) => v < 0.9).length,
  };
};

async function launch(root, dpr) {
  const profile = path.join(root, `profile-${dpr}`);
  const browser = await launchChromium({
    userDataDir: profile,
    env: { ...process.env, HOME: root },
    installHost: false,
    windowSize: REAL_WEB_WINDOW,
    deviceScaleFactor: dpr,
    extraArgs: REAL_WEB_ARGS,
  });
  const scratch = await browser.newPage();
  const viewport = await scratch.evaluate(() => [innerWidth, innerHeight, devicePixelRatio]);
  if (viewport.join() !== `1280,800,${dpr}`) {
    throw new Error(`expected a 1280×800 viewport at DPR ${dpr}, got ${viewport.join('×')}`);
  }
  return { browser, scratch };
}

/** Every corpus area measured at `dprs`; returns one result per area and DPR. */
export async function measureCorpus({ pages, dprs = [1, 2], root, log }) {
  const server = await startCorpusServer(pages);
  const results = [];
  try {
    const areasOf = new Map();
    for (const dpr of dprs) {
      const { browser, scratch } = await launch(root, dpr);
      try {
        for (const page of pages) {
          const url = server.pageUrl(page);
          if (!areasOf.has(page.name)) {
            const tab = await openCorpusPage(browser, url);
            areasOf.set(page.name, await tab.evaluate(selectAreas, AREAS_PER_PAGE, 800));
            await tab.close();
          }
          for (const [i, area] of areasOf.get(page.name).entries()) {
            const name = `${page.name}#${i + 1}-${area.kind}`;
            const dir = path.join(root, `dpr${dpr}`, name.replace(/[^a-z0-9.#-]+/gi, '_'));
            fs.mkdirSync(dir, { recursive: true });
            try {
              const r = await measureRealArea({ browser, scratch, url, selector: area.selector, dir });
              results.push({
                name,
                page: page.name,
                heldOut: page.heldOut,
                dpr,
                selector: area.selector,
                ...r,
              });
              const flag = r.dir === null ? '' : `  kept: ${r.dir}`;
              log(
                `  dpr${dpr} ${page.heldOut ? '[held out] ' : ''}${name}: ${round(r.share)} (vs crop ${round(r.shareVsCrop)})${flag}`,
              );
            } catch (err) {
              results.push({
                name,
                page: page.name,
                heldOut: page.heldOut,
                dpr,
                selector: area.selector,
                share: 0,
                shareVsCrop: 0,
                referenceVsCrop: 0,
                error: String(err.message ?? err),
                dir,
              });
              log(`  dpr${dpr} ${name}: error ${String(err.message ?? err).slice(0, 200)}`);
            }
          }
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.close();
  }
  return results;
}

export async function benchAreaCloneFidelityReal({ entries, entry, log }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-bench-real-'));
  const only = process.env.XIPE_REAL_PAGES?.split(',') ?? null;
  const pages = corpusPages(only);
  log(`  ${pages.length} pages, ${pages.filter((p) => p.heldOut).length} held out; files under ${root}`);
  const results = await measureCorpus({ pages, root, log });
  const part = (dpr, heldOut) => results.filter((r) => r.dpr === dpr && r.heldOut === heldOut);
  const tuned1 = summary(part(1, false));
  const ok = (s) => s.areas === 0 || (s.p50 >= 0.98 && s.min >= 0.9);
  const report = {
    dpr1: tuned1,
    dpr2: summary(part(2, false)),
    held_out: { dpr1: summary(part(1, true)), dpr2: summary(part(2, true)) },
    vs_crop: {
      dpr1: summary(
        results.filter((r) => r.dpr === 1),
        'shareVsCrop',
      ),
      dpr2: summary(
        results.filter((r) => r.dpr === 2),
        'shareVsCrop',
      ),
    },
    // Where the two references disagree, the page changed between them (animations, video,
    // carousels) or the crop differs from what the browser shows: listed, not dropped.
    references_disagree: results
      .filter((r) => r.referenceVsCrop < 0.98)
      .map((r) => ({ area: r.name, dpr: r.dpr, reference_vs_crop: round(r.referenceVsCrop) })),
    kept: results
      .filter((r) => r.dir !== null && r.share < 0.9)
      .map((r) => ({ area: r.name, dpr: r.dpr, share: round(r.share), dir: r.dir, error: r.error })),
    per_area: results.map((r) => ({
      area: r.name,
      dpr: r.dpr,
      held_out: r.heldOut,
      share: round(r.share),
      vs_crop: round(r.shareVsCrop),
    })),
  };
  const all = [report.dpr1, report.dpr2, report.held_out.dpr1, report.held_out.dpr2];
  entries.push({
    ...entry(
      'area_clone_fidelity_real',
      'share of pixels',
      part(1, false).map((r) => r.share),
    ),
    pages: pages.length,
    ...report,
    tolerance: '8/255 per channel',
    target: 'median ≥ 0.98, every area ≥ 0.90; DPR 1 and 2; held-out apart, same targets',
    status: all.every(ok) ? 'ok' : 'MISSED',
  });
  if (report.kept.length === 0) fs.rmSync(root, { recursive: true, force: true });
  else log(`  ${report.kept.length} areas under 0.90 kept under ${root}`);
}
