import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EndpointDescriptor } from '#shared/node/endpoint-descriptor.js';
import type { Logger } from '#shared/node/logger.js';
import { runtimeDirCandidates, runtimeDirRecordPath } from '#shared/node/paths.js';
import { RuntimeDirError, readRuntimeDirRecord } from '#shared/node/runtime-dir.js';
import { chooseRuntimeDir, prepareRuntimeDir, removeStaleEndpoints, writeDescriptor } from './runtime-dir.js';

const posix = process.platform !== 'win32';
let base: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-rt-'));
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe.runIf(posix)('prepareRuntimeDir', () => {
  it('creates the dir 0700 (and missing parents) whatever the umask', () => {
    const dir = path.join(base, 'home', 'run');
    const previous = process.umask(0o000);
    try {
      expect(prepareRuntimeDir(dir, { parents: true })).toEqual({ created: true });
    } finally {
      process.umask(previous);
    }
    expect(mode(dir)).toBe(0o700);
  });

  it('accepts an existing private dir', () => {
    const dir = path.join(base, 'run');
    fs.mkdirSync(dir, { mode: 0o700 });
    expect(prepareRuntimeDir(dir)).toEqual({ created: false });
  });

  it('refuses an existing dir others can enter, and does not loosen or fix it silently', () => {
    const dir = path.join(base, 'run');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    expect(() => prepareRuntimeDir(dir)).toThrow(RuntimeDirError);
    expect(() => prepareRuntimeDir(dir)).toThrow(/chmod 700/);
    expect(mode(dir)).toBe(0o755);
  });

  it('refuses a symlink, even to a private dir', () => {
    const real = path.join(base, 'real');
    fs.mkdirSync(real, { mode: 0o700 });
    const link = path.join(base, 'run');
    fs.symlinkSync(real, link);
    expect(() => prepareRuntimeDir(link)).toThrow(/not a real directory/);
  });

  it('refuses a plain file in its place', () => {
    const file = path.join(base, 'run');
    fs.writeFileSync(file, '');
    expect(() => prepareRuntimeDir(file)).toThrow(RuntimeDirError);
  });

  it('refuses a dir owned by someone else', () => {
    const dir = path.join(base, 'run');
    fs.mkdirSync(dir, { mode: 0o700 });
    const me = fs.statSync(dir).uid;
    expect(() => prepareRuntimeDir(dir, { uid: me + 1 })).toThrow(/owned by uid/);
  });
});

describe.runIf(posix)('chooseRuntimeDir', () => {
  const warnings: string[] = [];
  const logger: Logger = {
    file: null,
    debug: () => undefined,
    info: () => undefined,
    warn: (msg, fields) => warnings.push(`${msg}: ${JSON.stringify(fields)}`),
    error: () => undefined,
  };
  const home = (): string => {
    const dir = path.join(base, 'home');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  };
  beforeEach(() => {
    warnings.length = 0;
  });

  it('takes <home>/run without $XDG_RUNTIME_DIR and records it (0600)', () => {
    const h = home();
    expect(chooseRuntimeDir(h, { env: {}, logger })).toBe(path.join(h, 'run'));
    expect(mode(path.join(h, 'run'))).toBe(0o700);
    expect(readRuntimeDirRecord(h)).toBe(path.join(h, 'run'));
    expect(mode(runtimeDirRecordPath(h))).toBe(0o600);
  });

  it('prefers a folder of its own in $XDG_RUNTIME_DIR, and skips one that is not ours alone', () => {
    const h = home();
    const xdg = path.join(base, 'xdg');
    fs.mkdirSync(xdg, { mode: 0o700 });
    const env = { XDG_RUNTIME_DIR: xdg };
    const chosen = chooseRuntimeDir(h, { env, logger });
    expect(chosen).toBe(runtimeDirCandidates(h, env)[0]);
    expect(path.dirname(chosen)).toBe(xdg);
    expect(readRuntimeDirRecord(h)).toBe(chosen);
    fs.chmodSync(xdg, 0o755);
    fs.rmSync(runtimeDirRecordPath(h));
    expect(chooseRuntimeDir(h, { env, logger })).toBe(path.join(h, 'run'));
  });

  it('makes a fresh folder with a random name when nothing fits, then keeps using it', () => {
    const h = path.join(base, 'a-long-home-directory-name-'.repeat(4));
    fs.mkdirSync(h, { recursive: true, mode: 0o700 });
    const first = chooseRuntimeDir(h, { env: {}, logger, tmpDir: base });
    expect(path.basename(first)).toMatch(/^xipe-\d+-\w{6}$/);
    expect(mode(first)).toBe(0o700);
    expect(readRuntimeDirRecord(h)).toBe(first);
    expect(chooseRuntimeDir(h, { env: {}, logger, tmpDir: base })).toBe(first);
    // After a reboot emptied /tmp the recorded name is made again, by us.
    fs.rmSync(first, { recursive: true });
    expect(chooseRuntimeDir(h, { env: {}, logger, tmpDir: base })).toBe(first);
  });

  it.runIf(process.getuid?.() === 0)(
    'moves away from a recorded folder another user planted, and records the new one',
    () => {
      const h = path.join(base, 'another-long-home-directory-'.repeat(4));
      fs.mkdirSync(h, { recursive: true, mode: 0o700 });
      const planted = path.join(base, 'xipe-planted');
      fs.mkdirSync(planted, { mode: 0o700 });
      fs.chownSync(planted, 65534, 65534); // nobody's, as a squatter would leave it
      fs.writeFileSync(runtimeDirRecordPath(h), JSON.stringify({ dir: planted }), { mode: 0o600 });
      const chosen = chooseRuntimeDir(h, { env: {}, logger, tmpDir: base });
      expect(chosen).not.toBe(planted);
      expect(path.basename(chosen)).toMatch(/^xipe-0-\w{6}$/);
      expect(readRuntimeDirRecord(h)).toBe(chosen);
      expect(fs.readdirSync(planted)).toEqual([]);
      expect(warnings.join('\n')).toMatch(/recorded runtime dir not used.*owned by uid 65534/);
    },
  );

  it('joins the recorded folder while another host lives there, so clients find every host', () => {
    const h = home();
    const elsewhere = path.join(base, 'xipe-elsewhere');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.writeFileSync(path.join(elsewhere, 'h-4242.json'), '{}', { mode: 0o600 });
    fs.writeFileSync(runtimeDirRecordPath(h), JSON.stringify({ dir: elsewhere }), { mode: 0o600 });
    expect(chooseRuntimeDir(h, { env: {}, logger, isAlive: (pid) => pid === 4242 })).toBe(elsewhere);
    expect(chooseRuntimeDir(h, { env: {}, logger, isAlive: () => false })).toBe(path.join(h, 'run'));
    expect(readRuntimeDirRecord(h)).toBe(path.join(h, 'run'));
  });
});

