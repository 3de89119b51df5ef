#!/usr/bin/env node
// Draws docs/deep-capture.png, the before/after picture of README and docs/deep-capture.md: an
// area of the held-out fixture page (test/fixtures/deep-capture/plans.html) as the browser shows
// it, beside its clone opened from disk with every network request refused, with the share of
// pixels that match. The same pipeline as the e2e test and the bench (test/support/deep-capture.js),
// so the picture is reproducible: `npm run build && node scripts/render-clone-picture.mjs [area]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, REPO_ROOT } from '../test/support/chromium.js';
import { measureArea } from '../test/support/deep-capture.js';
import { AREAS, startFixtureServer } from '../test/support/deep-fixtures.js';
import { writeSideBySide } from './side-by-side.mjs';

const name = process.argv[2] ?? 'plans-grid';
const area = AREAS.find((a) => a.name === name);
if (area === undefined) {
  console.error(`no fixture area ${name}; one of: ${AREAS.map((a) => a.name).join(', ')}`);
  process.exit(2);
}
const out = path.join(REPO_ROOT, 'docs', 'deep-capture.png');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-picture-'));
fs.mkdirSync(path.join(root, 'home'));
const server = await startFixtureServer();
const browser = await launchChromium({
  userDataDir: path.join(root, 'profile'),
  env: { ...process.env, HOME: path.join(root, 'home') },
  installHost: false,
  windowSize: '1280,1000',
});
try {
  const scratch = await browser.newPage();
  const result = await measureArea({ browser, scratch, server, area, dir: path.join(root, name) });
  const share = (result.share * 100).toFixed(2);
  await writeSideBySide(browser, {
    rect: result.rect,
    left: {
      caption: "The page (the browser's screenshot)",
      png: fs.readFileSync(path.join(root, name, 'crop.png')),
    },
    right: {
      caption: `The clone, from disk, network off: ${share}% of pixels match`,
      png: fs.readFileSync(path.join(root, name, 'clone.png')),
    },
    out,
  });
  console.error(`${path.relative(REPO_ROOT, out)}: ${name}, ${share}% of pixels within 8/255`);
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
}
