import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { invalidField } from '#shared/errors.js';
import { isWithin } from '#shared/node/idea-store/path-safety.js';
import { PAGE_CONTENT_TYPES } from '#shared/page-content-types.js';

/**
 * Serves an agent's mockup to the browser for one comparison: on 127.0.0.1 only, under a random
 * 128-bit path prefix, GET and HEAD only, for the duration of the call (the caller closes it).
 * The extension never gets file access. The page may load what it references inside the workspace
 * (its CSS, fonts, the captured resources), every path resolved to its real path and checked to be
 * inside the workspace again; dot-files and dot-folders (.git, .env), folders (no listings) and
 * file types a page does not load are refused.
 */

export interface ServedCandidate {
  url: string;
  close(): Promise<void>;
}

/** The real path of an HTML file inside the workspace, or a VALIDATION_ERROR saying what to change. */
export async function candidateFile(workspace: string, filePath: string): Promise<string> {
  const wsReal = await fs.realpath(workspace);
  const lexical = path.resolve(wsReal, filePath);
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch {
    throw invalidField(
      'file_path',
      `an existing HTML file inside the workspace ${wsReal}`,
      filePath,
      'compare_with_reference arguments',
    );
  }
  if (!isWithin(wsReal, real))
    throw invalidField(
      'file_path',
      `an HTML file inside the workspace ${wsReal} (links resolved)`,
      filePath,
      'compare_with_reference arguments',
    );
  const ext = path.extname(real).toLowerCase();
  const stat = await fs.stat(real);
  if (!stat.isFile() || (ext !== '.html' && ext !== '.htm'))
    throw invalidField('file_path', 'an .html file', filePath, 'compare_with_reference arguments');
  return real;
}

async function resolveServed(wsReal: string, relative: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((part) => part.startsWith('.'))) return null;
  const lexical = path.resolve(wsReal, decoded);
  if (!isWithin(wsReal, lexical)) return null;
  const real = await fs.realpath(lexical).catch(() => null);
  if (real === null || !isWithin(wsReal, real)) return null;
  if (PAGE_CONTENT_TYPES[path.extname(real).toLowerCase()] === undefined) return null;
  const stat = await fs.stat(real).catch(() => null);
  return stat?.isFile() === true ? real : null;
}

/** Starts the server; `file` is a real path from candidateFile. */
export async function serveCandidate(workspace: string, file: string): Promise<ServedCandidate> {
  const wsReal = await fs.realpath(workspace);
  const prefix = `/${randomBytes(16).toString('hex')}/`;
  const server = http.createServer((req, res) => {
    const refuse = (code: number) => {
      res.writeHead(code, { 'content-type': 'text/plain' }).end();
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405);
    const pathname = (req.url ?? '').split(/[?#]/)[0] ?? '';
    if (!pathname.startsWith(prefix)) return refuse(404);
    resolveServed(wsReal, pathname.slice(prefix.length))
      .then(async (real) => {
        if (real === null) return refuse(404);
        const body = await fs.readFile(real);
        res.writeHead(200, {
          'content-type': PAGE_CONTENT_TYPES[path.extname(real).toLowerCase()] ?? 'application/octet-stream',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      })
      .catch(() => refuse(500));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const relative = path.relative(wsReal, file).split(path.sep).map(encodeURIComponent).join('/');
  return {
    url: `http://127.0.0.1:${port}${prefix}${relative}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
