import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatZodError } from '../validation-issues.js';

/**
 * How clients find hosts. Each live host listens on `<runtime dir>/h-<pid>.sock` (a named pipe on
 * Windows) and writes `<runtime dir>/h-<pid>.json` (mode 0600) describing it; both are removed on
 * exit. Clients list the descriptors; one whose pid is dead, or whose file does not parse, is
 * stale. This file is the one place that knows the names.
 */
export const EndpointDescriptor = z.object({
  pid: z.number().int().positive(),
  endpoint: z.string().min(1),
  protocol: z.number().int(),
  host_version: z.string(),
  started_at: z.string(),
});
export type EndpointDescriptor = z.infer<typeof EndpointDescriptor>;

const ENDPOINT_FILE = /^h-(\d+)\.(json|sock)$/;

/**
 * `<home>/runtime-dir.json` names the runtime dir the hosts chose (`{"dir": "/abs/path"}`, mode
 * 0600). The browser's host and an agent's MCP server may see different environments (SSH, sudo,
 * CI: one has `$XDG_RUNTIME_DIR`, the other not), so the host's choice is written down where both
 * look: the home they share.
 */
export const RUNTIME_DIR_RECORD_FILE = 'runtime-dir.json';
export const RuntimeDirRecord = z.object({
  dir: z
    .string()
    .min(2)
    .max(200)
    .refine((dir) => path.isAbsolute(dir) && path.normalize(dir) === dir && !dir.includes('\0'), {
      message: 'an absolute, normalised path',
    }),
});
export type RuntimeDirRecord = z.infer<typeof RuntimeDirRecord>;

export const descriptorFileName = (pid: number): string => `h-${pid}.json`;
export const socketFileName = (pid: number): string => `h-${pid}.sock`;

/** The pid in a host's descriptor or socket file name, or null for any other name. */
export function endpointFilePid(name: string): number | null {
  const match = ENDPOINT_FILE.exec(name);
  return match === null ? null : Number(match[1]);
}

export const isDescriptorFileName = (name: string): boolean =>
  name.endsWith('.json') && endpointFilePid(name) !== null;

/**
 * The descriptor file names in `dir`, sorted; none when it does not exist. Synchronous on purpose:
 * a directory of a few entries lists in microseconds, an async readdir costs a thread-pool round trip.
 */
export function listDescriptorFiles(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter(isDescriptorFileName).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Reads and validates a descriptor; throws an Error saying why it is unusable. */
export async function readDescriptor(file: string): Promise<EndpointDescriptor> {
  const json: unknown = JSON.parse(await fs.promises.readFile(file, 'utf8'));
  const parsed = EndpointDescriptor.safeParse(json);
  if (!parsed.success) throw new Error(formatZodError(parsed.error, json));
  return parsed.data;
}
