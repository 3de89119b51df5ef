import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  descriptorFileName,
  RUNTIME_DIR_RECORD_FILE,
  RuntimeDirRecord,
  socketFileName,
} from './endpoint-descriptor.js';

/**
 * Everything per-user lives under one home directory. `XIPE_UIUX_HOME` overrides it (tests isolate
 * themselves this way); otherwise it is the platform's config directory.
 */
export function xipeHome(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const override = env.XIPE_UIUX_HOME;
  if (override !== undefined && override !== '') return path.resolve(override);
  const home = env.HOME ?? os.homedir();
  if (platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'x-ipe-uiux');
  }
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'x-ipe-uiux');
  const xdg = env.XDG_CONFIG_HOME;
  return path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(home, '.config'), 'x-ipe-uiux');
}

/** Unix socket paths are limited to ~107 bytes (104 on macOS); keep a margin. */
export const MAX_SOCKET_PATH_BYTES = 100;
const SOCKET_NAME_BYTES = socketFileName(4194304).length;

/** Whether a host socket in `dir` stays within the socket path limit. */
export const socketFits = (dir: string): boolean =>
  Buffer.byteLength(dir) + 1 + SOCKET_NAME_BYTES <= MAX_SOCKET_PATH_BYTES;

const homeDigest = (home: string): string => createHash('sha256').update(home).digest('hex').slice(0, 12);

/**
 * The runtime dirs this environment would choose, best first: `$XDG_RUNTIME_DIR/xipe-<hash of
 * home>` (a per-user 0700 folder the system creates at login, so nobody else can plant ours
 * there), then `<home>/run`; only those where a socket path fits. None fit for a long home
 * without `$XDG_RUNTIME_DIR`: the host then makes a fresh folder of its own in /tmp and records it.
 */
export function runtimeDirCandidates(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string[] {
  const inHome = path.join(home, 'run');
  if (platform === 'win32') return [inHome];
  const candidates: string[] = [];
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg !== undefined && path.isAbsolute(xdg)) candidates.push(path.join(xdg, `xipe-${homeDigest(home)}`));
  candidates.push(inHome);
  return candidates.filter(socketFits);
}

export const runtimeDirRecordPath = (home: string): string => path.join(home, RUNTIME_DIR_RECORD_FILE);

/**
 * The runtime dir recorded in `<home>`, or null when none is recorded or the record does not
 * parse. Not checked: it names where to look; a client checks the record, the folder and every
 * endpoint (`trustedRuntimeDir`, `checkEndpoint`) before it connects.
 */
export function recordedRuntimeDir(home: string): string | null {
  try {
    const parsed = RuntimeDirRecord.safeParse(
      JSON.parse(fs.readFileSync(runtimeDirRecordPath(home), 'utf8')),
    );
    return parsed.success ? parsed.data.dir : null;
  } catch {
    return null;
  }
}

/**
 * Where the hosts of `home` are: the recorded dir, else this environment's first choice, else
 * `<home>/run` (where no host can be: nothing to find).
 */
export function runtimeDir(home: string, platform = process.platform, env = process.env): string {
  const inHome = path.join(home, 'run');
  if (platform === 'win32') return inHome;
  return recordedRuntimeDir(home) ?? runtimeDirCandidates(home, env, platform)[0] ?? inHome;
}

/** A host's named pipe on Windows: per home and pid (pipes have no folders). */
export const pipePath = (home: string, pid: number): string =>
  `\\\\.\\pipe\\xipe-uiux-${homeDigest(home)}-${pid}`;

/** Where a host listens: a Unix socket in the runtime dir, or a named pipe on Windows. */
export function endpointPath(home: string, pid: number, platform = process.platform): string {
  if (platform === 'win32') return pipePath(home, pid);
  return path.join(runtimeDir(home, platform), socketFileName(pid));
}

/** Descriptor written next to the endpoint so clients can discover hosts (works for pipes too). */
export function endpointDescriptorPath(home: string, pid: number, platform = process.platform): string {
  return path.join(runtimeDir(home, platform), descriptorFileName(pid));
}

export const tokenPath = (home: string): string => path.join(home, 'token');
export const configPath = (home: string): string => path.join(home, 'config.json');
export const logsDir = (home: string): string => path.join(home, 'logs');
export const binDir = (home: string): string => path.join(home, 'bin');
