/**
 * Fault-test helper: real disk failures for a root test process, where chmod does not stop writes.
 * A tiny tmpfs gives a real ENOSPC (bytes or inodes) and, remounted read-only, a real EROFS;
 * `chattr +i` makes a folder immutable even for root (EPERM). Each helper says whether the
 * mechanism works here, so a test can skip with the reason instead of failing.
 *
 *   const disk = tryMountTmpfs({ sizeBytes: 256 * 1024 });   // null when mount is not allowed
 *   fillDisk(disk.dir, 8 * 1024);                             // leave about 8 KiB free
 *   disk.remount('ro'); … disk.unmount();
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TmpfsMount {
  dir: string;
  remount(mode: 'ro' | 'rw'): void;
  unmount(): void;
}

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

/** Mounts a fresh tmpfs of `sizeBytes` (and at most `inodes` inodes); null when not permitted. */
export function tryMountTmpfs(options: { sizeBytes: number; inodes?: number }): TmpfsMount | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-tmpfs-'));
  const opts = [`size=${options.sizeBytes}`, 'mode=0755'];
  if (options.inodes !== undefined) opts.push(`nr_inodes=${options.inodes}`);
  const mounted = run('mount', ['-t', 'tmpfs', '-o', opts.join(','), 'tmpfs', dir]);
  if (!mounted.ok) {
    fs.rmdirSync(dir);
    return null;
  }
  let gone = false;
  return {
    dir,
    remount(mode) {
      const result = run('mount', ['-o', `remount,${mode}`, dir]);
      if (!result.ok) throw new Error(`remount ${mode} failed: ${result.output}`);
    },
    unmount() {
      if (gone) return;
      gone = true;
      run('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Fills the file system holding `dir` with a filler file until writes fail, then gives back
 * `leaveBytes` (rounded to pages by tmpfs). Returns the filler's path.
 */
export function fillDisk(dir: string, leaveBytes: number): string {
  const filler = path.join(dir, 'filler.bin');
  const fd = fs.openSync(filler, 'a');
  const block = Buffer.alloc(4096, 0x61);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  const size = fs.statSync(filler).size;
  fs.truncateSync(filler, Math.max(0, size - leaveBytes));
  return filler;
}

/** Creates empty files until the file system runs out of inodes; returns them (for cleanup). */
export function exhaustInodes(dir: string): string[] {
  const made: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    const file = path.join(dir, `inode-${i}`);
    try {
      fs.writeFileSync(file, '');
      made.push(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return made;
      throw err;
    }
  }
  throw new Error('the file system never ran out of inodes');
}

/** `chattr +i`/`-i` on a path; false when the file system or capabilities do not allow it. */
export function setImmutable(target: string, on: boolean): boolean {
  return run('chattr', [on ? '+i' : '-i', target]).ok;
}
