import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extensionZipEntries, packageExtension } from '../../cli/src/package-extension.js';
import { REPO_ROOT } from '../helpers/fake-extension.js';

// What the build ships (dist/extension, built by the global setup) and what the Web Store zip holds.

const DIST = path.join(REPO_ROOT, 'dist', 'extension');
const manifest = () =>
  JSON.parse(fs.readFileSync(path.join(DIST, 'manifest.json'), 'utf8')) as {
    background: { service_worker: string };
    icons: Record<string, string>;
    action: { default_icon: Record<string, string> };
    web_accessible_resources?: unknown;
    key?: string;
  };

function files(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => {
      const rel = prefix === '' ? d.name : `${prefix}/${d.name}`;
      return d.isDirectory() ? files(path.join(dir, d.name), rel) : [rel];
    })
    .sort();
}

/** Entry names from a zip's central directory (the list the store unpacks). */
function zipNames(zip: Buffer): string[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let p = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = zip.readUInt16LE(eocd + 10); i > 0; i -= 1) {
    const nameLen = zip.readUInt16LE(p + 28);
    names.push(zip.subarray(p + 46, p + 46 + nameLen).toString('utf8'));
    p += 46 + nameLen + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return names.sort();
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-pkg-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the extension package', () => {
  it('ships only files something loads: the manifest, what it starts, what that imports or injects, icons', () => {
    const shipped = files(DIST);
    const m = manifest();
    const loaded = new Set<string>([
      'manifest.json',
      ...Object.values(m.icons),
      ...Object.values(m.action.default_icon),
    ]);
    const follow = (file: string): void => {
      loaded.add(file);
      const text = fs.readFileSync(path.join(DIST, file), 'utf8');
      // Injected files are named by their package path; chunks import each other by a relative
      // path ending in their hashed name.
      const named = (other: string): boolean =>
        text.includes(other) || (/-[\w-]{8}\.js$/.test(other) && text.includes(path.posix.basename(other)));
      for (const other of shipped) {
        if (other.endsWith('.js') && !loaded.has(other) && named(other)) follow(other);
      }
    };
    follow(m.background.service_worker);
    expect(shipped.filter((f) => !loaded.has(f))).toEqual([]);
    expect(m.web_accessible_resources).toBeUndefined();
  });

  it('has the icon set, 16/32/48/128 px PNGs, for the toolbar button and the store', () => {
    const m = manifest();
    expect(Object.keys(m.icons).sort()).toEqual(['128', '16', '32', '48']);
    expect(m.action.default_icon).toEqual(m.icons);
    for (const [size, file] of Object.entries(m.icons)) {
      const png = fs.readFileSync(path.join(DIST, file));
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([Number(size), Number(size)]);
      // Not a placeholder: a designed icon has many colours.
      expect(png.length).toBeGreaterThan(Number(size) * 20);
    }
  });

  it('puts exactly these files in the Web Store zip, with the manifest key removed', () => {
    const root = path.join(scratch, 'root');
    fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
    fs.cpSync(DIST, path.join(root, 'dist', 'extension'), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(root, 'package.json'));
    const { file } = packageExtension(root);
    const names = zipNames(fs.readFileSync(file));
    expect(names).toEqual(files(DIST));
    // A new file here is a review point: the first test checks something loads it.
    expect(names.map((n) => n.replace(/-[\w-]{8}\.js$/, '-<hash>.js'))).toEqual([
      'assets/crop-math-<hash>.js',
      'assets/limits-<hash>.js',
      'assets/service-worker.ts-<hash>.js',
      'assets/stitch-plan-<hash>.js',
      'extension/icons/icon-128.png',
      'extension/icons/icon-16.png',
      'extension/icons/icon-32.png',
      'extension/icons/icon-48.png',
      'extension/src/content/deep-capture/index.js',
      'extension/src/content/toolbar/content.js',
      'manifest.json',
      'service-worker-loader.js',
    ]);
    const zipped = extensionZipEntries(DIST).find((e) => e.name === 'manifest.json');
    expect(JSON.parse(String(zipped?.data))).not.toHaveProperty('key');
  });
});
