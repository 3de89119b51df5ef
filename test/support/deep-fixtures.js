// Realistic pages for deep capture (test/fixtures/deep-capture/), served on 127.0.0.1 the way a
// site serves them: HTML, stylesheets with relative url()s, an SVG sprite, web fonts (the system's
// DejaVu and Liberation faces under made-up family names, so they load as @font-face and never
// come from the system) and photo-like images generated per request. A second origin serves a
// stylesheet without CORS, which the page can use but not read.
//
// AREAS lists what the e2e test and `npm run bench` capture: one entry per area, by selector.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { REPO_ROOT } from './chromium.js';
import { photoPng } from './png.js';

export const FIXTURES_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'deep-capture');

const FONT_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/truetype/liberation'];
const FONTS = {
  'display-bold.ttf': 'DejaVuSerif-Bold.ttf',
  'sans.ttf': 'LiberationSans-Regular.ttf',
  'sans-bold.ttf': 'LiberationSans-Bold.ttf',
  'serif.ttf': 'LiberationSerif-Regular.ttf',
  'serif-italic.ttf': 'LiberationSerif-Italic.ttf',
  'mono.ttf': 'DejaVuSansMono.ttf',
};

/** Where a system font file is; throws with the package to install when it is missing. */
function fontFile(name) {
  for (const dir of FONT_DIRS) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(
    `font ${name} not found in ${FONT_DIRS.join(', ')}: apt-get install fonts-dejavu-core fonts-liberation`,
  );
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.js': 'text/javascript',
};

/**
 * Every area the fidelity measurement covers: a page of FIXTURES_DIR, a selector and, for an
 * element taller than the viewport, the height of the area drawn over its top. `heldOut` areas
 * come from a page the engine was never tuned on; the bench reports them apart. `below`: the
 * height of the page's sticky header, which the area is scrolled to sit under.
 */
export const AREAS = [
  { page: 'landing.html', name: 'landing-header', selector: '.site-header' },
  { page: 'landing.html', name: 'landing-hero', selector: '.hero' },
  { page: 'landing.html', name: 'landing-features', selector: '.features' },
  { page: 'landing.html', name: 'landing-pricing', selector: '.pricing' },
  { page: 'dashboard.html', name: 'dashboard-sidebar', selector: '.sidebar' },
  { page: 'dashboard.html', name: 'dashboard-stats', selector: '.stats' },
  { page: 'dashboard.html', name: 'dashboard-table', selector: '.orders' },
  { page: 'signup.html', name: 'signup-form', selector: '.signup-card' },
  { page: 'signup.html', name: 'signup-aside', selector: '.testimonial' },
  { page: 'article.html', name: 'article-body', selector: '.article-body', maxHeight: 820 },
  { page: 'article.html', name: 'article-quote', selector: '.pull-quote' },
  { page: 'components.html', name: 'components-cards', selector: '.widget-row' },
  { page: 'components.html', name: 'components-media', selector: '.media-row' },
  { page: 'shop.html', name: 'shop-grid', selector: '.product-grid' },
  { page: 'shop.html', name: 'shop-carousel', selector: '.carousel' },
  // Held out: a page written after the engine was tuned on the ones above, never tuned against.
  { page: 'plans.html', name: 'plans-intro', selector: '.intro', heldOut: true, below: 64 },
  { page: 'plans.html', name: 'plans-grid', selector: '.plan-grid', heldOut: true, below: 64 },
  { page: 'plans.html', name: 'plans-compare', selector: '.compare', heldOut: true, below: 64 },
  { page: 'plans.html', name: 'plans-enterprise', selector: '.enterprise', heldOut: true, below: 64 },
  { page: 'plans.html', name: 'plans-contact', selector: '.contact', heldOut: true, below: 64 },
  { page: 'plans.html', name: 'plans-faq', selector: '.faq', heldOut: true, below: 64 },
  { page: 'docs.html', name: 'docs-sidebar', selector: '.side', heldOut: true, below: 56 },
  { page: 'docs.html', name: 'docs-callouts', selector: '.callouts', heldOut: true, below: 56 },
  { page: 'docs.html', name: 'docs-code', selector: '.tabs', heldOut: true, below: 56 },
  { page: 'docs.html', name: 'docs-params', selector: '.params', heldOut: true, below: 56 },
  { page: 'docs.html', name: 'docs-flow', selector: '.flow', heldOut: true, below: 56 },
  { page: 'docs.html', name: 'docs-events', selector: 'dl.events', heldOut: true, below: 56 },
  { page: 'docs.html', name: 'docs-toc', selector: '.toc', heldOut: true, below: 56 },
  { page: 'docs.html', name: 'docs-feedback', selector: '.feedback', heldOut: true, below: 56 },
];

