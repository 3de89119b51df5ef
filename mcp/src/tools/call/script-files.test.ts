import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptFiles } from './script-files.js';

const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A script file whose timestamps are `ageMs` in the past (settled unless recent). */
function scriptFile(dir: string, name: string, text: string, ageMs: number): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
  return file;
}

describe('ScriptFiles', () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-script-files-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a file with its hash, then serves it again without reading while its stat is unchanged', () => {
    const files = new ScriptFiles();
    const file = scriptFile(tempDir(), 'a.js', 'return 1;', 60_000);
    // ctime cannot be set back: wait until the file counts as settled by faking the clock.
    vi.spyOn(Date, 'now').mockReturnValue(Math.ceil(fs.statSync(file).ctimeMs) + 10_000);
    const first = files.readSync(file, fs.statSync(file, { bigint: true }), 1000);
    expect(first).toEqual({ code: 'return 1;', sha256: sha('return 1;') });
    const read = vi.spyOn(fs, 'readFileSync');
    expect(files.readSync(file, fs.statSync(file, { bigint: true }), 1000)).toEqual(first);
    expect(read).not.toHaveBeenCalled();
  });

  it('reads again once the file changed, even at the same size', () => {
    const files = new ScriptFiles();
    const dir = tempDir();
    const file = scriptFile(dir, 'a.js', 'return 1;', 60_000);
    vi.spyOn(Date, 'now').mockReturnValue(Math.ceil(fs.statSync(file).ctimeMs) + 10_000);
    files.readSync(file, fs.statSync(file, { bigint: true }), 1000);
    scriptFile(dir, 'a.js', 'return 2;', 30_000);
    expect(files.readSync(file, fs.statSync(file, { bigint: true }), 1000)).toEqual({
      code: 'return 2;',
      sha256: sha('return 2;'),
    });
  });

  it('does not keep a file modified just before it was read (a same-tick rewrite would look unchanged)', () => {
    const files = new ScriptFiles();
    const file = scriptFile(tempDir(), 'a.js', 'return 1;', 0);
    files.readSync(file, fs.statSync(file, { bigint: true }), 1000);
    const read = vi.spyOn(fs, 'readFileSync');
    files.readSync(file, fs.statSync(file, { bigint: true }), 1000);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reads a recent file again and compares bytes: a rewrite under the same stat is seen', () => {
    const files = new ScriptFiles();
    const file = scriptFile(tempDir(), 'a.js', 'return 1;', 0);
    const stat = fs.statSync(file, { bigint: true });
    const first = files.readSync(file, stat, 1000);
    expect(files.readSync(file, stat, 1000)).toEqual(first);
    // Same size, and the same stat as far as the cache can tell: only the bytes differ.
    fs.writeFileSync(file, 'return 2;');
    expect(files.readSync(file, stat, 1000)).toEqual({ code: 'return 2;', sha256: sha('return 2;') });
  });

  it('trusts a recent file on its stat once a read is past the racy window', () => {
    const files = new ScriptFiles();
    const file = scriptFile(tempDir(), 'a.js', 'return 1;', 0);
    const stat = fs.statSync(file, { bigint: true });
    files.readSync(file, stat, 1000);
    vi.spyOn(Date, 'now').mockReturnValue(Math.ceil(fs.statSync(file).ctimeMs) + 10_000);
    files.readSync(file, stat, 1000); // read again, bytes equal, now settled
    const read = vi.spyOn(fs, 'readFileSync');
    expect(files.readSync(file, stat, 1000)).toEqual({ code: 'return 1;', sha256: sha('return 1;') });
    expect(read).not.toHaveBeenCalled();
  });

  it('needs 50 ms of age where timestamps have a sub-second part, 2 s where they are whole seconds', () => {
    const files = new ScriptFiles();
    const file = scriptFile(tempDir(), 'a.js', 'return 1;', 0);
    const real = fs.statSync(file, { bigint: true });
    const stampedAgo = (ms: number, whole: boolean): fs.BigIntStats => {
      let ns = (BigInt(Date.now()) - BigInt(ms)) * 1_000_000n;
      if (whole) ns -= ns % 1_000_000_000n;
      return Object.assign(Object.create(Object.getPrototypeOf(real)), real, { mtimeNs: ns, ctimeNs: ns });
    };
    const fine = stampedAgo(200, false);
    files.readSync(file, fine, 1000);
    const read = vi.spyOn(fs, 'readFileSync');
    files.readSync(file, fine, 1000);
    expect(read).not.toHaveBeenCalled();
    const coarse = stampedAgo(200, true); // whole seconds: 200 ms to ~1.2 s ago, inside 2 s
    files.readSync(file, coarse, 1000);
    files.readSync(file, coarse, 1000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('hashes only texts up to the given length', () => {
    const files = new ScriptFiles();
    const file = scriptFile(tempDir(), 'a.js', 'return 12345;', 60_000);
    expect(files.readSync(file, fs.statSync(file, { bigint: true }), 5).sha256).toBeUndefined();
    expect(files.readSync(file, fs.statSync(file, { bigint: true }), -1).sha256).toBeUndefined();
  });
});
