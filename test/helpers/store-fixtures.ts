import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/** Test fixtures for the idea store: real PNGs, workspaces with idea folders, tree snapshots. */

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A valid RGB PNG of width×height; `seed` varies the pixels; level 0 keeps the size predictable. */
export function makePng(width = 2, height = 2, seed = 1, level = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < raw.length; i++) {
    if (i % row === 0) continue; // filter byte 0
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw[i] = x & 0xff;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of roughly `bytes` bytes (square, uncompressed). */
export function pngOfAbout(bytes: number, seed = 1): Buffer {
  const side = Math.max(1, Math.floor(Math.sqrt(bytes / 3)));
  return makePng(side, side, seed);
}

export const b64 = (bytes: Buffer): string => `base64:${bytes.toString('base64')}`;

export const IDEA = '018. Feature-UIUX Reference';

/** Valid reference data; `overrides` replace top-level fields (undefined removes one). */
export function referenceData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {
    version: '1.0',
    source_url: 'https://example.com/pricing',
    timestamp: '2025-01-15T10:30:00Z',
    idea_folder: IDEA,
    session_id: 'ref-session-999',
    colors: [
      {
        id: 'color-001',
        hex: '#1a73e8',
        rgb: '26, 115, 232',
        hsl: '217, 82%, 51%',
        source_selector: 'button.primary',
        context: 'primary button background',
      },
    ],
    elements: [
      {
        id: 'elem-001',
        selector: 'header nav',
        tag: 'nav',
        bounding_box: { x: 0, y: 0, width: 1280, height: 64 },
        screenshots: { full_page: null, element_crop: null },
        comment: 'sticky header',
        extracted_assets: [],
        computed_styles: { color: 'rgb(0, 0, 0)' },
      },
    ],
    design_tokens: {
      colors: { primary: '#1a73e8' },
      typography: { heading_font: 'Inter', base_size: '16px' },
    },
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete data[key];
    else data[key] = value;
  }
  return data;
}

export interface TempWorkspace {
  root: string;
  workspace: string;
  ideasDir: string;
  refsDir(idea?: string): string;
  cleanup(): void;
}

/** `<tmp>/ws/x-ipe-docs/ideas/<idea>` for each idea; `root` also holds siblings for escape tests. */
export function makeWorkspace(ideas: readonly string[] = [IDEA]): TempWorkspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-store-')));
  const workspace = path.join(root, 'ws');
  const ideasDir = path.join(workspace, 'x-ipe-docs', 'ideas');
  fs.mkdirSync(ideasDir, { recursive: true });
  for (const idea of ideas) fs.mkdirSync(path.join(ideasDir, idea));
  return {
    root,
    workspace,
    ideasDir,
    refsDir: (idea = IDEA) => path.join(ideasDir, idea, 'uiux-references'),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Every path under `dir` with its type and size (and symlink target), sorted: compare before/after. */
export function snapshotTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      const rel = path.relative(dir, p);
      if (entry.isSymbolicLink()) out.push(`L ${rel} -> ${fs.readlinkSync(p)}`);
      else if (entry.isDirectory()) {
        out.push(`D ${rel}`);
        walk(p);
      } else out.push(`F ${rel} ${fs.statSync(p).size}`);
    }
  };
  walk(dir);
  return out.sort();
}

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Session files in `sessions/`, sorted. */
export function sessionFiles(refsDir: string): string[] {
  const dir = path.join(refsDir, 'sessions');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}
