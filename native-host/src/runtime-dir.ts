import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '#shared/node/atomic-write.js';
import {
  EndpointDescriptor,
  endpointFilePid,
  listDescriptorFiles,
} from '#shared/node/endpoint-descriptor.js';
import type { Logger } from '#shared/node/logger.js';
import { runtimeDirCandidates } from '#shared/node/paths.js';
import { pidAlive } from '#shared/node/pid.js';
import {
  checkRuntimeDir,
  type OwnerOptions,
  readRuntimeDirRecord,
  writeRuntimeDirRecord,
} from '#shared/node/runtime-dir.js';

/**
 * The host's side of the runtime dir: choose it, create it (0700), record it in `<home>`, and
 * keep it clean. The checks themselves are shared with every client
 * (`shared/src/node/runtime-dir.ts`).
 */

export interface PrepareOptions extends OwnerOptions {
  /** Create missing parents too (`<home>/run` in a fresh home); never for a folder in /tmp or XDG. */
  parents?: boolean;
}

/** Creates the runtime dir (0700) if missing and checks it is safe to use. Returns whether it created it. */
export function prepareRuntimeDir(dir: string, options: PrepareOptions = {}): { created: boolean } {
  let created = false;
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
    created = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.parents === true) {
      fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
      return prepareRuntimeDir(dir, { ...options, parents: false });
    }
    if (code !== 'EEXIST') throw err;
  }
  // Mode bits and uids mean nothing for the pipe namespace on Windows; the dir only holds descriptors.
  if ((options.platform ?? process.platform) === 'win32') return { created };
  if (created) fs.chmodSync(dir, 0o700); // the umask may have left it looser or tighter than asked
  checkRuntimeDir(dir, options);
  return { created };
}

export interface ChooseOptions extends OwnerOptions {
  env?: NodeJS.ProcessEnv;
  logger: Logger;
  isAlive?: (pid: number) => boolean;
  /** Where a fresh folder is made when no candidate fits (default /tmp). */
  tmpDir?: string;
}

/**
 * Picks, prepares and records the runtime dir. The record wins while it is usable and either
 * this environment has no better choice or other hosts live there (so every client still finds
 * every host); otherwise the environment's first choice (`$XDG_RUNTIME_DIR/xipe-<hash>`, then
 * `<home>/run`), else a fresh folder with a random name in /tmp, which no other user can plant
 * ahead of us. Throws RuntimeDirError when the chosen folder is unsafe.
 */
export function chooseRuntimeDir(home: string, options: ChooseOptions): string {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    const dir = path.join(home, 'run');
    prepareRuntimeDir(dir, { ...options, parents: true });
    return dir;
  }
  const { logger } = options;
  const preferred = runtimeDirCandidates(home, options.env, platform).find((dir) =>
    usableParent(dir, home, options),
  );
  let recorded: string | null = null;
  try {
    recorded = readRuntimeDirRecord(home, options);
  } catch (err) {
    logger.warn('runtime dir record ignored', { error: (err as Error).message });
  }
  if (
    recorded !== null &&
    (preferred === undefined || recorded === preferred || hasLiveHost(recorded, options))
  ) {
    try {
      prepareRuntimeDir(recorded, { ...options, parents: recorded === path.join(home, 'run') });
      return recorded;
    } catch (err) {
      logger.warn('recorded runtime dir not used', { dir: recorded, error: (err as Error).message });
    }
  }
  let dir: string;
  if (preferred !== undefined) {
    dir = preferred;
    prepareRuntimeDir(dir, { ...options, parents: dir === path.join(home, 'run') });
  } else {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    // mkdtemp makes it 0700 under a name nobody can guess ahead of us.
    dir = fs.mkdtempSync(path.join(options.tmpDir ?? '/tmp', `xipe-${uid}-`));
    prepareRuntimeDir(dir, options);
  }
  if (dir !== recorded) writeRuntimeDirRecord(home, dir);
  return dir;
}

/** `<home>/run` is always possible; an XDG folder only when `$XDG_RUNTIME_DIR` is a real folder of ours. */
function usableParent(dir: string, home: string, options: OwnerOptions): boolean {
  if (dir === path.join(home, 'run')) return true;
  try {
    return checkRuntimeDir(path.dirname(dir), options);
  } catch {
    return false;
  }
}

function hasLiveHost(dir: string, options: ChooseOptions): boolean {
  const isAlive = options.isAlive ?? pidAlive;
  return listDescriptorFiles(dir).some((file) => {
    const pid = endpointFilePid(file);
    return pid !== null && pid !== process.pid && isAlive(pid);
  });
}

/** Removes sockets/descriptors left by hosts that died without cleaning up. Returns the removed paths. */
export function removeStaleEndpoints(
  dir: string,
  ownPid: number,
  isAlive: (pid: number) => boolean = pidAlive,
): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const verdicts = new Map<number, boolean>();
  for (const name of names) {
    const pid = endpointFilePid(name);
    if (pid === null || pid === ownPid) continue;
    let alive = verdicts.get(pid);
    if (alive === undefined) {
      alive = isAlive(pid);
      verdicts.set(pid, alive);
    }
    if (alive) continue;
    const file = path.join(dir, name);
    try {
      fs.unlinkSync(file);
      removed.push(file);
    } catch {
      // another process cleaned it up first
    }
  }
  return removed;
}

/**
 * Writes the descriptor atomically, mode 0600. Not fsynced: it describes a socket that a reboot
 * removes, so only "whole or absent" matters, and host start-up stays fast.
 */
export function writeDescriptor(file: string, descriptor: EndpointDescriptor): void {
  const data = EndpointDescriptor.parse(descriptor);
  writeFileAtomicSync(file, `${JSON.stringify(data)}\n`, { mode: 0o600, durable: false });
}

/** Unlinks a file, ignoring one that is already gone. */
export function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone
  }
}
