import fs from 'node:fs';
import path from 'node:path';
import { XipeError } from '../errors.js';
import { formatZodError } from '../validation-issues.js';
import { writeFileAtomicSync } from './atomic-write.js';
import { type EndpointDescriptor, RuntimeDirRecord, socketFileName } from './endpoint-descriptor.js';
import { runtimeDirCandidates, runtimeDirRecordPath, socketFits } from './paths.js';

/**
 * The checks that make the runtime dir ours alone, applied by the host before it listens and by
 * every client (MCP server, CLI probes) before it connects. Whoever controls the folder controls
 * which sockets a client finds, so a client that trusted a folder planted by another local user
 * would talk to that user's impostor host and show the agent whatever it says. Checked with
 * lstat, never following a link: the folder is a real directory owned by us with no
 * group/other permission bits; its record in `<home>` and every descriptor are regular files
 * owned by us, 0600; every socket is owned by us and sits in the folder under its pid's name.
 * Once the folder is ours, nobody else can swap what is inside it.
 */

/** A runtime dir, its record or an endpoint that is not safe to use: the client refuses it. */
export class RuntimeDirError extends XipeError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('UNAUTHORIZED', message, details);
    this.name = 'RuntimeDirError';
  }
}

export interface OwnerOptions {
  /** The uid that must own everything; default: this process's. */
  uid?: number;
  platform?: NodeJS.Platform;
}

const ownUid = (options: OwnerOptions, fallback: number): number =>
  options.uid ?? (typeof process.getuid === 'function' ? process.getuid() : fallback);

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(3, '0');

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Checks that `dir` is a real directory owned by us with no group/other bits. False when it does
 * not exist; throws RuntimeDirError, saying what is wrong and what to do, when it is unsafe.
 */
export function checkRuntimeDir(dir: string, options: OwnerOptions = {}): boolean {
  if ((options.platform ?? process.platform) === 'win32') return fs.existsSync(dir);
  const stat = lstatOrNull(dir);
  if (stat === null) return false;
  const fix = `remove it (\`rm -r '${dir}'\` as its owner) and reload the extension so the host makes a new one`;
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new RuntimeDirError(`The runtime dir ${dir} is not a real directory (symlink or file): ${fix}.`, {
      runtime_dir: dir,
    });
  }
  const uid = ownUid(options, stat.uid);
  if (stat.uid !== uid) {
    throw new RuntimeDirError(
      `The runtime dir ${dir} is owned by uid ${stat.uid}, not by this user (${uid}): another user may have planted it; ${fix}.`,
      { runtime_dir: dir, owner_uid: stat.uid, uid },
    );
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new RuntimeDirError(
      `The runtime dir ${dir} is accessible by other users (mode ${octal(stat.mode)}, expected 700): run \`chmod 700 '${dir}'\` and reload the extension.`,
      { runtime_dir: dir, mode: octal(stat.mode) },
    );
  }
  return true;
}

/** Checks a file the host wrote for us (record, descriptor): regular, owned by us, 0600. */
function checkOwnFile(file: string, what: string, stat: fs.Stats, options: OwnerOptions): void {
  const uid = ownUid(options, stat.uid);
  const fix = 'delete it and reload the extension so the host writes it again';
  if (!stat.isFile())
    throw new RuntimeDirError(`The ${what} ${file} is not a regular file: ${fix}.`, { file });
  if (stat.uid !== uid) {
    throw new RuntimeDirError(
      `The ${what} ${file} is owned by uid ${stat.uid}, not by this user (${uid}), so it is not trusted: ${fix}.`,
      { file, owner_uid: stat.uid, uid },
    );
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new RuntimeDirError(
      `The ${what} ${file} has mode ${octal(stat.mode)} (expected 600; other users could change it): ${fix}.`,
      { file, mode: octal(stat.mode) },
    );
  }
}

/**
 * The runtime dir recorded in `<home>`, checked as a file of ours; null when there is no record.
 * Throws RuntimeDirError when the record is unsafe or does not parse.
 */
