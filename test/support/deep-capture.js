// The deep-capture pipeline as the e2e tests and the bench drive it, until the extension and the
// host do it themselves (docs/design.md §7, `capture_area`): the engine runs in the page through the real
// extension (its bundle injected into the isolated world by the service worker), this module
// stands in for the resource fetcher and the host's writer, builds the clone with the shared
// generator, renders it offline in Chromium with every network request refused, and compares it
// with the browser's own screenshot of the area. Plain ESM so the vitest suites and bench/ share
// it; it loads the built generator from dist/node (run `npm run build` first).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXTENSION_ID, REPO_ROOT } from './chromium.js';
import { pageSettled } from './real-pages.js';

const distShared = (p) => pathToFileURL(path.join(REPO_ROOT, 'dist/node/shared/src/deep-capture', p)).href;
const { AreaCapture } = await import(distShared('area-capture.js'));
const { buildClone } = await import(
  pathToFileURL(path.join(REPO_ROOT, 'dist/node/native-host/src/deep-capture/clone/index.js')).href
);
const { sniffResource, contentHashName } = await import(distShared('resource-names.js'));
const { mergeReferencedElements } = await import(distShared('referenced-elements.js'));
const { toReferencedArea } = await import(distShared('referenced-area.js'));
const { loadSvgSanitizer } = await import(
  pathToFileURL(path.join(REPO_ROOT, 'dist/node/shared/src/node/svg-sanitizer.js')).href
);

/** Where the built engine bundle sits in the extension (crxjs mirrors the source path). */
export const ENGINE_FILE = 'extension/src/content/deep-capture/index.js';

