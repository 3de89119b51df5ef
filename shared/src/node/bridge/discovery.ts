import fs from 'node:fs';
import path from 'node:path';
import type { ErrorPayload } from '../../errors.js';
import { type EndpointDescriptor, listDescriptorFiles, readDescriptor } from '../endpoint-descriptor.js';
import { runtimeDir } from '../paths.js';
import { pidAlive } from '../pid.js';

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

export interface InspectOptions {
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
  /** Descriptors of live hosts, in file name order. */
  live: EndpointDescriptor[];
  /** Descriptor files that do not parse or whose pid is gone (left for the hosts to clean up). */
  stale: string[];
}

/** The hosts of `home`'s runtime dir, split into live ones and stale descriptor files. */
export async function scanRuntimeDir(home: string, options: InspectOptions = {}): Promise<RuntimeDirScan> {
  const dir = runtimeDir(home);
  const scan: RuntimeDirScan = { dir, live: [], stale: [] };
  for (const found of await discoverHosts(dir, options)) {
    if (found.pidAlive && found.descriptor !== null) scan.live.push(found.descriptor);
    else scan.stale.push(found.path);
  }
  return scan;
}
