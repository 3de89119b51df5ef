import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, LOCK_FILE, ownerIsDead, processStartTime, withIdeaLock } from './lock.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-lock-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  const pid = child.pid ?? 0;
  await new Promise((resolve) => child.on('exit', resolve));
  return pid;
}

describe('idea lock', () => {
  it('holds the lock file while held and removes it on release', async () => {
    const lock = await acquireFileLock(dir);
    const owner = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, hostname: os.hostname(), token: lock.token });
    await lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('waits for a live owner and times out with TIMEOUT naming the lock', async () => {
    const held = await acquireFileLock(dir);
    await expect(acquireFileLock(dir, { timeoutMs: 150 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      details: expect.objectContaining({ lock: path.join(dir, LOCK_FILE) }),
    });
    await held.release();
    const next = await acquireFileLock(dir, { timeoutMs: 1000 });
    await next.release();
  });

  it('breaks the lock of a dead owner (a SIGKILLed host never wedges the idea)', async () => {
    const pid = await deadPid();
    fs.writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid, start: null, hostname: os.hostname(), token: 'dead', acquired_at: '' }),
    );
    const stale: unknown[] = [];
    const lock = await acquireFileLock(dir, { timeoutMs: 2000, onStale: (owner) => stale.push(owner) });
    expect(stale).toHaveLength(1);
    await lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('treats a reused pid (different start time) as dead, but not a lock from another machine', async () => {
    expect(
      await ownerIsDead({
        pid: process.pid,
        start: 'not-my-start',
        hostname: os.hostname(),
        token: 't',
        acquired_at: '',
      }),
    ).toBe(process.platform === 'linux');
    expect(
      await ownerIsDead({
        pid: process.pid,
        start: await processStartTime(process.pid),
        hostname: os.hostname(),
        token: 't',
        acquired_at: '',
      }),
    ).toBe(false);
    expect(
      await ownerIsDead({
        pid: await deadPid(),
        start: null,
        hostname: 'elsewhere',
        token: 't',
        acquired_at: '',
      }),
    ).toBe(false);
  });

  it('serialises withIdeaLock callers in one process', async () => {
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        withIdeaLock(dir, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await new Promise((r) => setTimeout(r, 2));
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
