import { createHash } from 'node:crypto';
import fs from 'node:fs';

/**
 * Script files inject_script read recently, keyed by path and trusted while the file's identity
 * and timestamps are unchanged: an agent re-running the same file skips the read, the UTF-8 decode
 * and the SHA-256 (about 0.25 ms of a ~9 ms call for 24 KB with the server's no-optimizer flags).
 *
 * A file whose timestamps are within one "racy" window of the moment it was read is not trusted
 * on its stat alone (git's "racily clean" rule): a same-size rewrite inside one timestamp tick
 * would look unchanged. The window is 2 s where timestamps are whole seconds (FAT keeps 2 s, HFS+
 * and ext3 1 s) and 50 ms where they have a sub-second part: such file systems stamp files from a
 * clock tick of at most ~10 ms (a Linux jiffy; NTFS and APFS far finer).
 * Such an entry keeps the bytes it was read from, and the next call with the same stat reads the
 * file again and compares bytes: the decode and the hash are skipped when they are equal (an
 * agent typically writes a script and runs it at once, and again within seconds). Once a read is a
 * window past the file's timestamps the entry is trusted and its bytes are dropped.
 */
const MAX_ENTRIES = 8;
const MAX_BYTES = 1024 * 1024;
const COARSE_RACY_NS = 2_000_000_000n;
const FINE_RACY_NS = 50_000_000n;
const SECOND_NS = 1_000_000_000n;

interface Entry {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  code: string;
  sha256: string | undefined;
  /** What the file held when last read while its timestamps were recent; null once trusted. */
  bytes: Buffer | null;
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
    const same = known !== undefined && sameFile(known, stat) ? known : undefined;
    if (same?.bytes === null) {
      this.entries.delete(filePath); // re-insert: the map's order is least recently used first
      this.entries.set(filePath, same);
      return { code: same.code, sha256: hashOf(same, hashUpToChars) };
    }
    const bytes = fs.readFileSync(filePath);
    if (same !== undefined && same.bytes !== null && bytes.equals(same.bytes)) {
      this.keep(filePath, stat, same.code, hashOf(same, hashUpToChars), bytes);
      return { code: same.code, sha256: same.sha256 };
    }
    const code = bytes.toString('utf8');
    const sha256 = hashOf({ code, sha256: undefined }, hashUpToChars);
    this.keep(filePath, stat, code, sha256, bytes);
    return { code, sha256 };
  }

  /** Keeps (or refreshes) the entry for text just read from `bytes`, most recent last. */
  private keep(
    filePath: string,
    stat: fs.BigIntStats,
    code: string,
    sha256: string | undefined,
    bytes: Buffer,
  ): void {
    this.entries.delete(filePath);
    if (stat.size > BigInt(MAX_BYTES)) return;
    const readAtNs = BigInt(Date.now()) * 1_000_000n;
    const fine = stat.mtimeNs % SECOND_NS !== 0n || stat.ctimeNs % SECOND_NS !== 0n;
    const racyNs = fine ? FINE_RACY_NS : COARSE_RACY_NS;
    const settled = stat.mtimeNs < readAtNs - racyNs && stat.ctimeNs < readAtNs - racyNs;
    this.entries.set(filePath, {
      dev: stat.dev,
      ino: stat.ino,
      size: stat.size,
      mtimeNs: stat.mtimeNs,
      ctimeNs: stat.ctimeNs,
      code,
      sha256,
      bytes: settled ? null : bytes,
    });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(oldest);
    }
  }
}

/** The entry's hash, computed now if it has none and the caller wants it (kept on the entry). */
function hashOf(
  entry: { code: string; sha256: string | undefined },
  hashUpToChars: number,
): string | undefined {
  if (entry.sha256 === undefined && entry.code.length <= hashUpToChars) {
    entry.sha256 = createHash('sha256').update(entry.code, 'utf8').digest('hex');
  }
  return entry.sha256;
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
