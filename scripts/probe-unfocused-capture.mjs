// Does tabs.captureVisibleTab capture the active tab of an unfocused window the extension opened,
// and does opening one disturb the designer's window? (docs/verify.md records the answers.)
//   node scripts/probe-unfocused-capture.mjs            headless
//   xvfb-run -a node scripts/probe-unfocused-capture.mjs headed
// Needs a build (dist/extension). Prints one JSON object.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { chromePath, chromiumArgs, EXTENSION_ID, prepareProfile } from '../test/support/chromium.js';

const headless = process.argv[2] !== 'headed';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vprobe-'));
prepareProfile(path.join(root, 'p'));
const server = http.createServer((req, res) => {
  const color = req.url.includes('red') ? 'rgb(255,0,0)' : 'rgb(0,0,255)';
  res.setHeader('content-type', 'text/html');
  res.end(
    `<!doctype html><body style="margin:0;background:${color}"><div style="height:3000px"></div></body>`,
  );
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await puppeteer.launch({
  executablePath: chromePath(),
  headless,
  userDataDir: path.join(root, 'p'),
  args: chromiumArgs(),
  ignoreDefaultArgs: ['--disable-extensions'],
  defaultViewport: null,
  env: { ...process.env, HOME: root },
});
try {
  const designer = (await browser.pages())[0] ?? (await browser.newPage());
  await designer.goto(`${origin}/blue`);
  await designer.evaluate(() => window.scrollTo(0, 500));
  const designerBefore = await designer.evaluate(() => ({ focus: document.hasFocus() }));
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().includes(EXTENSION_ID),
  );
  const worker = await target.worker();
  for (let i = 0; i < 50; i++) {
    if (await worker.evaluate(() => typeof chrome !== 'undefined' && !!chrome.windows)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const out = await worker.evaluate(async (url) => {
    const before = await chrome.windows.getLastFocused();
    const beforeTabs = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    const win = await chrome.windows.create({ url, focused: false, width: 800, height: 600, type: 'normal' });
    const tabId = win.tabs[0].id;
    await new Promise((resolve) => {
      const l = (id, info) => {
        if (id === tabId && info.status === 'complete') {
          chrome.tabs.onUpdated.removeListener(l);
          resolve();
        }
      };
      chrome.tabs.onUpdated.addListener(l);
    });
    const inner0 = (
      await chrome.scripting.executeScript({ target: { tabId }, func: () => [innerWidth, innerHeight] })
    )[0].result;
    await chrome.windows.update(win.id, { width: 900, height: 700 });
    await new Promise((r) => setTimeout(r, 300));
    const created = await chrome.windows.get(win.id);
    const res = {
      inner0,
      before: { id: before.id, focused: before.focused },
      beforeTab: beforeTabs[0]?.url,
      created: {
        id: win.id,
        focused: created.focused,
        state: created.state,
        w: created.width,
        h: created.height,
      },
    };
    try {
      const dataUrl = await chrome.tabs.captureVisibleTab(win.id, { format: 'png' });
      const blob = await (await fetch(dataUrl)).blob();
      const bmp = await createImageBitmap(blob);
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const ctx = c.getContext('2d');
      ctx.drawImage(bmp, 0, 0);
      const px = ctx.getImageData(Math.floor(bmp.width / 2), Math.floor(bmp.height / 2), 1, 1).data;
      res.capture = { w: bmp.width, h: bmp.height, center: [...px] };
    } catch (e) {
      res.captureError = String(e);
    }
    const [inner] = await chrome.scripting.executeScript({
      target: { tabId },
      func: () => ({
        w: innerWidth,
        h: innerHeight,
        dpr: devicePixelRatio,
        vis: document.visibilityState,
        focus: document.hasFocus(),
      }),
    });
    res.inner = inner.result;
    const after = await chrome.windows.getLastFocused();
    res.after = { id: after.id, focused: after.focused };
    await chrome.windows.remove(win.id);
    return res;
  }, `${origin}/red`);
  out.designerBefore = designerBefore;
  out.designer = await designer.evaluate(() => ({
    url: location.href,
    y: scrollY,
    focus: document.hasFocus(),
    vis: document.visibilityState,
  }));
  console.log(JSON.stringify({ headless, ...out }, null, 1));
} finally {
  await browser.close();
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
}
