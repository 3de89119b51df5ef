import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '#shared/node/atomic-write.js';

/**
 * What install wrote, one entry per registration, so uninstall removes exactly that (all of it, one
 * browser's, or one user-data-dir's) and doctor knows which manifests to check.
 */
export const InstallEntry = z.object({
  /** A browser name, or `user-data-dir` for `--user-data-dir` registrations. */
  target: z.string(),
  manifest: z.string(),
  user_data_dir: z.string().optional(),
  registry_key: z.string().optional(),
});
export type InstallEntry = z.infer<typeof InstallEntry>;

export const InstallRecord = z.object({
  launcher: z.string().nullable().default(null),
  entries: z.array(InstallEntry).default([]),
});
export type InstallRecord = z.infer<typeof InstallRecord>;

export const installRecordPath = (home: string): string => path.join(home, 'install-record.json');

/** The record of what install wrote; a missing or unreadable record is an empty one. */
export function readInstallRecord(home: string): InstallRecord {
  try {
    const parsed = InstallRecord.safeParse(JSON.parse(fs.readFileSync(installRecordPath(home), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // missing or corrupt: nothing recorded
  }
  return { launcher: null, entries: [] };
}

export function writeRecord(home: string, record: InstallRecord): void {
  writeFileAtomic(installRecordPath(home), `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

export function writeFileAtomic(file: string, content: string, mode: number): void {
  writeFileAtomicSync(file, content, { mode, dirMode: 0o755 });
}
