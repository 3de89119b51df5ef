import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { descriptorFileName, socketFileName } from './endpoint-descriptor.js';

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

/**
 * Directory holding live host endpoints (sockets) and their descriptor files. `<home>/run` when a
 * socket path there fits the limit; otherwise a short directory in /tmp whose name is derived from
 * the home path, so every process computing it from the same home agrees without a lookup.
 */
export function runtimeDir(home: string, platform = process.platform): string {
  const inHome = path.join(home, 'run');
  if (platform === 'win32') return inHome;
  if (Buffer.byteLength(inHome) + 1 + SOCKET_NAME_BYTES <= MAX_SOCKET_PATH_BYTES) return inHome;
  const digest = createHash('sha256').update(home).digest('hex').slice(0, 12);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return path.join('/tmp', `xipe-${uid}-${digest}`);
}

/** Where a host listens: a Unix socket in the runtime dir, or a named pipe on Windows. */
export function endpointPath(home: string, pid: number, platform = process.platform): string {
  if (platform === 'win32') {
    const digest = createHash('sha256').update(home).digest('hex').slice(0, 12);
    return `\\\\.\\pipe\\xipe-uiux-${digest}-${pid}`;
  }
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
