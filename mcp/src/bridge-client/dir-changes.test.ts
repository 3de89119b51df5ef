import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirChanges } from './dir-changes.js';

let dir: string;
const watches: DirChanges[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-dirchanges-'));
});
afterEach(() => {
  for (const watch of watches.splice(0)) watch.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function watch(enabled = true): DirChanges {
  const changes = new DirChanges(dir, enabled);
  watches.push(changes);
  return changes;
}

describe.runIf(process.platform === 'linux')('DirChanges (inotify)', () => {
  it('is unchanged after mark until an entry is added, renamed or removed', async () => {
    const changes = watch();
    for (const change of [
      () => fs.writeFileSync(path.join(dir, 'h-1.json'), '{}'),
      () => fs.renameSync(path.join(dir, 'h-1.json'), path.join(dir, 'h-2.json')),
      () => fs.rmSync(path.join(dir, 'h-2.json')),
    ]) {
      expect(changes.mark()).toBe(true);
      expect(changes.unchanged).toBe(true);
      change();
      await expect.poll(() => changes.unchanged).toBe(false);
    }
  });

  it('stays unchanged while nothing happens in the directory (a change beside it does not count)', async () => {
    const changes = watch();
    const beside = `${dir}-beside`;
    expect(changes.mark()).toBe(true);
    fs.writeFileSync(beside, 'x');
    await new Promise((resolve) => setTimeout(resolve, 50));
    fs.rmSync(beside);
    expect(changes.unchanged).toBe(true);
    expect(changes.mark()).toBe(true);
  });

  it('watches a directory deleted and made again afresh', async () => {
    const changes = watch();
    expect(changes.mark()).toBe(true);
    fs.rmSync(dir, { recursive: true });
    await expect.poll(() => changes.unchanged).toBe(false);
    expect(changes.mark()).toBe(false); // gone: nothing to watch, the caller lists (and finds none)
    fs.mkdirSync(dir);
    expect(changes.mark()).toBe(true);
    fs.writeFileSync(path.join(dir, 'h-3.json'), '{}');
    await expect.poll(() => changes.unchanged).toBe(false);
  });
});

describe('DirChanges where watchers may report late', () => {
  it('never calls a listing unchanged', () => {
    const changes = watch(false);
    expect(changes.mark()).toBe(false);
    expect(changes.unchanged).toBe(false);
  });

  it('never calls a listing unchanged after close', () => {
    const changes = watch();
    changes.mark();
    changes.close();
    expect(changes.unchanged).toBe(false);
  });
});
