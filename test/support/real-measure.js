// One area of a real-web corpus page measured end to end (test/support/real-corpus.js): the
// browser's own screenshot of the rectangle is taken first (DevTools Page.captureScreenshot, the
// independent reference), then the engine captures the area through the extension and the
// pipeline's own screenshot is taken (today's crop), the clone is written, rendered offline with
// every request refused, and compared with both. Files of an area under 0.90 stay on disk.
import fs from 'node:fs';
import path from 'node:path';
import {
  captureArea,
  comparePngs,
  FIDELITY_TOLERANCE,
  rectOf,
  rectShot,
  renderOffline,
  writeClone,
} from './deep-capture.js';
import { pinnedTop } from './real-corpus.js';
import { pageSettled } from './real-pages.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Opens a corpus page and lets it settle: images decoded, fonts loaded, entry animations over. */
export async function openCorpusPage(browser, url) {
  const tab = await browser.newPage();
  await tab.goto(url, { waitUntil: 'load', timeout: 30_000 });
  await tab.evaluate(pageSettled);
  await sleep(700);
  return tab;
}

/**
 * Scrolls the area to sit below any bar pinned across the top, as the extension does, and cuts
 * its height to what the viewport shows from there.
 */
async function placeArea(tab, selector) {
  const full = await rectOf(tab, selector);
  await tab.evaluate((y) => window.scrollTo(0, y), full.y);
  await sleep(80);
  const pinned = await tab.evaluate(pinnedTop);
  await tab.evaluate((y) => window.scrollTo(0, y), Math.max(0, full.y - pinned));
  // Navbars that change on scroll animate for up to ~0.3 s.
  await sleep(450);
  await tab.evaluate(pageSettled);
  const { scrollY, innerHeight } = await tab.evaluate(() => ({ scrollY, innerHeight }));
  const rect = await rectOf(tab, selector);
  const bottom = scrollY + innerHeight;
  return { rect: { ...rect, height: Math.max(1, Math.min(rect.height, bottom - rect.y)) }, scrollY };
}

/**
 * Measures one area: `{share, shareVsCrop, rect, elements, dir|null}`; `dir` (kept only when the
 * clone scores under `keepBelow` against either reference) holds reference.png, crop.png,
 * clone.png, diff.png (clone vs reference) and the clone's files.
 */
export async function measureRealArea({ browser, scratch, url, selector, dir, keepBelow = 0.9 }) {
  const tab = await openCorpusPage(browser, url);
  try {
    const { rect, scrollY } = await placeArea(tab, selector);
    const reference = await rectShot(tab, rect);
    const { capture, screenshot: crop } = await captureArea(browser, tab, rect, { scrollY });
    const written = await writeClone({ capture, screenshot: crop, dir, scratch });
    const rendered = await renderOffline(browser, written.htmlPath, rect);
    const vsReference = await comparePngs(scratch, reference, rendered.screenshot, FIDELITY_TOLERANCE);
    const vsCrop = await comparePngs(scratch, crop, rendered.screenshot, FIDELITY_TOLERANCE, { diff: false });
    const refVsCrop = await comparePngs(scratch, reference, crop, FIDELITY_TOLERANCE, { diff: false });
    const cloneHead = fs.readFileSync(written.htmlPath, 'utf8').split('\n')[0];
    const kept = Math.min(vsReference.share, vsCrop.share) < keepBelow;
    if (kept) {
      fs.writeFileSync(path.join(dir, 'reference.png'), reference);
      fs.writeFileSync(path.join(dir, 'crop.png'), crop);
      fs.writeFileSync(path.join(dir, 'clone.png'), rendered.screenshot);
      fs.writeFileSync(path.join(dir, 'diff.png'), vsReference.diff);
    } else {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return {
      share: vsReference.share,
      shareVsCrop: vsCrop.share,
      referenceVsCrop: refVsCrop.share,
      rect,
      elements: capture.nodes.length,
      compatMode: capture.document_mode?.compat_mode ?? null,
      cloneHead,
      dir: kept ? dir : null,
    };
  } finally {
    await tab.close();
  }
}