async function serviceWorker(browser) {
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${EXTENSION_ID}/`),
    { timeout: 15_000 },
  );
  const worker = await target.worker();
  if (worker === null) throw new Error('the extension service worker has no worker');
  for (let i = 0; i < 200; i++) {
    if (await worker.evaluate(() => typeof chrome !== 'undefined' && typeof chrome.scripting === 'object')) {
      return worker;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('chrome.scripting never appeared in the service worker');
}

/**
 * The page's element rect for `selector`, page coordinates, rounded out to whole pixels; cut to
 * `maxHeight` (an area a designer draws over the top of a long element).
 */
export async function rectOf(page, selector, { maxHeight = Infinity } = {}) {
  const r = await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (el === null) return null;
    const b = el.getBoundingClientRect();
    return { x: b.left + scrollX, y: b.top + scrollY, width: b.width, height: b.height };
  }, selector);
  if (r === null) throw new Error(`no element matches ${selector}`);
  const x = Math.floor(r.x);
  const y = Math.floor(r.y);
  return {
    x,
    y,
    width: Math.ceil(r.x + r.width) - x,
    height: Math.min(maxHeight, Math.ceil(r.y + r.height) - y),
  };
}

/**
 * Scrolls so the area is in view (top-aligned unless `scrollY` is given), captures it with the
 * engine through the extension, and takes the browser's own screenshot of it in the same state.
 */
export async function captureArea(browser, page, rect, { reduce = true, scrollY = null } = {}) {
  await page.bringToFront();
  const targetY = scrollY ?? Math.max(0, rect.y - 0);
  await page.evaluate((y) => window.scrollTo(0, y), targetY);
  await page.evaluate(pageSettled);
  const worker = await serviceWorker(browser);
  const url = page.url();
  const raw = await worker.evaluate(
    async (pageUrl, file, area, reduceStyles) => {
      const tabs = await chrome.tabs.query({});
      const tab = tabs.find((t) => t.url === pageUrl);
      if (tab?.id === undefined) throw new Error(`no tab for ${pageUrl}`);
      await chrome.scripting.executeScript({ target: { tabId: tab.id }, files: [file] });
      const [injection] = await chrome.scripting.executeScript({
        target: { tabId: tab.id },
        func: (r, reduce) => globalThis.__xipeDeepCapture.capture(r, { reduce }),
        args: [area, reduceStyles],
      });
      return injection?.result ?? null;
    },
    url,
    ENGINE_FILE,
    rect,
    reduce,
  );
  if (raw === null) throw new Error('the deep-capture engine returned nothing');
  const capture = AreaCapture.parse(raw);
  return { capture, screenshot: await rectShot(page, rect) };
}

/** The browser's own PNG of a rect of the viewport (DevTools Page.captureScreenshot, scale 1). */
export async function rectShot(page, rect) {
  const cdp = await page.createCDPSession();
  try {
    const shot = await cdp.send('Page.captureScreenshot', {
      format: 'png',
      clip: { x: rect.x, y: rect.y, width: rect.width, height: rect.height, scale: 1 },
      captureBeyondViewport: false,
    });
    return Buffer.from(shot.data, 'base64');
  } finally {
    await cdp.detach();
  }
}

function decodeDataUrl(url) {
  const comma = url.indexOf(',');
  const meta = url.slice(5, comma);
  const body = url.slice(comma + 1);
  return meta.endsWith(';base64')
    ? Buffer.from(body, 'base64')
    : Buffer.from(decodeURIComponent(body), 'utf8');
}

/**
 * The whole pixels around a box of a PNG (the clone shifts the image by the box's sub-pixel
 * offset), cut in a page's canvas: the browser decodes and encodes.
 */
async function cropPng(scratch, png, rect) {
  const data = await scratch.evaluate(
    async (b64, r) => {
      const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const x = Math.floor(r.x);
      const y = Math.floor(r.y);
      const c = new OffscreenCanvas(
        Math.max(1, Math.ceil(r.x + r.width) - x),
        Math.max(1, Math.ceil(r.y + r.height) - y),
      );
      c.getContext('2d').drawImage(img, -x, -y);
      const blob = await c.convertToBlob({ type: 'image/png' });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    },
    png.toString('base64'),
    rect,
  );
  return Buffer.from(data, 'base64');
}

/**
 * Writes what the host will write (phase 2) for one area, in docs/design.md §7's layout under `dir` (an
 * idea's `uiux-references/`): resources with content-hash names (type judged by the bytes) and
 * pixel images under `page-element-references/resources/` next to the clone, the area's
 * screenshot, and `referenced-elements.json`.
 */
export async function writeClone({ capture, screenshot, dir, areaId = 'area-1', scratch, reduced = true }) {
  const refsDir = path.join(dir, 'page-element-references');
  const resDir = path.join(refsDir, 'resources');
  fs.mkdirSync(resDir, { recursive: true });
  fs.mkdirSync(path.join(dir, 'screenshots'), { recursive: true });
  const store = async (bytes) => {
    const sniffed = sniffResource(bytes);
    if (sniffed === null) return null;
    const name = await contentHashName(bytes, sniffed);
    fs.writeFileSync(path.join(resDir, name), bytes);
    return { name, type: sniffed.kind };
  };
  const byUrl = new Map();
  const resources = [];
  for (const ref of capture.resources) {
    let bytes;
    try {
      if (ref.url.startsWith('data:')) bytes = decodeDataUrl(ref.url);
      else {
        const res = await fetch(ref.url, { signal: AbortSignal.timeout(5_000) });
        if (!res.ok) continue;
        bytes = Buffer.from(await res.arrayBuffer());
      }
    } catch {
      continue;
    }
    const stored = await store(bytes);
    if (stored === null) continue;
    const local = { type: stored.type, src: ref.url, local_path: `resources/${stored.name}` };
    byUrl.set(ref.url, local);
    resources.push({ ...local, bytes: bytes.length });
  }
  const pixels = new Map();
  for (const [index, node] of capture.nodes.entries()) {
    if (node.kind !== 'pixels' || node.pixels === null) continue;
    const bytes =
      node.pixels.data_url !== null
        ? decodeDataUrl(node.pixels.data_url)
        : await cropPng(scratch, screenshot, node.rect);
    const stored = await store(bytes);
    if (stored !== null) pixels.set(index, stored.name);
  }
  const clone = buildClone(capture, {
    areaId,
    resourcePath: (url) => byUrl.get(url)?.local_path.slice('resources/'.length) ?? null,
    pixelPath: (i) => pixels.get(i) ?? null,
    svg: await loadSvgSanitizer(),
    reduced,
  });
  const htmlPath = path.join(resDir, clone.htmlFile);
  const cssPath = path.join(resDir, clone.cssFile);
  fs.writeFileSync(htmlPath, clone.html);
  fs.writeFileSync(cssPath, clone.css);
  const screenshotFile = `screenshots/${areaId}.png`;
  fs.writeFileSync(path.join(dir, screenshotFile), screenshot);
  const area = toReferencedArea(capture, {
    areaId,
    instruction: '',
    screenshot: screenshotFile,
    names: clone.names,
    resources: byUrl,
    pixelResource: (i) =>
      pixels.has(i)
        ? { type: 'image', src: `pixels of ${clone.names[i]}`, local_path: `resources/${pixels.get(i)}` }
        : null,
    clone: { structure_html: `resources/${clone.htmlFile}`, styles_css: `resources/${clone.cssFile}` },
  });
  const file = mergeReferencedElements(null, {
    source_url: capture.url,
    timestamp: new Date().toISOString(),
    areas: [area],
    static_resources: resources.map(({ type, src, local_path }) => ({
      type,
      src,
      local_path,
      usage: areaId,
    })),
  });
  const referencedPath = path.join(refsDir, 'referenced-elements.json');
  fs.writeFileSync(referencedPath, `${JSON.stringify(file, null, 2)}\n`);
  return { htmlPath, cssPath, referencedPath, clone, resources };
}

/**
 * Opens the clone from disk with every non-file request refused; returns its screenshot, taken
 * with the mouse at `hover` (area coordinates) when given.
 */
export async function renderOffline(browser, htmlPath, rect, { hover = null } = {}) {
  const page = await browser.newPage();
  const refused = [];
  try {
    // The whole area must be inside the viewport: Chromium paints nothing beyond it.
    await page.setViewport({
      width: Math.max(800, Math.ceil(rect.width)),
      height: Math.max(600, Math.ceil(rect.height)),
    });
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      if (req.url().startsWith('file:')) void req.continue();
      else {
        refused.push(req.url());
        void req.abort();
      }
    });
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    // Every image decoded and painted: under load a photo can miss the first frame after `load`.
    await page.evaluate(pageSettled);
    if (hover !== null) {
      await page.mouse.move(hover.x, hover.y);
      await new Promise((r) => setTimeout(r, 100));
    }
    const screenshot = await rectShot(page, { x: 0, y: 0, width: rect.width, height: rect.height });
    return { screenshot, refused };
  } finally {
    await page.close();
  }
}

/**
 * Share of pixels whose every channel is within `tolerance` of the other image's, decoded by the
 * browser; also a diff image (mismatches in red over a faded copy) for failure reports.
 */
export async function comparePngs(scratch, a, b, tolerance = 8, { diff: withDiff = true } = {}) {
  const result = await scratch.evaluate(
    async (aB64, bB64, tol, wantDiff) => {
      const load = async (b64) =>
        createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const [ia, ib] = await Promise.all([load(aB64), load(bB64)]);
      const w = Math.max(ia.width, ib.width);
      const h = Math.max(ia.height, ib.height);
      const read = (img) => {
        const c = new OffscreenCanvas(w, h);
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, w, h);
      };
      const da = read(ia);
      const db = read(ib).data;
      const diff = new ImageData(w, h);
      let same = 0;
      for (let i = 0; i < da.data.length; i += 4) {
        const ok =
          Math.abs(da.data[i] - db[i]) <= tol &&
          Math.abs(da.data[i + 1] - db[i + 1]) <= tol &&
          Math.abs(da.data[i + 2] - db[i + 2]) <= tol &&
          Math.abs(da.data[i + 3] - db[i + 3]) <= tol;
        if (ok) same++;
        const grey = (da.data[i] + da.data[i + 1] + da.data[i + 2]) / 3;
        diff.data[i] = ok ? 200 + grey / 5 : 255;
        diff.data[i + 1] = ok ? 200 + grey / 5 : 0;
        diff.data[i + 2] = ok ? 200 + grey / 5 : 0;
        diff.data[i + 3] = 255;
      }
      if (!wantDiff)
        return { share: same / (w * h), sizes: [ia.width, ia.height, ib.width, ib.height], diff: '' };
      const c = new OffscreenCanvas(w, h);
      c.getContext('2d').putImageData(diff, 0, 0);
      const bytes = new Uint8Array(await (await c.convertToBlob({ type: 'image/png' })).arrayBuffer());
      let s = '';
      for (const byte of bytes) s += String.fromCharCode(byte);
      return { share: same / (w * h), sizes: [ia.width, ia.height, ib.width, ib.height], diff: btoa(s) };
    },
    a.toString('base64'),
    b.toString('base64'),
    tolerance,
    withDiff,
  );
  return { share: result.share, sizes: result.sizes, diff: Buffer.from(result.diff, 'base64') };
}

/** Per-channel tolerance of the fidelity measurement (of 255): anti-aliasing, not layout. */
export const FIDELITY_TOLERANCE = 8;

/**
 * One area of the fixture site end to end: open its page, capture it, write the clone under
 * `dir`, render the clone offline and compare it with the area's screenshot. Writes the crop, the
 * clone's render and a diff image next to the clone for failure reports.
 */
export async function measureArea({ browser, scratch, server, area, dir, reduce = true }) {
  const page = await browser.newPage();
  try {
    await page.goto(server.pageUrl(area.page), { waitUntil: 'load' });
    await page.evaluate(pageSettled);
    const rect = await rectOf(page, area.selector, area);
    // Under a sticky header of `below` px the area is scrolled to sit below it, as a designer sees it.
    const scrollY = area.below === undefined ? null : Math.max(0, rect.y - area.below);
    const { capture, screenshot } = await captureArea(browser, page, rect, { reduce, scrollY });
    const written = await writeClone({ capture, screenshot, dir, scratch, reduced: reduce });
    const rendered = await renderOffline(browser, written.htmlPath, rect);
    const { share, diff } = await comparePngs(scratch, screenshot, rendered.screenshot, FIDELITY_TOLERANCE);
    fs.writeFileSync(path.join(dir, 'crop.png'), screenshot);
    fs.writeFileSync(path.join(dir, 'clone.png'), rendered.screenshot);
    fs.writeFileSync(path.join(dir, 'diff.png'), diff);
    return { rect, capture, written, refused: rendered.refused, share };
  } finally {
    await page.close();
  }
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
