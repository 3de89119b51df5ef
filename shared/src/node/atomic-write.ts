import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { XipeError } from '../errors.js';

/**
 * The one way files are written: a temp file in the same directory (created with O_EXCL, so it is
 * never someone else's file), written, fsynced, then moved into place and the directory fsynced. A
 * crash at any point leaves the old state or the new one, never a partial file; a leftover temp
 * file is named `.tmp-…`, which no scan mistakes for a session, screenshot or host descriptor.
 * `writeFileAtomic` (async) serves the idea store, `writeFileAtomicSync` the CLI's configs,
 * manifests and launchers, config.json and the host's descriptor.
 */

export const TEMP_PREFIX = '.tmp-';

export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX);
}

function tempPath(dir: string): string {
  return path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
}

export function toWriteError(target: string, err: unknown): XipeError {
  if (err instanceof XipeError) return err;
  const e = err as NodeJS.ErrnoException;
  const code = typeof e?.code === 'string' ? e.code : 'ERROR';
  const message = e instanceof Error ? e.message : String(err);
  return new XipeError('WRITE_ERROR', `Cannot write ${target}: ${code} ${message}`, {
    path: target,
    os_code: code,
  });
}

/** Windows cannot open directories; some file systems refuse fsync on them. Not fatal. */
function dirSyncUnsupported(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EISDIR' || code === 'EPERM' || code === 'EINVAL' || code === 'EACCES';
}

/** fsync a directory so a rename/link in it survives a power loss; unsupported on some platforms. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | null = null;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    if (!dirSyncUnsupported(err)) throw err;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function writeTemp(dir: string, data: string | Uint8Array): Promise<string> {
  const tmp = tempPath(dir);
  const handle = await fs.open(tmp, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  await handle.close();
  return tmp;
}

export interface AtomicWriteOptions {
  /**
   * false (default): the target must not exist (sessions, screenshots are append-only); an
   * existing file makes the write fail with EEXIST and leaves it untouched.
   * true: replace the target (the merged view).
   */
  overwrite?: boolean;
  /** Skip the directory fsync when the caller does one for a batch of files. */
  syncDir?: boolean;
}

/**
 * Writes `file` atomically. Without `overwrite`, `link()` publishes the temp file: it is atomic and,
 * unlike rename, refuses to replace an existing name. Errors are raw OS errors (the caller maps
 * them); EEXIST means the name was taken.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(file);
  const tmp = await writeTemp(dir, data);
  try {
    if (options.overwrite === true) {
      await fs.rename(tmp, file);
    } else {
      await publishExclusive(tmp, file);
    }
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  if (options.syncDir !== false) await fsyncDir(dir);
}

async function publishExclusive(tmp: string, file: string): Promise<void> {
  try {
    await fs.link(tmp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // File systems without hard links (FAT, some network mounts): check, then rename. Callers
    // hold the idea lock, so nobody else can take the name in between.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      const exists = await fs.lstat(file).then(
        () => true,
        () => false,
      );
      if (exists) {
        const eexist = new Error(`EEXIST: file already exists, link '${tmp}' -> '${file}'`);
        Object.assign(eexist, { code: 'EEXIST', path: file });
        throw eexist;
      }
      await fs.rename(tmp, file);
      return;
    }
    throw err;
  }
  await fs.unlink(tmp);
}

export interface AtomicWriteSyncOptions {
  /** Mode of the file (the umask does not narrow it). Default: the replaced file's, else 0644. */
  mode?: number;
  /** Create missing parent directories with this mode. */
  dirMode?: number;
  /**
   * false: skip both fsyncs. Only for files that mean nothing after a reboot (the host's
   * descriptor of a socket that a reboot removes); the rename still makes them appear whole.
   */
  durable?: boolean;
}

/** Writes `file` atomically, replacing it if it exists. Errors are raw OS errors. */
export function writeFileAtomicSync(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteSyncOptions = {},
): void {
  const dir = path.dirname(file);
  if (options.dirMode !== undefined) fsSync.mkdirSync(dir, { recursive: true, mode: options.dirMode });
  const mode = options.mode ?? existingMode(file) ?? 0o644;
  const durable = options.durable !== false;
  const tmp = tempPath(dir);
  const fd = fsSync.openSync(tmp, 'wx', mode);
  let open = true;
  try {
    fsSync.writeFileSync(fd, data);
    if (process.platform !== 'win32') fsSync.fchmodSync(fd, mode);
    if (durable) fsSync.fsyncSync(fd);
    open = false;
    fsSync.closeSync(fd);
    fsSync.renameSync(tmp, file);
  } catch (err) {
    if (open) fsSync.closeSync(fd);
    fsSync.rmSync(tmp, { force: true });
    throw err;
  }
  if (durable) fsyncDirSync(dir);
}

function existingMode(file: string): number | null {
  try {
    return fsSync.statSync(file).mode & 0o777;
  } catch {
    return null;
  }
}

function fsyncDirSync(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fsSync.openSync(dir, 'r');
    fsSync.fsyncSync(fd);
  } catch (err) {
    if (!dirSyncUnsupported(err)) throw err;
  } finally {
    if (fd !== null) fsSync.closeSync(fd);
  }
}
