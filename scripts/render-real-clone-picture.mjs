#!/usr/bin/env node
// Draws docs/deep-capture-real.png: an area of a real template from the real-web corpus
// (bench/corpus/packages.json; by default a held-out page, never tuned on) as the browser shows
// it, beside its clone opened from disk with every network request refused, with the share of
// pixels that match the browser's own screenshot. The same pipeline as the bench and the e2e test
// (test/support/real-measure.js): `npm run build && node scripts/render-real-clone-picture.mjs [page] [area]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, REPO_ROOT } from '../test/support/chromium.js';
import {
  corpusPages,
  REAL_WEB_ARGS,
  REAL_WEB_WINDOW,
  selectAreas,
  startCorpusServer,
} from '../test/support/real-corpus.js';
import { measureRealArea, openCorpusPage } from '../test/support/real-measure.js';
import { writeSideBySide } from './side-by-side.mjs';

const name = process.argv[2] ?? 'sb-landing-page/index.html';
const areaNumber = Number(process.argv[3] ?? 1);
const page = corpusPages([name])[0];
if (page === undefined) {
  console.error(
    `no corpus page ${name}; one of: ${corpusPages()
      .map((p) => p.name)
      .join(', ')}`,
  );
  process.exit(2);
}
const out = path.join(REPO_ROOT, 'docs', 'deep-capture-real.png');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-picture-'));
const server = await startCorpusServer([page]);
const browser = await launchChromium({
  userDataDir: path.join(root, 'profile'),
  env: { ...process.env, HOME: root },
  installHost: false,
  windowSize: REAL_WEB_WINDOW,
  extraArgs: REAL_WEB_ARGS,
});
try {
  const scratch = await browser.newPage();
  const url = server.pageUrl(page);
  const tab = await openCorpusPage(browser, url);
  const area = (await tab.evaluate(selectAreas, 3, 800))[areaNumber - 1];
  await tab.close();
  if (area === undefined) throw new Error(`${name} has no area ${areaNumber} by the rule`);
  const dir = path.join(root, 'area');
  fs.mkdirSync(dir);
  const result = await measureRealArea({ browser, scratch, url, selector: area.selector, dir, keepBelow: 2 });
  const share = (result.share * 100).toFixed(2);
  await writeSideBySide(browser, {
    rect: result.rect,
    left: {
      caption: `${page.spec} (the browser's screenshot)`,
      png: fs.readFileSync(path.join(dir, 'reference.png')),
    },
    right: {
      caption: `The clone, from disk, network off: ${share}% of pixels match`,
      png: fs.readFileSync(path.join(dir, 'clone.png')),
    },
    out,
  });
  console.error(
    `${path.relative(REPO_ROOT, out)}: ${name} area ${areaNumber} (${area.kind}), ${share}% of pixels within 8/255`,
  );
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
}
