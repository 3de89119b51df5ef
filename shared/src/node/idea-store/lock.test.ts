import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireFileLock,
  LOCK_FILE,
  ownerIsDead,
  parseLockOwner,
  processStartTime,
  removeDeadLockLeftovers,
  withIdeaLock,
} from './lock.js';

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

  it('reads only lock records it could have written (zod), ignoring extra keys', () => {
    const record = { pid: 12, start: null, hostname: 'h', token: 't', acquired_at: 'now' };
    expect(parseLockOwner(JSON.stringify({ ...record, extra: 1 }))).toEqual(record);
    expect(parseLockOwner(JSON.stringify({ ...record, start: 5, acquired_at: 6 }))).toEqual({
      ...record,
      start: null,
      acquired_at: '',
    });
    for (const bad of [
      '',
      'nope',
      '[]',
      '{"pid":"12","hostname":"h","token":"t"}',
      '{"pid":12,"hostname":"h"}',
    ]) {
      expect(parseLockOwner(bad)).toBeNull();
    }
  });

  describe('breaking a dead lock', () => {
    const instance = (raw: string): string => createHash('sha256').update(raw).digest('hex').slice(0, 16);
    const record = (pid: number, token: string): string =>
      JSON.stringify({ pid, start: null, hostname: os.hostname(), token, acquired_at: '' });

    it('leaves it to a live waiter that is already breaking it', async () => {
      const stale = record(await deadPid(), 'dead');
      fs.writeFileSync(path.join(dir, LOCK_FILE), stale);
      const marker = path.join(dir, `.lock-break-${instance(stale)}-0`);
      fs.writeFileSync(marker, record(process.pid, 'breaking')); // a live breaker: this process
      await expect(acquireFileLock(dir, { timeoutMs: 150 })).rejects.toMatchObject({ code: 'TIMEOUT' });
      expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe(stale);
      fs.rmSync(marker);
      const lock = await acquireFileLock(dir, { timeoutMs: 1000 });
      await lock.release();
      expect(fs.readdirSync(dir)).toEqual([]);
    });

    it('passes over a breaker that died holding the marker', async () => {
      const stale = record(await deadPid(), 'dead');
      fs.writeFileSync(path.join(dir, LOCK_FILE), stale);
      fs.writeFileSync(path.join(dir, `.lock-break-${instance(stale)}-0`), record(await deadPid(), 'b'));
      const lock = await acquireFileLock(dir, { timeoutMs: 1000 });
      expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]); // every marker of that instance went with it
      await lock.release();
    });

    it('clears markers of a lock that is gone, never those of the lock that is there', async () => {
      const there = record(process.pid, 'there');
      fs.writeFileSync(path.join(dir, LOCK_FILE), there);
      const keep = `.lock-break-${instance(there)}-0`;
      fs.writeFileSync(path.join(dir, keep), record(await deadPid(), 'b'));
      fs.writeFileSync(path.join(dir, `.lock-break-${instance('gone')}-0`), record(process.pid, 'c'));
      await removeDeadLockLeftovers(dir);
      expect(fs.readdirSync(dir).sort()).toEqual([LOCK_FILE, keep].sort());
    });
  });
});
