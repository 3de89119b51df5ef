import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEA, makeWorkspace, snapshotTree, type TempWorkspace } from '#test/helpers/store-fixtures.js';
import { assertIdeaFolderName, ideaPaths, isWithin, prepareIdeaDirs } from './path-safety.js';

describe('isWithin (root + sep prefix rule)', () => {
  it.each([
    ['/a/ideas/x/uiux-references', '/a/ideas/x/uiux-references', true],
    ['/a/ideas/x/uiux-references', '/a/ideas/x/uiux-references/sessions/f.json', true],
    ['/a/ideas/x/uiux-references', '/a/ideas/x/uiux-references-evil/f.json', false],
    ['/a/ideas/x/uiux-references', '/a/ideas/x/uiux-referencesX', false],
    ['/a/ideas/x', '/a/ideas/x2/uiux-references', false],
    ['/a/ideas/x/uiux-references', '/a/ideas/x/uiux-references/../../y', false],
    ['/a/ideas/x/uiux-references/', '/a/ideas/x/uiux-references/s', true],
    ['/', '/anything', true],
  ])('isWithin(%s, %s) = %s', (root, candidate, expected) => {
    expect(isWithin(root, candidate)).toBe(expected);
  });

  it('applies the same rule to Windows paths', () => {
    expect(isWithin('C:\\ws\\idea', 'C:\\ws\\idea\\f', path.win32)).toBe(true);
    expect(isWithin('C:\\ws\\idea', 'C:\\ws\\idea-evil\\f', path.win32)).toBe(false);
  });
});

describe('idea folder names', () => {
  it.each(['..', '.', '../x', 'x/..', '/abs', 'a\\b', 'a\0b', '', 'D:\\x', 'C:'])('refuses %j', (name) => {
    expect(() => assertIdeaFolderName(name)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => ideaPaths('/ws', name)).toThrow(/idea_folder/);
  });

  it('lays out a valid idea under x-ipe-docs/ideas', () => {
    const p = ideaPaths('/ws', IDEA);
    expect(p.ideaDir).toBe(`/ws/x-ipe-docs/ideas/${IDEA}`);
    expect(p.sessionsDir).toBe(`/ws/x-ipe-docs/ideas/${IDEA}/uiux-references/sessions`);
  });
});

describe('prepareIdeaDirs', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  it('creates uiux-references, sessions and screenshots, never the idea folder', async () => {
    ws = makeWorkspace();
    const dirs = await prepareIdeaDirs(ideaPaths(ws.workspace, IDEA), IDEA);
    expect(fs.statSync(dirs.sessionsDir).isDirectory()).toBe(true);
    expect(fs.statSync(dirs.screenshotsDir).isDirectory()).toBe(true);
    await expect(prepareIdeaDirs(ideaPaths(ws.workspace, 'missing'), 'missing')).rejects.toMatchObject({
      code: 'IDEA_NOT_FOUND',
      message: expect.stringMatching(
        /^Idea folder not found: missing\. Looked in .+: existing ideas: .+\. Pass one of/,
      ),
    });
    expect(fs.existsSync(path.join(ws.ideasDir, 'missing'))).toBe(false);
  });

  it.each([
    ['uiux-references', ''],
    ['sessions', 'uiux-references'],
    ['screenshots', 'uiux-references'],
  ])('refuses a symlinked %s (pointing outside or inside) and writes nothing', async (name, parent) => {
    for (const target of ['outside', 'sibling-inside']) {
      ws = makeWorkspace([IDEA, 'other']);
      const ideaDir = path.join(ws.ideasDir, IDEA);
      const parentDir = path.join(ideaDir, parent);
      fs.mkdirSync(parentDir, { recursive: true });
      const dest = target === 'outside' ? path.join(ws.root, 'outside') : path.join(ideaDir, 'elsewhere');
      fs.mkdirSync(dest, { recursive: true });
      fs.symlinkSync(dest, path.join(parentDir, name));
      const before = snapshotTree(ws.root);
      await expect(prepareIdeaDirs(ideaPaths(ws.workspace, IDEA), IDEA)).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('symbolic link'),
      });
      expect(snapshotTree(ws.root)).toEqual(before);
      ws.cleanup();
    }
    ws = makeWorkspace();
  });

  it('refuses a symlink to a similarly named sibling folder', async () => {
    ws = makeWorkspace();
    const ideaDir = path.join(ws.ideasDir, IDEA);
    fs.mkdirSync(`${ideaDir}/uiux-references-evil`);
    fs.symlinkSync(`${ideaDir}/uiux-references-evil`, `${ideaDir}/uiux-references`);
    const before = snapshotTree(ws.root);
    await expect(prepareIdeaDirs(ideaPaths(ws.workspace, IDEA), IDEA)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(snapshotTree(ws.root)).toEqual(before);
  });

  it('follows a symlinked idea folder (the user chose where the idea lives) but stays inside it', async () => {
    ws = makeWorkspace([]);
    const real = path.join(ws.root, 'real-idea');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(ws.ideasDir, IDEA));
    const dirs = await prepareIdeaDirs(ideaPaths(ws.workspace, IDEA), IDEA);
    expect(dirs.refsDir).toBe(path.join(real, 'uiux-references'));
  });

  it('reports a store folder that is a regular file as WRITE_ERROR with the path', async () => {
    ws = makeWorkspace();
    fs.mkdirSync(ws.refsDir());
    fs.writeFileSync(path.join(ws.refsDir(), 'sessions'), 'not a folder');
    await expect(prepareIdeaDirs(ideaPaths(ws.workspace, IDEA), IDEA)).rejects.toMatchObject({
      code: 'WRITE_ERROR',
      details: expect.objectContaining({ path: path.join(ws.refsDir(), 'sessions') }),
    });
  });
});