describe('removeStaleEndpoints', () => {
  it('removes sockets and descriptors of dead pids only, and leaves other files alone', () => {
    const names = [
      'h-100.json',
      'h-100.sock',
      'h-200.json',
      'h-200.sock',
      'h-300.json',
      'notes.txt',
      'h-x.json',
    ];
    for (const name of names) fs.writeFileSync(path.join(base, name), '');
    const asked: number[] = [];
    const removed = removeStaleEndpoints(base, 300, (pid) => {
      asked.push(pid);
      return pid === 200;
    });
    expect(removed.map((p) => path.basename(p)).sort()).toEqual(['h-100.json', 'h-100.sock']);
    expect(fs.readdirSync(base).sort()).toEqual([
      'h-200.json',
      'h-200.sock',
      'h-300.json',
      'h-x.json',
      'notes.txt',
    ]);
    expect(asked.sort()).toEqual([100, 200]); // once per pid, never our own
  });

  it('tolerates a missing dir', () => {
    expect(removeStaleEndpoints(path.join(base, 'absent'), 1)).toEqual([]);
  });
});

describe('writeDescriptor', () => {
  const descriptor: EndpointDescriptor = {
    pid: 12,
    endpoint: '/tmp/x/h-12.sock',
    protocol: 1,
    host_version: '0.1.0',
    started_at: '2026-01-01T00:00:00.000Z',
  };

  it('writes a parseable descriptor with mode 0600 and leaves no temp file', () => {
    const file = path.join(base, 'h-12.json');
    writeDescriptor(file, descriptor);
    expect(EndpointDescriptor.parse(JSON.parse(fs.readFileSync(file, 'utf8')))).toEqual(descriptor);
    if (posix) expect(mode(file)).toBe(0o600);
    expect(fs.readdirSync(base)).toEqual(['h-12.json']);
  });

  it('replaces an existing descriptor atomically', () => {
    const file = path.join(base, 'h-12.json');
    fs.writeFileSync(file, 'old');
    writeDescriptor(file, { ...descriptor, protocol: 2 });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).protocol).toBe(2);
    expect(fs.readdirSync(base)).toEqual(['h-12.json']);
  });

  it('refuses an invalid descriptor without writing anything', () => {
    const file = path.join(base, 'h-12.json');
    expect(() => writeDescriptor(file, { ...descriptor, pid: -1 })).toThrow();
    expect(fs.readdirSync(base)).toEqual([]);
  });
});
