import fs from 'node:fs';
import path from 'node:path';
import { type ErrorPayload, toErrorPayload } from '../../errors.js';
import { type EndpointDescriptor, listDescriptorFiles, readDescriptor } from '../endpoint-descriptor.js';
import { runtimeDir } from '../paths.js';
import { pidAlive } from '../pid.js';
import { checkEndpoint, type OwnerOptions, trustedRuntimeDir } from '../runtime-dir.js';

/** One descriptor file in the runtime dir and what it says about its host. */
export interface FoundHost {
  /** The file name (`h-<pid>.json`): identifies the host for its lifetime. */
  file: string;
  path: string;
  /** Null when the file does not parse. */
  descriptor: EndpointDescriptor | null;
  pidAlive: boolean;
  /** Why this host cannot be used (unreadable or stale descriptor), else null. */
  error: ErrorPayload | null;
}

export interface InspectOptions extends OwnerOptions {
  isPidAlive?: (pid: number) => boolean;
  /**
   * Remove the descriptor of a dead host (it was killed before cleaning up). The MCP server does;
   * the CLI only looks and leaves it to the next host's start-up clean-up.
   */
  removeStale?: boolean;
}

/** Reads one descriptor file and checks that its host process is alive. Never throws. */
export async function inspectDescriptor(
  dir: string,
  file: string,
  options: InspectOptions = {},
): Promise<FoundHost> {
  const descriptorPath = path.join(dir, file);
  let descriptor: EndpointDescriptor;
  try {
    descriptor = await readDescriptor(descriptorPath);
  } catch (err) {
    const message = `Unreadable descriptor ${descriptorPath} (${(err as Error).message}); it is ignored.`;
    return {
      file,
      path: descriptorPath,
      descriptor: null,
      pidAlive: false,
      error: { code: 'PROTOCOL_ERROR', message },
    };
  }
  if (!(options.isPidAlive ?? pidAlive)(descriptor.pid)) {
    if (options.removeStale === true) fs.promises.unlink(descriptorPath).catch(() => {});
    const message = `Stale descriptor of dead host pid ${descriptor.pid}${options.removeStale === true ? ' (removed)' : ''}.`;
    return {
      file,
      path: descriptorPath,
      descriptor,
      pidAlive: false,
      error: { code: 'BACKEND_UNREACHABLE', message },
    };
  }
  try {
    checkEndpoint(dir, descriptorPath, descriptor, options);
  } catch (err) {
    return { file, path: descriptorPath, descriptor, pidAlive: true, error: toErrorPayload(err) };
  }
  return { file, path: descriptorPath, descriptor, pidAlive: true, error: null };
}

/** Every descriptor in the runtime dir, inspected; a missing or unlistable dir finds none. */
export async function discoverHosts(dir: string, options: InspectOptions = {}): Promise<FoundHost[]> {
  let files: string[];
  try {
    files = listDescriptorFiles(dir);
  } catch {
    return [];
  }
  return Promise.all(files.map((file) => inspectDescriptor(dir, file, options)));
}

export interface RuntimeDirScan {
  dir: string;
  /** Why the runtime dir (or its record) was refused, else null: then nothing in it was read. */
  refused: ErrorPayload | null;
  /** Live hosts whose descriptor or socket failed the checks: never connected to. */
  unusable: ErrorPayload[];
  /** Descriptors of live hosts, in file name order. */
  live: EndpointDescriptor[];
  /** Descriptor files that do not parse or whose pid is gone (left for the hosts to clean up). */
  stale: string[];
}

/**
 * The hosts of `home`'s runtime dir (the recorded one, checked: `trustedRuntimeDir`), split into
 * live ones whose descriptor and socket passed the checks, refused ones, and stale descriptor files.
 */
export async function scanRuntimeDir(home: string, options: InspectOptions = {}): Promise<RuntimeDirScan> {
  let dir = runtimeDir(home, options.platform);
  try {
    const trusted = trustedRuntimeDir(home, options);
    dir = trusted.dir;
    if (!trusted.exists) return { dir, refused: null, unusable: [], live: [], stale: [] };
  } catch (err) {
    return { dir, refused: toErrorPayload(err), unusable: [], live: [], stale: [] };
  }
  const scan: RuntimeDirScan = { dir, refused: null, unusable: [], live: [], stale: [] };
  for (const found of await discoverHosts(dir, options)) {
    if (found.pidAlive && found.descriptor !== null && found.error === null) scan.live.push(found.descriptor);
    else if (found.pidAlive && found.error !== null) scan.unusable.push(found.error);
    else scan.stale.push(found.path);
  }
  return scan;
}
