import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTempName, toWriteError, writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-atomic-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes the file and leaves no temp file behind', async () => {
    await writeFileAtomic(path.join(dir, 'a.json'), '{"a":1}');
    expect(fs.readdirSync(dir)).toEqual(['a.json']);
    expect(fs.readFileSync(path.join(dir, 'a.json'), 'utf8')).toBe('{"a":1}');
  });

  it('never overwrites unless asked: EEXIST and the old content kept', async () => {
    const file = path.join(dir, 'ref-session-001.json');
    await writeFileAtomic(file, 'old');
    await expect(writeFileAtomic(file, 'new')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    await writeFileAtomic(file, 'new', { overwrite: true });
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(fs.readdirSync(dir)).toEqual(['ref-session-001.json']);
  });

  it('does not follow a symlink squatting on the target name', async () => {
    const outside = path.join(dir, 'outside.txt');
    fs.writeFileSync(outside, 'untouched');
    fs.mkdirSync(path.join(dir, 'd'));
    fs.symlinkSync(outside, path.join(dir, 'd', 'ref-session-001.json'));
    await expect(writeFileAtomic(path.join(dir, 'd', 'ref-session-001.json'), 'x')).rejects.toMatchObject({
      code: 'EEXIST',
    });
    await writeFileAtomic(path.join(dir, 'd', 'ref-session-001.json'), 'x', { overwrite: true });
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(path.join(dir, 'd', 'ref-session-001.json')).isFile()).toBe(true);
  });

  it('cleans its temp file when the publish step fails', async () => {
    fs.mkdirSync(path.join(dir, 'target', 'child'), { recursive: true });
    await expect(writeFileAtomic(path.join(dir, 'target'), 'x', { overwrite: true })).rejects.toBeTruthy();
    expect(fs.readdirSync(dir)).toEqual(['target']);
  });

  it('names temp files so no scan can take them for a session', () => {
    expect(isTempName('.tmp-123-abc')).toBe(true);
    expect(isTempName('ref-session-001.json')).toBe(false);
  });

  it('maps OS errors to WRITE_ERROR with the path and the reason', () => {
    const err = toWriteError(
      '/x/y',
      Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
    );
    expect(err).toMatchObject({ code: 'WRITE_ERROR', details: { path: '/x/y', os_code: 'ENOSPC' } });
    expect(err.message).toContain('/x/y');
    expect(err.message).toContain('no space left');
  });
});

describe('writeFileAtomicSync', () => {
  it('creates missing folders, writes with the mode asked (whatever the umask) and leaves no temp file', () => {
    const file = path.join(dir, 'a', 'b', 'config.json');
    const umask = process.umask(0o077);
    try {
      writeFileAtomicSync(file, '{"a":1}\n', { mode: 0o644, dirMode: 0o700 });
    } finally {
      process.umask(umask);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['config.json']);
    if (process.platform !== 'win32') {
      expect(fs.statSync(file).mode & 0o777).toBe(0o644);
      expect(fs.statSync(path.join(dir, 'a')).mode & 0o777).toBe(0o700);
    }
  });

  it('replaces a file in one step and keeps its mode unless told otherwise', () => {
    const file = path.join(dir, 'launcher.sh');
    fs.writeFileSync(file, 'old', { mode: 0o755 });
    fs.chmodSync(file, 0o755);
    const before = fs.statSync(file).ino;
    writeFileAtomicSync(file, 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(fs.statSync(file).ino).not.toBe(before); // a new file took its place: no reader saw a half
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o755);
    writeFileAtomicSync(file, 'newer', { mode: 0o600, durable: false });
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['launcher.sh']);
  });

  it('leaves the old file and no temp file when the move fails', () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(path.join(target, 'inside'), { recursive: true }); // rename cannot replace a non-empty dir
    expect(() => writeFileAtomicSync(target, 'x')).toThrow();
    expect(fs.readdirSync(dir)).toEqual(['taken']);
    expect(fs.readdirSync(target)).toEqual(['inside']);
  });
});
