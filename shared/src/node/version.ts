import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package version, read once from the nearest package.json named x-ipe-uiux-reference above
 * this module (works from source, from dist/node and from the bundled dist/cli).
 */
function readVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 8; depth += 1) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'x-ipe-uiux-reference' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return '0.0.0';
}

export const PACKAGE_VERSION = readVersion();
