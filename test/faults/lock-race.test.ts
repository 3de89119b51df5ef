/**
 * The idea lock under the interleaving that used to give two writers (issue #13): waiter A reads a
 * dead owner's lock and decides to break it; before A acts, waiter B breaks it too and takes the
 * lock; then A acts on what is now B's live lock. Whatever A does to it, while B holds the lock
 * nobody else may get it — in particular not a third waiter D arriving while A is in the middle of
 * its break. File system calls are the real ones; the test only decides who runs when, by pausing
 * A inside its own calls (vi.spyOn on the fs/promises object the lock module uses).
 */
import { spawn } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireFileLock, type HeldLock, LOCK_FILE } from '#shared/node/idea-store/lock.js';

let dir: string;
beforeEach(() => {
  dir = fsSync.mkdtempSync(path.join(os.tmpdir(), 'xipe-lock-race-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fsSync.rmSync(dir, { recursive: true, force: true });
});

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  const pid = child.pid ?? 0;
  await new Promise((resolve) => child.on('exit', resolve));
  return pid;
}

const lockFile = (): string => path.join(dir, LOCK_FILE);
const tokenInLock = (): string | null => {
  try {
    return (JSON.parse(fsSync.readFileSync(lockFile(), 'utf8')) as { token: string }).token;
  } catch {
    return null;
  }
};

describe('breaking a stale idea lock', () => {
  it('never takes a live lock away: a waiter acting on a stale reading leaves the new owner alone', async () => {
    const stale = JSON.stringify({
      pid: await deadPid(),
      start: null,
      hostname: os.hostname(),
      token: 'dead-owner',
      acquired_at: '',
    });
    fsSync.writeFileSync(lockFile(), stale);

    let b: HeldLock | null = null;
    let aHasReadTheStaleLock = false;
    const thirdWaiter: Array<Promise<HeldLock>> = [];
    const realReadFile = fs.readFile.bind(fs);
    const realRename = fs.rename.bind(fs);

    // A's first read of the lock: it gets the dead owner's record, but before A can act on it,
    // B breaks that lock and takes it (B is alive: same process, so its pid is alive).
    vi.spyOn(fs, 'readFile').mockImplementation((async (...args: Parameters<typeof fs.readFile>) => {
      const content = await realReadFile(...args);
      if (args[0] === lockFile() && !aHasReadTheStaleLock && String(content) === stale) {
        aHasReadTheStaleLock = true;
        b = await acquireFileLock(dir, { timeoutMs: 2_000 });
      }
      return content;
    }) as typeof fs.readFile);
    // Whenever the lock file is moved aside while B holds it, a third waiter D arrives right then.
    vi.spyOn(fs, 'rename').mockImplementation(async (from, to) => {
      await realRename(from, to);
      if (from === lockFile() && b !== null && thirdWaiter.length === 0) {
        const d = acquireFileLock(dir, { timeoutMs: 300 });
        d.catch(() => undefined);
        thirdWaiter.push(d);
        await d.then(
          () => undefined,
          () => undefined,
        );
      }
    });

    // A: must not get the lock while B holds it.
    await expect(acquireFileLock(dir, { timeoutMs: 500 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(aHasReadTheStaleLock).toBe(true);
    const held = b as HeldLock | null;
    if (held === null) throw new Error('B never took the lock');
    // B still owns the lock file, and nobody else got it meanwhile.
    expect(tokenInLock()).toBe(held.token);
    for (const d of thirdWaiter) await expect(d).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(acquireFileLock(dir, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });

    vi.restoreAllMocks();
    await held.release();
    const next = await acquireFileLock(dir, { timeoutMs: 1_000 });
    expect(tokenInLock()).toBe(next.token);
    await next.release();
    expect(fsSync.readdirSync(dir)).toEqual([]);
  });
});
