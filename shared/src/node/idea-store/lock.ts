import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { XipeError } from '../../errors.js';
import { pidAlive } from '../pid.js';

/**
 * Cross-process lock per idea: the file `<uiux-references>/.lock`, published with link() so it
 * appears complete or not at all, holding the owner's pid, process start time, host name and a
 * random token. A lock whose owner is dead (a SIGKILLed host) is broken by the next waiter, so a
 * crash never wedges an idea; a live owner is waited for, up to a bound, then TIMEOUT.
 *
 * Within one process, saves to the same idea queue on a promise chain first, so the file lock is
 * only contended between processes.
 */

export const LOCK_FILE = '.lock';
const CANDIDATE_PREFIX = '.lock-';
const STALE_PREFIX = '.lock-stale-';
/** A lock file we cannot parse (written by something else) is treated as stale after this long. */
const UNREADABLE_STALE_MS = 10_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;

export const LockOwner = {
  parse(text: string): LockOwnerInfo | null {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null) return null;
      const v = value as Record<string, unknown>;
      if (typeof v.pid !== 'number' || typeof v.token !== 'string' || typeof v.hostname !== 'string') {
        return null;
      }
      return {
        pid: v.pid,
        token: v.token,
        hostname: v.hostname,
        start: typeof v.start === 'string' ? v.start : null,
        acquired_at: typeof v.acquired_at === 'string' ? v.acquired_at : '',
      };
    } catch {
      return null;
    }
  },
};

export interface LockOwnerInfo {
  pid: number;
  /** Kernel start time of the owner process (Linux), to detect pid reuse; null elsewhere. */
  start: string | null;
  hostname: string;
  token: string;
  acquired_at: string;
}

/** Start time of a process as the kernel reports it (Linux /proc), or null when unknown. */
export async function processStartTime(pid: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counted after the parenthesised command name, which may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** The owner is provably gone: same machine and its pid is dead or now belongs to another process. */
export async function ownerIsDead(owner: LockOwnerInfo): Promise<boolean> {
  if (owner.hostname !== os.hostname()) return false;
  if (!pidAlive(owner.pid)) return true;
  if (owner.start === null) return false;
  const now = await processStartTime(owner.pid);
  return now !== null && now !== owner.start;
}

let ownStart: Promise<string | null> | null = null;

export interface HeldLock {
  readonly file: string;
  readonly token: string;
  release(): Promise<void>;
}

export interface LockOptions {
  timeoutMs?: number;
  /** Called when a stale lock is broken (for logging). */
  onStale?: (owner: LockOwnerInfo | null) => void;
}

const inProcess = new Map<string, Promise<void>>();

/** Runs `fn` while holding the lock of `dir` (the idea's uiux-references folder). */
export async function withIdeaLock<T>(
  dir: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const previous = inProcess.get(dir) ?? Promise.resolve();
  let releaseQueue: () => void = () => undefined;
  const mine = new Promise<void>((resolve) => {
    releaseQueue = resolve;
  });
  const chain = previous.then(() => mine);
  inProcess.set(dir, chain);
  try {
    await previous;
    const lock = await acquireFileLock(dir, options);
    try {
      return await fn();
    } finally {
      await lock.release();
    }
  } finally {
    releaseQueue();
    if (inProcess.get(dir) === chain) inProcess.delete(dir);
  }
}

/** Acquires `<dir>/.lock`, waiting for a live owner and breaking a dead one's lock. */
export async function acquireFileLock(dir: string, options: LockOptions = {}): Promise<HeldLock> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const file = path.join(dir, LOCK_FILE);
  ownStart ??= processStartTime(process.pid);
  const owner: LockOwnerInfo = {
    pid: process.pid,
    start: await ownStart,
    hostname: os.hostname(),
    token: randomBytes(12).toString('hex'),
    acquired_at: new Date().toISOString(),
  };
  const candidate = path.join(dir, `${CANDIDATE_PREFIX}${process.pid}-${owner.token}`);
  try {
    await fs.writeFile(candidate, JSON.stringify(owner), { flag: 'wx', mode: 0o644 });
  } catch (err) {
    // A full disk can fail the write after the file was created: never leave it behind.
    await fs.rm(candidate, { force: true }).catch(() => undefined);
    throw err;
  }
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  let lastOwner: LockOwnerInfo | null = null;
  try {
    for (;;) {
      try {
        await fs.link(candidate, file);
        return {
          file,
          token: owner.token,
          release: () => releaseFileLock(file, owner.token),
        };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST') throw err;
      }
      const current = await readLock(file);
      if (current !== 'missing') {
        lastOwner = current.owner;
        const stale =
          current.owner === null
            ? Date.now() - current.mtimeMs > UNREADABLE_STALE_MS
            : await ownerIsDead(current.owner);
        if (stale) {
          await breakStaleLock(dir, file, current.raw);
          options.onStale?.(current.owner);
          continue;
        }
      } else {
        continue;
      }
      if (Date.now() >= deadline) {
        throw new XipeError(
          'TIMEOUT',
          `Timed out after ${timeoutMs} ms waiting for the lock of ${dir} (held by pid ${lastOwner?.pid ?? 'unknown'}). ` +
            'Another save is still running; try again, or remove the .lock file if no x-ipe-uiux process is running.',
          { lock: file, owner: lastOwner },
        );
      }
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 25);
    }
  } finally {
    await fs.rm(candidate, { force: true }).catch(() => undefined);
  }
}

type LockState = 'missing' | { raw: string; owner: LockOwnerInfo | null; mtimeMs: number };

async function readLock(file: string): Promise<LockState> {
  try {
    const [raw, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    return { raw, owner: LockOwner.parse(raw), mtimeMs: stat.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
}

/**
 * Removes the lock file only if it is still the stale one we inspected: it is first renamed to a
 * private name (atomic), then compared. If another waiter broke it and a live process took the
 * lock in between, we moved that live lock; it is put back with link(), which cannot clobber.
 */
async function breakStaleLock(dir: string, file: string, staleRaw: string): Promise<void> {
  const aside = path.join(dir, `${STALE_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    await fs.rename(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await fs.readFile(aside, 'utf8').catch(() => staleRaw);
  if (moved !== staleRaw) {
    await fs.link(aside, file).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}

async function releaseFileLock(file: string, token: string): Promise<void> {
  const current = await readLock(file).catch(() => 'missing' as const);
  if (current === 'missing' || current.owner?.token !== token) return; // broken by someone else
  await fs.rm(file, { force: true });
}

/** Leftover lock candidates/stale copies of dead processes (a SIGKILL between create and rm). */
export async function removeDeadLockLeftovers(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(CANDIDATE_PREFIX)) continue;
    const rest = name.startsWith(STALE_PREFIX)
      ? name.slice(STALE_PREFIX.length)
      : name.slice(CANDIDATE_PREFIX.length);
    const pid = Number.parseInt(rest.split('-')[0] ?? '', 10);
    if (Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) {
      await fs.rm(path.join(dir, name), { force: true }).catch(() => undefined);
    }
  }
}
