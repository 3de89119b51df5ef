import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed package's root (works from source under vitest and from dist/node). */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    try {
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
      if (pkg.name === 'x-ipe-uiux-reference') return dir;
    } catch {
      // keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the x-ipe-uiux-reference package above ${from}`);
    dir = parent;
  }
}

export const cliEntry = (root = packageRoot()): string => path.join(root, 'bin', 'x-ipe-uiux.js');
export const extensionDist = (root = packageRoot()): string => path.join(root, 'dist', 'extension');
