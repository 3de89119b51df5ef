import { createHash } from 'node:crypto';
import fs from 'node:fs';

/**
 * Script files inject_script read recently, keyed by path and trusted while the file's identity
 * and timestamps are unchanged: an agent re-running the same file skips the read, the UTF-8 decode
 * and the SHA-256 (about 0.25 ms of a ~9 ms call for 24 KB with the server's no-optimizer flags).
 *
 * A file whose mtime is within RACY_MS of the moment it was read is not kept (git's "racily
 * clean" rule): a same-size rewrite inside one timestamp tick would otherwise look unchanged.
 */
const MAX_ENTRIES = 8;
const MAX_BYTES = 1024 * 1024;
const RACY_MS = 2_000n;

interface Entry {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  code: string;
  sha256: string | undefined;
}

export interface ScriptFile {
  code: string;
  /** Hex SHA-256 of the UTF-8 text, when the caller asked for it (`hashUpToChars`). */
  sha256: string | undefined;
}

export class ScriptFiles {
  private readonly entries = new Map<string, Entry>();

  /**
   * The cached text of `filePath` when `stat` (a bigint stat of it, just taken) shows the same
   * file; otherwise reads it synchronously (callers use this for files up to 1 MiB only).
   * `hashUpToChars`: texts this long or shorter also get their SHA-256.
   */
  readSync(filePath: string, stat: fs.BigIntStats, hashUpToChars: number): ScriptFile {
    const known = this.entries.get(filePath);
    if (known !== undefined && sameFile(known, stat)) {
      this.entries.delete(filePath); // re-insert: the map's order is least recently used first
      this.entries.set(filePath, known);
      return { code: known.code, sha256: known.sha256 };
    }
    const code = fs.readFileSync(filePath, 'utf8');
    const sha256 =
      code.length <= hashUpToChars ? createHash('sha256').update(code, 'utf8').digest('hex') : undefined;
    const readAtNs = BigInt(Date.now()) * 1_000_000n;
    const settled =
      stat.mtimeNs < readAtNs - RACY_MS * 1_000_000n && stat.ctimeNs < readAtNs - RACY_MS * 1_000_000n;
    this.entries.delete(filePath);
    if (settled && stat.size <= BigInt(MAX_BYTES)) {
      this.entries.set(filePath, {
        dev: stat.dev,
        ino: stat.ino,
        size: stat.size,
        mtimeNs: stat.mtimeNs,
        ctimeNs: stat.ctimeNs,
        code,
        sha256,
      });
      for (const oldest of this.entries.keys()) {
        if (this.entries.size <= MAX_ENTRIES) break;
        this.entries.delete(oldest);
      }
    }
    return { code, sha256 };
  }
}

function sameFile(entry: Entry, stat: fs.BigIntStats): boolean {
  return (
    entry.dev === stat.dev &&
    entry.ino === stat.ino &&
    entry.size === stat.size &&
    entry.mtimeNs === stat.mtimeNs &&
    entry.ctimeNs === stat.ctimeNs
  );
}
