import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { realPageResponse } from '../support/real-pages.js';
import { REPO_ROOT } from './fake-extension.js';
import { hostileCapturePage, hostilePage } from './hostile-page.js';

/**
 * Pages for end-to-end tests on 127.0.0.1 (port 0): `/plain` (and any path under it), `/other` (a second plain page),
 * `/csp` (served with `Content-Security-Policy: script-src 'self'`: no inline script, no eval),
 * `/legacy` (a page carrying the legacy X-IPE toolbar: `.xipe-toolbar`, `xipe-` styles and the
 * `window.__xipeToolbarInjected` guard, set by its own same-origin script), `/hostile…` (any path
 * under it: a page that attacks what we put into it, hostile-page.ts) and `/demo/` (the
 * bundled demo page), and the pages shaped like real templates under `/real/` (test/support/real-pages.js).
 */
export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const LEGACY_HEAD =
  '<style id="xipe-toolbar-styles">.xipe-toolbar{position:fixed;top:0;right:0}</style>' +
  '<link id="xipe-extra" rel="stylesheet" href="/legacy.css">' +
  '<script src="/legacy.js"></script>';

export async function startPageServer(): Promise<PageServer> {
  const demo = path.join(REPO_ROOT, 'demo', 'page', 'index.html');
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    switch (url.pathname) {
      case '/plain':
        return send(
          200,
          'text/html; charset=utf-8',
          page('Plain page', '<h1 id="title">Plain</h1><p class="lead">Hello</p>'),
        );
      case '/other':
        return send(200, 'text/html; charset=utf-8', page('Other page', '<h1>Other</h1>'));
      case '/csp':
        return send(200, 'text/html; charset=utf-8', page('Strict CSP page', '<h1 id="title">Strict</h1>'), {
          'content-security-policy': "script-src 'self'",
        });
      case '/legacy':
        return send(
          200,
          'text/html; charset=utf-8',
          page(
            'Legacy toolbar page',
            '<div class="xipe-toolbar">old toolbar</div><main>content</main>',
            LEGACY_HEAD,
          ),
        );
      case '/legacy.js':
        return send(200, 'text/javascript', 'window.__xipeToolbarInjected = true;');
      case '/legacy.css':
        return send(200, 'text/css', '');
      case '/demo/':
      case '/demo/index.html':
        return send(200, 'text/html; charset=utf-8', fs.readFileSync(demo, 'utf8'));
      default: {
        if (url.pathname.startsWith('/plain/')) {
          return send(200, 'text/html; charset=utf-8', page('Plain page', '<h1 id="title">Plain</h1>'));
        }
        if (url.pathname === '/hostile-capture') {
          return send(200, 'text/html; charset=utf-8', hostileCapturePage());
        }
        if (url.pathname.startsWith('/hostile')) {
          return send(200, 'text/html; charset=utf-8', hostilePage(`Hostile ${url.pathname}`));
        }
        const real = realPageResponse(url.pathname, url.searchParams);
        if (real) return send(200, real.type, real.body);
        return send(404, 'text/plain', 'not found');
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
