import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PAGE_CONTENT_TYPES } from '#shared/page-content-types.js';

/**
 * What `start` uses when the user gives no workspace or URL: a copy of the bundled demo workspace
 * (one idea folder) in the per-user home, and the bundled demo page served on 127.0.0.1.
 */

export const demoWorkspaceDir = (home: string): string => path.join(home, 'demo-workspace');

/** Copies `<package>/demo/workspace` to `<home>/demo-workspace` unless it already exists. */
export function ensureDemoWorkspace(home: string, packageRoot: string): { dir: string; created: boolean } {
  const dir = demoWorkspaceDir(home);
  if (fs.existsSync(path.join(dir, 'x-ipe-docs', 'ideas'))) return { dir, created: false };
  const source = path.join(packageRoot, 'demo', 'workspace');
  if (fs.existsSync(source)) {
    fs.cpSync(source, dir, { recursive: true, errorOnExist: false, force: false });
  } else {
    fs.mkdirSync(path.join(dir, 'x-ipe-docs', 'ideas', '001. Demo Idea'), { recursive: true });
  }
  return { dir, created: true };
}

/** Shown when the package has no demo page (only in a partial checkout). */
const FALLBACK_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>X-IPE UI/UX Reference demo</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:3rem auto;max-width:40rem;color:#1f2933}
h1{color:#3b5bdb}.card{border:1px solid #d0d7de;border-radius:8px;padding:1rem;background:#f8f9fa}
button{background:#3b5bdb;color:#fff;border:0;border-radius:6px;padding:.5rem 1rem}</style></head>
<body><h1>X-IPE UI/UX Reference</h1><div class="card"><p>Pick elements and colours on this page
with the toolbar and save them into an idea folder.</p><button>Primary action</button></div></body></html>
`;

/** Resolves a URL path inside `root`, or null when it would escape it. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  const rootResolved = path.resolve(root);
  return file === rootResolved || file.startsWith(rootResolved + path.sep) ? file : null;
}

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` read-only on 127.0.0.1 (ephemeral port); `/` is index.html. */
export async function serveDirectory(root: string): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    let file = resolveInside(root, req.url ?? '/');
    if (file !== null && fs.existsSync(file) && fs.statSync(file).isDirectory())
      file = path.join(file, 'index.html');
    if (file === null || !fs.existsSync(file)) {
      if ((req.url ?? '/').split('?')[0] === '/') {
        res.writeHead(200, { 'content-type': PAGE_CONTENT_TYPES['.html'] ?? 'text/html' }).end(FALLBACK_PAGE);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': PAGE_CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
