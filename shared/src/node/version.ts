import fs from 'node:fs';

/** The package version, read once from package.json (two levels above dist/node/shared/src/node). */
function readVersion(): string {
  for (const rel of ['../../../package.json', '../../../../../package.json']) {
    try {
      const pkg = JSON.parse(fs.readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'x-ipe-uiux-reference' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return '0.0.0';
}

export const PACKAGE_VERSION = readVersion();