export function readRuntimeDirRecord(home: string, options: OwnerOptions = {}): string | null {
  const file = runtimeDirRecordPath(home);
  const stat = lstatOrNull(file);
  if (stat === null) return null;
  if ((options.platform ?? process.platform) !== 'win32')
    checkOwnFile(file, 'runtime dir record', stat, options);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new RuntimeDirError(
      `The runtime dir record ${file} is not JSON (${(err as Error).message}): delete it and reload the extension.`,
      { file },
    );
  }
  const parsed = RuntimeDirRecord.safeParse(json);
  if (!parsed.success) {
    throw new RuntimeDirError(
      `The runtime dir record ${file} is invalid (${formatZodError(parsed.error, json)}): delete it and reload the extension.`,
      { file },
    );
  }
  if (!socketFits(parsed.data.dir)) {
    throw new RuntimeDirError(
      `The runtime dir record ${file} names ${parsed.data.dir}, too long for a socket path: delete it and reload the extension.`,
      { file },
    );
  }
  return parsed.data.dir;
}

/** Records the chosen runtime dir in `<home>` (atomic, 0600). */
export function writeRuntimeDirRecord(home: string, dir: string): void {
  const record = RuntimeDirRecord.parse({ dir });
  writeFileAtomicSync(runtimeDirRecordPath(home), `${JSON.stringify(record)}\n`, {
    mode: 0o600,
    durable: false,
  });
}

export interface TrustedRuntimeDir {
  dir: string;
  /** False when the folder does not exist (no host has started there). */
  exists: boolean;
  /** Whether `dir` came from the record in `<home>` (else from this process's environment). */
  recorded: boolean;
}

/**
 * Client side: the runtime dir to look in — the recorded one, else this environment's first
 * choice — checked before anything in it is read. Throws RuntimeDirError when the record or the
 * folder is unsafe.
 */
export function trustedRuntimeDir(
  home: string,
  options: OwnerOptions & { env?: NodeJS.ProcessEnv } = {},
): TrustedRuntimeDir {
  const platform = options.platform ?? process.platform;
  const recordedDir = platform === 'win32' ? null : readRuntimeDirRecord(home, options);
  const dir = recordedDir ?? runtimeDirCandidates(home, options.env, platform)[0] ?? path.join(home, 'run');
  return { dir, exists: checkRuntimeDir(dir, options), recorded: recordedDir !== null };
}

/**
 * Client side, before connecting: the descriptor file is ours (0600) and its endpoint is a
 * socket of ours in `dir`, named for the descriptor's pid. Throws RuntimeDirError otherwise.
 */
export function checkEndpoint(
  dir: string,
  descriptorFile: string,
  descriptor: EndpointDescriptor,
  options: OwnerOptions = {},
): void {
  if ((options.platform ?? process.platform) === 'win32') return;
  const stat = lstatOrNull(descriptorFile);
  if (stat === null) {
    throw new XipeError(
      'BACKEND_UNREACHABLE',
      `The host descriptor ${descriptorFile} vanished (its host exited).`,
    );
  }
  checkOwnFile(descriptorFile, 'host descriptor', stat, options);
  const expected = path.join(dir, socketFileName(descriptor.pid));
  if (descriptor.endpoint !== expected) {
    throw new RuntimeDirError(
      `The host descriptor ${descriptorFile} names the endpoint ${descriptor.endpoint}, not ${expected} in the runtime dir: it is not used; delete it.`,
      { file: descriptorFile, endpoint: descriptor.endpoint },
    );
  }
  const socket = lstatOrNull(expected);
  if (socket === null) {
    throw new XipeError('BACKEND_UNREACHABLE', `Host pid ${descriptor.pid} has no socket at ${expected}.`, {
      endpoint: expected,
    });
  }
  const uid = ownUid(options, socket.uid);
  if (!socket.isSocket() || socket.uid !== uid || (socket.mode & 0o077) !== 0) {
    throw new RuntimeDirError(
      `The endpoint ${expected} is not a socket of this user's (${socket.isSocket() ? 'socket' : 'not a socket'}, owner uid ${socket.uid}, mode ${octal(socket.mode)}; expected a socket owned by uid ${uid}, mode 600): it is not used; delete it and reload the extension.`,
      { endpoint: expected, owner_uid: socket.uid, uid },
    );
  }
}
