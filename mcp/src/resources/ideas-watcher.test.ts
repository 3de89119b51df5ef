import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../test-support/fake-bridge.js';
import { type IdeasWatcher, watchIdeas } from './ideas-watcher.js';

let root: string;
let ws: string;
let ideas: string;
const watchers: IdeasWatcher[] = [];
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-watch-'));
  ws = path.join(root, 'ws');
  ideas = path.join(ws, 'x-ipe-docs', 'ideas');
});
afterEach(() => {
  for (const w of watchers.splice(0)) w.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function start(): Promise<{ watcher: IdeasWatcher; count: () => number }> {
  const watcher = watchIdeas({ workspace: ws, logger: silentLogger(), debounceMs: 20 });
  watchers.push(watcher);
  let n = 0;
  watcher.subscribe(() => {
    n += 1;
  });
  await watcher.ready;
  return { watcher, count: () => n };
}

describe('watchIdeas', () => {
  it('tells subscribers when an idea folder is added or removed', async () => {
    fs.mkdirSync(ideas, { recursive: true });
    const { count } = await start();
    fs.mkdirSync(path.join(ideas, '001. New'));
    await expect.poll(count).toBe(1);
    fs.rmdirSync(path.join(ideas, '001. New'));
    await expect.poll(count).toBe(2);
  });

  it('tells them when an idea gets its first reference-data.json, not for session files alone', async () => {
    const refs = path.join(ideas, 'a', 'uiux-references');
    fs.mkdirSync(path.join(refs, 'sessions'), { recursive: true });
    const { count } = await start();
    fs.writeFileSync(path.join(refs, 'sessions', 'ref-session-001.json'), '{}');
    fs.writeFileSync(path.join(refs, 'reference-data.json'), '{}');
    // The session file alone does not change the list; the merged file does: exactly one notice.
    await expect.poll(count).toBe(1);
    fs.mkdirSync(path.join(ideas, 'b')); // a later change is still seen, and counted once
    await expect.poll(count).toBe(2);
  });

  it('notices the ideas folder appearing after start, and its first idea', async () => {
    fs.mkdirSync(ws);
    const { count } = await start();
    fs.mkdirSync(path.join(ideas, 'first'), { recursive: true });
    await expect.poll(count).toBe(1);
    fs.mkdirSync(path.join(ideas, 'second'));
    await expect.poll(count).toBe(2);
  });

  it('stops telling after close or unsubscribe', async () => {
    fs.mkdirSync(ideas, { recursive: true });
    const watcher = watchIdeas({ workspace: ws, logger: silentLogger(), debounceMs: 20 });
    watchers.push(watcher);
    let unsubscribed = 0;
    let kept = 0;
    const off = watcher.subscribe(() => {
      unsubscribed += 1;
    });
    watcher.subscribe(() => {
      kept += 1;
    });
    await watcher.ready;
    off();
    fs.mkdirSync(path.join(ideas, 'x'));
    await expect.poll(() => kept).toBe(1);
    expect(unsubscribed).toBe(0);
  });
});
