import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { XipeError } from '../errors.js';
import { tokenPath } from './paths.js';

/**
 * The bridge's shared secret lives in `<home>/token`, mode 0600. Whoever can read it can drive the
 * user's browser, and whoever can write it can make our MCP server trust their host, so a token
 * file that other users can reach is never used silently: a loose mode on a file we own is
 * repaired (with a warning), a file owned by another user is refused.
 */

export interface TokenFileOptions {
  /** Told (once per repair) when group/other permission bits were removed. Default: stderr. */
  onRepaired?: (message: string) => void;
  /** The uid that must own the file; default: this process's. */
  uid?: number;
  platform?: NodeJS.Platform;
}

export type TokenFileProblem =
  | { kind: 'foreign-owner'; owner: number; uid: number }
  | { kind: 'loose-mode'; mode: number };

/** What is unsafe about a token file's owner or mode (POSIX), or null. */
export function tokenFileProblem(stat: { mode: number; uid: number }, uid: number): TokenFileProblem | null {
  if (stat.uid !== uid) return { kind: 'foreign-owner', owner: stat.uid, uid };
  if ((stat.mode & 0o077) !== 0) return { kind: 'loose-mode', mode: stat.mode & 0o777 };
  return null;
}

/** The refusal for a token file owned by someone else, with what to do about it. */
export function foreignTokenError(file: string, owner: number, uid: number): XipeError {
  return new XipeError(
    'UNAUTHORIZED',
    `The bridge token file ${file} is owned by uid ${owner}, not by you (uid ${uid}), so it is not used: ` +
      `another user could read or replace it. Delete it as its owner (e.g. \`sudo rm '${file}'\`) and run ` +
      '`x-ipe-uiux install` as yourself, or point XIPE_UIUX_HOME at a directory of your own.',
    { token_file: file, owner_uid: owner, uid },
  );
}

/** Creates the shared secret (mode 0600) if missing and returns it. */
export function ensureToken(home: string, options: TokenFileOptions = {}): string {
  const file = tokenPath(home);
  const existing = readToken(home, options);
  if (existing !== null) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('hex');
  try {
    // wx: never clobber a token another process created a moment ago.
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readToken(home, options);
      if (raced !== null) return raced;
    }
    throw err;
  }
}

/**
 * The token, or null when the file is missing or empty. Throws (UNAUTHORIZED) when another user
 * owns the file; tightens a loose mode to 0600 first. Owner and mode are checked on the opened
 * file, so they are those of the bytes we read.
 */
export function readToken(home: string, options: TokenFileOptions = {}): string | null {
  const file = tokenPath(home);
  const posix = (options.platform ?? process.platform) !== 'win32';
  let fd: number;
  try {
    // Non-blocking, so a FIFO planted as the token cannot hang us in open().
    fd = fs.openSync(file, posix ? fs.constants.O_RDONLY | fs.constants.O_NONBLOCK : 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    if (posix) checkTokenFile(fd, file, options);
    const value = fs.readFileSync(fd, 'utf8').trim();
    return value === '' ? null : value;
  } finally {
    fs.closeSync(fd);
  }
}

function checkTokenFile(fd: number, file: string, options: TokenFileOptions): void {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    throw new XipeError(
      'UNAUTHORIZED',
      `The bridge token file ${file} is not a regular file, so it is not used: remove it and run \`x-ipe-uiux install\`.`,
      { token_file: file },
    );
  }
  const uid = options.uid ?? (typeof process.getuid === 'function' ? process.getuid() : stat.uid);
  const problem = tokenFileProblem(stat, uid);
  if (problem === null) return;
  if (problem.kind === 'foreign-owner') throw foreignTokenError(file, problem.owner, problem.uid);
  fs.fchmodSync(fd, 0o600);
  const report =
    options.onRepaired ?? ((message: string) => process.stderr.write(`x-ipe-uiux: warning: ${message}\n`));
  report(
    `the bridge token file ${file} had mode ${problem.mode.toString(8).padStart(4, '0')} (other users could reach it); ` +
      `it was set to 0600. If another user may have read it, delete it and run \`x-ipe-uiux install\` for a new one.`,
  );
}

/** Constant-time comparison so the token cannot be guessed byte by byte. */
export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