function serve(root, { crossOrigin, remote }) {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Fonts and images are cacheable, as on real sites (the extension's fetch can reuse what the
    // page loaded); pages and stylesheets are not.
    const send = (status, type, body, cache = 'no-store') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': cache });
      res.end(body);
    };
    const CACHEABLE = 'public, max-age=3600';
    try {
      if (url.pathname.startsWith('/fonts/')) {
        const name = FONTS[url.pathname.slice('/fonts/'.length)];
        if (name === undefined) return send(404, 'text/plain', 'no such font');
        return send(200, 'font/ttf', fs.readFileSync(fontFile(name)), CACHEABLE);
      }
      if (url.pathname === '/img/photo.png') {
        const w = Math.min(2000, Number(url.searchParams.get('w')) || 400);
        const h = Math.min(2000, Number(url.searchParams.get('h')) || 300);
        return send(200, 'image/png', photoPng(w, h, Number(url.searchParams.get('seed')) || 1), CACHEABLE);
      }
      if (crossOrigin) {
        // Served without Access-Control-Allow-Origin: the page may apply it, never read it.
        if (url.pathname === '/theme.css')
          return send(200, 'text/css', fs.readFileSync(path.join(root, 'remote-theme.css')));
        return send(404, 'text/plain', 'not found');
      }
      const file = path.normalize(path.join(root, url.pathname === '/' ? 'index.html' : url.pathname));
      if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        return send(404, 'text/plain', 'not found');
      }
      const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      if (path.extname(file) === '.html') {
        return send(200, type, fs.readFileSync(file, 'utf8').replaceAll('%REMOTE_ORIGIN%', remote.origin));
      }
      return send(200, type, fs.readFileSync(file));
    } catch (err) {
      return send(500, 'text/plain', String(err));
    }
  });
}

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server.address().port;
}

/** Starts the fixture site and its cross-origin companion; pages get `?remote=<origin>`. */
export async function startFixtureServer() {
  const remoteInfo = { origin: '' };
  const site = serve(FIXTURES_DIR, { crossOrigin: false, remote: remoteInfo });
  const remote = serve(FIXTURES_DIR, { crossOrigin: true, remote: remoteInfo });
  const [sitePort, remotePort] = await Promise.all([listen(site), listen(remote)]);
  // A different host name is a different origin for the browser.
  remoteInfo.origin = `http://localhost:${remotePort}`;
  const close = (server) =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    origin: `http://127.0.0.1:${sitePort}`,
    remoteOrigin: remoteInfo.origin,
    pageUrl(page) {
      return `http://127.0.0.1:${sitePort}/${page}`;
    },
    close: () => Promise.all([close(site), close(remote)]).then(() => undefined),
  };
}

/** Bits of what fillSignup types, and of the form's handlers: none may reach a written file. */
export const SIGNUP_SECRETS = ['dana.secret', 'Hunter2', 'onsubmit', 'return false'];

/** Fills signup.html as a visitor would: an email, a password, the terms box, a team size. */
export async function fillSignup(page) {
  await page.click('#email');
  await page.keyboard.type('dana.secret@example.com');
  await page.click('#password');
  await page.keyboard.type('Hunter2-Correct-Horse');
  await page.click('.terms input');
  await page.select('#size', '11–50');
}
