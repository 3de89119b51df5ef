import fs from 'node:fs/promises';
import { toWriteError, writeFileAtomic } from '../atomic-write.js';

/**
 * The bytes of files a write is about to replace, so a write that fails part-way can put back
 * exactly what was there (the merged views of a save, the files of a captured area).
 */

/** Each file's bytes before the write (null: it did not exist). */
export type Snapshot = Array<{ file: string; bytes: Buffer | null }>;

/** A file that exists but cannot be read is a WRITE_ERROR now, not a file deleted on rollback. */
export async function snapshotFiles(files: readonly string[]): Promise<Snapshot> {
  return Promise.all(
    files.map(async (file) => {
      try {
        return { file, bytes: await fs.readFile(file) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file, bytes: null };
        throw toWriteError(file, err);
      }
    }),
  );
}

/**
 * Rollback: every file byte-identical to its snapshot (removed if it did not exist). Each file is
 * tried even when one fails; the first failure is thrown at the end.
 */
export async function restoreSnapshot(snapshot: Snapshot): Promise<void> {
  let failure: unknown = null;
  for (const { file, bytes } of snapshot) {
    try {
      if (bytes === null) await fs.rm(file, { force: true });
      else if (!(await fs.readFile(file).catch(() => null))?.equals(bytes)) {
        await writeFileAtomic(file, bytes, { overwrite: true });
      }
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure !== null) throw failure;
}
