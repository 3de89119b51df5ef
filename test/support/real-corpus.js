// The real-web corpus (bench/corpus/packages.json): pages from published npm packages, served on
// loopback from .cache/real-corpus/ with their own assets. CDN URLs the pages load are rewritten to
// the npm copy of the same files; every other remote request is left to fail (the browser is
// launched with every host but loopback unresolvable, see REAL_WEB_ARGS).
//
// Which pages are held out is decided by a hash of the package name, before anything is tuned,
// and which areas are measured by a rule (selectAreas), not by hand.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORPUS, ensureCorpus, packageDir } from '../../bench/corpus/install.js';
import { REPO_ROOT } from './chromium.js';

/** Chromium flags: nothing but loopback resolves, so a page's remote requests fail at once. */
export const REAL_WEB_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

/** The window size that gives a 1280×800 viewport in headless Chromium. */
export const REAL_WEB_WINDOW = '1280,887';

const packageName = (spec) => spec.slice(0, spec.lastIndexOf('@'));

const hashOf = (spec) => createHash('sha256').update(packageName(spec)).digest('hex');

/**
 * Held out, never tuned on: packages taken in the order of the SHA-256 of their names until they
 * hold a third of the pages (packages, not pages, so no held-out page shares a template's CSS
 * with a tuned one).
 */
const HELD_OUT = (() => {
  const specs = Object.keys(CORPUS.pages).sort((a, b) => (hashOf(a) < hashOf(b) ? -1 : 1));
  const total = Object.values(CORPUS.pages).flat().length;
  const held = new Set();
  let pages = 0;
  for (const spec of specs) {
    if (pages >= total / 3) break;
    held.add(spec);
    pages += CORPUS.pages[spec].length;
  }
  return held;
})();

export const isHeldOut = (spec) => HELD_OUT.has(spec);

/** Every page: `{spec, file, name, heldOut}`; `only` keeps the pages whose name contains one of its strings. */
export function corpusPages(only = null) {
  const pages = [];
  for (const [spec, files] of Object.entries(CORPUS.pages)) {
    for (const file of files) {
      const name = `${packageName(spec).replace(/^startbootstrap-/, 'sb-')}/${file.replace(/^dist\//, '')}`;
      pages.push({ spec, file, name, heldOut: isHeldOut(spec) });
    }
  }
  return only === null ? pages : pages.filter((p) => only.some((o) => p.name.includes(o)));
}

// The page servers' table (built, in dist/node: run `npm run build` first), plus what only the
// templates serve: the videos some play, and the IE font files their @font-face rules list.
const { PAGE_CONTENT_TYPES } = await import(
  pathToFileURL(path.join(REPO_ROOT, 'dist/node/shared/src/page-content-types.js')).href
);
const TYPES = {
  ...PAGE_CONTENT_TYPES,
  '.mp4': 'video/mp4',
  '.eot': 'application/vnd.ms-fontobject',
};
const TEXT = new Set(['.html', '.css', '.js', '.mjs']);

/** The CDN prefixes of packages.json as loopback paths of the npm copies. */
function rewriteCdn(text) {
  let out = text;
  for (const [prefix, spec] of Object.entries(CORPUS.cdn)) {
    out = out.replaceAll(prefix, `/${path.basename(packageDir(spec))}/`);
  }
  return out;
}

