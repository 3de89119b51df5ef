import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { XipeError } from '../../errors.js';
import { pidAlive } from '../pid.js';

/**
 * Cross-process lock per idea: the file `<uiux-references>/.lock`, published with link() so it
 * appears complete or not at all, holding the owner's pid, process start time, host name and a
 * random token. A lock whose owner is dead (a SIGKILLed host) is broken by the next waiter, so a
 * crash never wedges an idea; a live owner is waited for, up to a bound, then TIMEOUT.
 *
 * Breaking must never touch a live lock. Between reading the dead owner's record and removing the
 * file, another waiter may already have broken it and a live process taken the lock: removing the
 * file then would leave that owner writing without a lock, next to whoever takes it next. So only
 * one waiter at a time may break a given lock instance: it first publishes a break marker named
 * after that instance's content (`link()`, so exactly one succeeds), then reads the lock again,
 * and removes it only if it is still that instance. Nobody else removes that instance meanwhile
 * (its owner is dead, other breakers lost the marker), so the check cannot go stale. A breaker that
 * dies holding the marker is passed over like a dead owner: the next waiter takes the marker of the
 * next generation.
 *
 * Within one process, saves to the same idea queue on a promise chain first, so the file lock is
 * only contended between processes.
 */

export const LOCK_FILE = '.lock';
const CANDIDATE_PREFIX = '.lock-';
const STALE_PREFIX = '.lock-stale-';
/** `.lock-break-<content hash>-<generation>`: who is breaking one dead lock instance. */
const BREAK_PREFIX = '.lock-break-';
/** Breakers that died in a row on one lock before the waiters give up breaking it (then TIMEOUT). */
const MAX_BREAK_GENERATIONS = 8;
/** A lock file we cannot parse (written by something else) is treated as stale after this long. */
const UNREADABLE_STALE_MS = 10_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;

/** The record in a lock file (and in break markers). Extra keys are ignored. */
export const LockOwner = z.object({
  pid: z.number().int().positive(),
  /** Kernel start time of the owner process (Linux), to detect pid reuse; null elsewhere. */
  start: z.string().nullable().catch(null),
  hostname: z.string(),
  token: z.string().min(1),
  acquired_at: z.string().catch(''),
});
export type LockOwnerInfo = z.infer<typeof LockOwner>;

/** The owner named by a lock file's text, or null when it is not a lock record we wrote. */
export function parseLockOwner(text: string): LockOwnerInfo | null {
  try {
    const parsed = LockOwner.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
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
        // Broken: try again at once. Not ours to break (another waiter is at it): wait like for a
        // live owner.
        if (stale && (await breakStaleLock(dir, file, current.raw, candidate))) {
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
    return { raw, owner: parseLockOwner(raw), mtimeMs: stat.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
}

/**
 * Removes the lock file if it is still the dead instance `staleRaw`, holding that instance's break
 * marker (see the header). `candidate` is our own complete owner record, published as the marker.
 * Returns whether the lock was broken by us; false when another waiter is breaking it or it is no
 * longer that instance (either way the caller just tries again).
 */
async function breakStaleLock(
  dir: string,
  file: string,
  staleRaw: string,
  candidate: string,
): Promise<boolean> {
  const instance = instanceOf(staleRaw);
  const markers: string[] = [];
  for (let generation = 0; generation < MAX_BREAK_GENERATIONS; generation += 1) {
    const marker = path.join(dir, `${BREAK_PREFIX}${instance}-${generation}`);
    markers.push(marker);
    try {
      await fs.link(candidate, marker);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const breaker = parseLockOwner(await fs.readFile(marker, 'utf8').catch(() => ''));
      // A live breaker is at work (or this marker is not ours to judge): leave it to them.
      if (breaker === null || !(await ownerIsDead(breaker))) return false;
      continue; // that breaker died: the next generation is free to take over
    }
    try {
      const current = await readLock(file);
      if (current === 'missing' || current.raw !== staleRaw) return false;
      const aside = path.join(dir, `${STALE_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
      await fs.rename(file, aside);
      await fs.rm(aside, { force: true });
      return true;
    } finally {
      // The instance is gone (or was never there): its markers can never be needed again.
      await Promise.all(markers.map((m) => fs.rm(m, { force: true }).catch(() => undefined)));
    }
  }
  return false;
}

async function releaseFileLock(file: string, token: string): Promise<void> {
  const current = await readLock(file).catch(() => 'missing' as const);
  if (current === 'missing' || current.owner?.token !== token) return; // broken by someone else
  await fs.rm(file, { force: true });
}

/**
 * Leftovers of processes killed mid-way: lock candidates and stale copies of dead processes, and
 * break markers of a lock instance that is gone (it can never come back, so nobody needs them).
 */
export async function removeDeadLockLeftovers(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  const current = await readLock(path.join(dir, LOCK_FILE)).catch(() => 'missing' as const);
  const liveInstance = current === 'missing' ? null : instanceOf(current.raw);
  for (const name of names) {
    if (!name.startsWith(CANDIDATE_PREFIX)) continue;
    if (name.startsWith(BREAK_PREFIX)) {
      if (name.slice(BREAK_PREFIX.length).split('-')[0] !== liveInstance) {
        await fs.rm(path.join(dir, name), { force: true }).catch(() => undefined);
      }
      continue;
    }
    const rest = name.startsWith(STALE_PREFIX)
      ? name.slice(STALE_PREFIX.length)
      : name.slice(CANDIDATE_PREFIX.length);
    const pid = Number.parseInt(rest.split('-')[0] ?? '', 10);
    if (Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) {
      await fs.rm(path.join(dir, name), { force: true }).catch(() => undefined);
    }
  }
}

/** Names one lock instance: its content holds a random token, so no two instances share it. */
function instanceOf(raw: string): string {
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}
