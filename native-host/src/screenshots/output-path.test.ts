import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareOutputFile, resolveOutputPath } from './output-path.js';

let root: string;
let ws: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'xout-')));
  ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'shots'), { recursive: true });
  fs.mkdirSync(path.join(root, 'ws-evil'));
  fs.mkdirSync(path.join(root, 'outside'));
  fs.symlinkSync(path.join(root, 'outside'), path.join(ws, 'link'));
  fs.symlinkSync(path.join(root, 'outside', 'x.png'), path.join(ws, 'shots', 'dangling.png'));
  fs.mkdirSync(path.join(ws, 'folder.png'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('resolveOutputPath', () => {
  it('resolves relative paths against the workspace and keeps absolute ones inside it', () => {
    expect(resolveOutputPath(ws, 'shots/a.png')).toBe(path.join(ws, 'shots', 'a.png'));
    expect(resolveOutputPath(ws, path.join(ws, 'b.PNG'))).toBe(path.join(ws, 'b.PNG'));
    expect(resolveOutputPath(ws, 'shots/../c.png')).toBe(path.join(ws, 'c.png'));
  });

  it.each([
    ['../a.png', 'outside'],
    ['shots/../../a.png', 'outside'],
    ['/etc/a.png', 'outside'],
    ['../ws-evil/a.png', 'outside'], // a similar directory name is not inside
    ['a.png\0.png', 'NUL'],
    ['a.txt', '.png'],
    ['shots/', '.png'],
  ])('refuses %j', (requested, why) => {
    expect(() => resolveOutputPath(ws, requested)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
    expect(() => resolveOutputPath(ws, requested)).toThrow(
      new RegExp(`output_path: .*${why.replace('.', '\\.')}`),
    );
  });

  it('uses the platform rules given (Windows separators)', () => {
    expect(() => resolveOutputPath('C:\\ws', '..\\a.png', path.win32)).toThrow(/outside/);
    expect(resolveOutputPath('C:\\ws', 'd\\a.png', path.win32)).toBe('C:\\ws\\d\\a.png');
  });
});

describe('prepareOutputFile', () => {
  it('creates missing folders and returns the real target', async () => {
    const target = resolveOutputPath(ws, 'new/deeper/a.png');
    expect(await prepareOutputFile(ws, target, 'new/deeper/a.png')).toBe(target);
    expect(fs.statSync(path.join(ws, 'new', 'deeper')).isDirectory()).toBe(true);
  });

  it.each([
    ['link/a.png', 'symbolic link'],
    ['link/made/here.png', 'symbolic link'],
    ['shots/dangling.png', 'symbolic link'],
    ['folder.png', 'folder'],
  ])('refuses %j without creating anything outside', async (requested, why) => {
    await expect(prepareOutputFile(ws, resolveOutputPath(ws, requested), requested)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining(why),
    });
    expect(fs.readdirSync(path.join(root, 'outside'))).toEqual([]);
  });

  it('says so when the workspace itself is missing', async () => {
    const missing = path.join(root, 'nope');
    await expect(prepareOutputFile(missing, path.join(missing, 'a.png'), 'a.png')).rejects.toMatchObject({
      code: 'WRITE_ERROR',
    });
  });
});