/** Installs the packages `pages` need and serves the cache; `pageUrl(page)` is where each page is. */
export async function startCorpusServer(pages) {
  const root = ensureCorpus([...new Set(pages.map((p) => p.spec)), ...Object.values(CORPUS.cdn)]);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const ext = path.extname(file).toLowerCase();
    res.writeHead(200, {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': 'public, max-age=3600',
    });
    if (!TEXT.has(ext)) {
      res.end(fs.readFileSync(file));
      return;
    }
    let text = rewriteCdn(fs.readFileSync(file, 'utf8'));
    // `?doctype=none`: the page as an old site serves it, without a doctype (quirks mode).
    if (ext === '.html' && url.searchParams.get('doctype') === 'none')
      text = text.replace(/^\s*<!doctype[^>]*>/i, '');
    res.end(text);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    pageUrl: (page, { quirks = false } = {}) =>
      `http://127.0.0.1:${port}/${path.basename(packageDir(page.spec))}/${page.file}${quirks ? '?doctype=none' : ''}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The areas of a page, by rule (run in the page at the top of the page), up to `count`:
 *
 * 1. Section-level elements — `header`, `footer`, `section`, `article`, `aside`, `form`, `nav`,
 *    `main` — and grid rows (`.row`), shown, not fixed or sticky, at least as large as the floor
 *    (300×80 px first), ranked by their area with the height counted up to `maxHeight`. The page's
 *    largest grid row is taken, then each next largest that neither holds nor sits inside one
 *    already taken.
 * 2. Fewer than two: the largest `div`s fill up, by the same rule.
 * 3. Still fewer than two (one container holds the page: a login card, a 404 message): the rule
 *    descends into the largest area taken and adds its largest blocks (a form, a card, a heading
 *    block) that cover at most three quarters of what it shows (both cut at `maxHeight`, as the
 *    bench cuts them to the viewport) and neither hold nor sit inside one another.
 * 4. Still fewer than two: the floor is lowered (150×40, then 60×16) and steps 1–3 run again.
 *
 * Returns a selector (an nth-child path) and the kind of each, top to bottom (a container before
 * what it holds). A page with a single visible block gives one area.
 */
export function selectAreas(count, maxHeight) {
  const SECTION = 'header, footer, section, article, aside, form, nav, main, .row';
  const FLOORS = [
    [300, 80],
    [150, 40],
    [60, 16],
  ];
  const pathOf = (el) => {
    const parts = [];
    for (let e = el; e !== null && e !== document.body; e = e.parentElement) {
      parts.unshift(`${e.localName}:nth-child(${[...e.parentElement.children].indexOf(e) + 1})`);
    }
    return `body > ${parts.join(' > ')}`;
  };
  const shown = (el) => {
    for (let e = el; e !== null; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.position === 'fixed' || cs.position === 'sticky') return false;
      if (cs.visibility === 'hidden' || cs.opacity === '0' || cs.display === 'none') return false;
    }
    return true;
  };
  const rank = (elements, [minWidth, minHeight]) => {
    const scored = [];
    for (const el of elements) {
      const r = el.getBoundingClientRect();
      if (r.width < minWidth || r.height < minHeight || r.right <= 0 || r.left >= innerWidth) continue;
      if (!shown(el)) continue;
      scored.push({ el, row: el.matches('.row'), score: r.width * Math.min(r.height, maxHeight) });
    }
    return scored.sort((a, b) => b.score - a.score);
  };
  const taken = [];
  const nested = (a, b) => a.el.contains(b.el) || b.el.contains(a.el);
  const free = (c) => taken.every((t) => !nested(t, c));
  const isTaken = (c) => taken.some((t) => t.el === c.el);
  // The share of what `outer` shows (its first `maxHeight` px) that `c` shows too.
  const covered = (c, outer) => {
    if (outer.el === document.body) return 0;
    const a = outer.el.getBoundingClientRect();
    const b = c.el.getBoundingClientRect();
    const bottom = (r) => r.top + Math.min(r.height, maxHeight);
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(bottom(a), bottom(b)) - Math.max(a.top, b.top);
    return w <= 0 || h <= 0 ? 0 : (w * h) / (a.width * Math.min(a.height, maxHeight));
  };
  const blocks = (root) =>
    [...root.querySelectorAll('*')].filter(
      (el) => !/^(inline|contents|none)/.test(getComputedStyle(el).display),
    );

  for (const floor of FLOORS) {
    if (taken.length >= 2) break;
    const sections = rank(document.querySelectorAll(SECTION), floor).filter((c) => !isTaken(c));
    const row = sections.find((c) => c.row && free(c));
    if (row !== undefined && taken.length < count) taken.push(row);
    for (const c of sections) if (taken.length < count && free(c)) taken.push(c);
    for (const c of taken.length < 2 ? rank(document.querySelectorAll('div'), floor) : []) {
      if (taken.length < 2 && free(c)) taken.push(c);
    }
    if (taken.length >= 2) break;
    // One container holds the page: its largest blocks, clearly smaller than it, are areas too.
    const outer = taken[0] ?? { el: document.body };
    const inside = [];
    for (const c of rank(blocks(outer.el), floor)) {
      if (taken.length >= count || covered(c, outer) > 0.75) continue;
      if (inside.every((t) => !nested(t, c)) && taken.every((t) => t === outer || !nested(t, c))) {
        inside.push(c);
        taken.push(c);
      }
    }
  }
  const top = (t) => t.el.getBoundingClientRect().top;
  taken.sort((a, b) => top(a) - top(b) || (a.el.contains(b.el) ? -1 : b.el.contains(a.el) ? 1 : 0));
  return taken.map((t) => ({ selector: pathOf(t.el), kind: t.el.matches('.row') ? 'row' : t.el.localName }));
}

/**
 * How far down the viewport bars pinned across its top reach (fixed or sticky, starting at the
 * top, at least half as wide as the viewport): an area is scrolled to sit below them, as the
 * extension does.
 */
export function pinnedTop() {
  let bottom = 0;
  for (const el of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' && cs.position !== 'sticky') continue;
    const r = el.getBoundingClientRect();
    if (r.top <= 1 && r.bottom > 0 && r.width >= innerWidth / 2 && r.height < innerHeight / 3) {
      bottom = Math.max(bottom, r.bottom);
    }
  }
  return Math.ceil(bottom);
}
