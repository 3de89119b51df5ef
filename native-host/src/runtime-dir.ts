import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../shared/src/node/atomic-write.js';
import { EndpointDescriptor, endpointFilePid } from '../../shared/src/node/endpoint-descriptor.js';
import { pidAlive } from '../../shared/src/node/pid.js';

/**
 * The per-user runtime directory holds host sockets and their descriptors. Anyone who can enter
 * it can talk to the hosts (the token still has to match), so it must be ours alone: a real
 * directory (not a symlink someone planted), owned by us, no group/other permission bits.
 */

export class RuntimeDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeDirError';
  }
}

export interface PrepareOptions {
  platform?: NodeJS.Platform;
  uid?: number;
}

/** Creates the runtime dir (0700) if missing and checks it is safe to use. Returns whether it created it. */
export function prepareRuntimeDir(dir: string, options: PrepareOptions = {}): { created: boolean } {
  const platform = options.platform ?? process.platform;
  let created = false;
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
    created = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
      return prepareRuntimeDir(dir, options);
    }
    if (code !== 'EEXIST') throw err;
  }
  // Mode bits and uids mean nothing for the pipe namespace on Windows; the dir only holds descriptors.
  if (platform === 'win32') return { created };
  if (created) fs.chmodSync(dir, 0o700); // the umask may have left it looser or tighter than asked
  const stat = fs.lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new RuntimeDirError(
      `${dir} is not a real directory (symlink or file); remove it and restart the host`,
    );
  }
  const uid = options.uid ?? (typeof process.getuid === 'function' ? process.getuid() : stat.uid);
  if (stat.uid !== uid) {
    throw new RuntimeDirError(
      `${dir} is owned by uid ${stat.uid}, not by this user (${uid}); remove it and restart`,
    );
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new RuntimeDirError(
      `${dir} is accessible by other users (mode ${(stat.mode & 0o777).toString(8)}); run \`chmod 700 ${dir}\` and restart`,
    );
  }
  return { created };
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
