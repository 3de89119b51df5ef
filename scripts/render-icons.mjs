#!/usr/bin/env node
// Renders the extension's icons (extension/icons/icon-{16,32,48,128}.png) from their SVG sources
// with the system Chromium: icon.svg for 48 and 128 px, icon-small.svg (drawn on a 16 px grid, no
// fine detail) for 16 and 32 px. The PNGs are committed; run this after editing an SVG:
//   node scripts/render-icons.mjs      (CHROME_PATH overrides /usr/bin/chromium)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'extension', 'icons');
const SIZES = [
  [16, 'icon-small.svg'],
  [32, 'icon-small.svg'],
  [48, 'icon.svg'],
  [128, 'icon.svg'],
];

const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  for (const [size, source] of SIZES) {
    const svg = fs
      .readFileSync(path.join(dir, source), 'utf8')
      .replace(/width="\d+" height="\d+"/, `width="${size}" height="${size}"`);
    await page.setViewport({ width: size, height: size, deviceScaleFactor: 1 });
    await page.setContent(
      `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${svg}`,
    );
    const png = await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    fs.writeFileSync(path.join(dir, `icon-${size}.png`), png);
    process.stdout.write(`icon-${size}.png (${png.length} bytes, from ${source})\n`);
  }
} finally {
  await browser.close();
}
