import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '#shared/node/atomic-write.js';
import { createZip, type ZipEntry } from './zip.js';

/**
 * `npm run package`: dist/extension → dist/x-ipe-uiux-reference-<version>.zip for the Chrome Web
 * Store. The store assigns its own ID and rejects a manifest `key`, so the key is removed from the
 * packaged manifest (the unpacked build keeps it: that pins the ID for development).
 */

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    // Build metadata such as .vite/ is not part of the extension.
    if (d.name.startsWith('.')) continue;
    const rel = prefix === '' ? d.name : `${prefix}/${d.name}`;
    if (d.isDirectory()) out.push(...listFiles(path.join(dir, d.name), rel));
    else if (d.isFile()) out.push(rel);
  }
  return out.sort();
}

export function extensionZipEntries(extensionDir: string): ZipEntry[] {
  const manifestFile = path.join(extensionDir, 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    throw new Error(`${manifestFile} is missing: run \`npm run build\` first`);
  }
  return listFiles(extensionDir).map((name) => {
    let data = fs.readFileSync(path.join(extensionDir, ...name.split('/')));
    if (name === 'manifest.json') {
      const { key: _key, ...rest } = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      data = Buffer.from(`${JSON.stringify(rest, null, 2)}\n`);
    }
    return { name, data };
  });
}

export function packageExtension(root: string): { file: string; entries: number; bytes: number } {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const entries = extensionZipEntries(path.join(root, 'dist', 'extension'));
  const zip = createZip(entries);
  const file = path.join(root, 'dist', `${pkg.name}-${pkg.version}.zip`);
  writeFileAtomicSync(file, zip);
  return { file, entries: entries.length, bytes: zip.length };
}
