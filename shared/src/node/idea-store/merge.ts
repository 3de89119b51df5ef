import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  type DesignTokens,
  type MergedReferenceData,
  type MergedSession,
  REFERENCE_DATA_VERSION,
} from '../../reference-data.js';
import { SESSION_FILE_PATTERN } from './numbering.js';
import { SESSIONS_DIR } from './path-safety.js';

/**
 * The merged view `reference-data.json` (docs/architecture.md, The idea store), rebuilt from every session on each save:
 * colours and elements de-duplicated by id (a later session wins, keeping the first position),
 * design_tokens from the latest session that has any, unique source_urls in first-seen order,
 * last_updated, and the list of sessions.
 */

/**
 * How a session file is read back: leniently, so a hand-edited or older session still counts.
 * Items without a string id cannot be de-duplicated and are left out of the merged view.
 */
const Item = z.looseObject({ id: z.string() });
type Item = z.infer<typeof Item>;
const items = z
  .array(z.unknown())
  .optional()
  .catch(undefined)
  .transform((list) =>
    (list ?? []).flatMap((value) => {
      const parsed = Item.safeParse(value);
      return parsed.success ? [parsed.data] : [];
    }),
  );

export const SessionData = z.looseObject({
  source_url: z.string().catch(''),
  timestamp: z.string().catch(''),
  session_id: z.union([z.string(), z.number()]).nullable().optional().catch(undefined),
  colors: items,
  elements: items,
  design_tokens: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
export type SessionData = z.infer<typeof SessionData>;

export interface SessionRecord {
  number: number;
  /** File name inside `sessions/`. */
  name: string;
  data: SessionData;
}

/** Pure merge of session records (any order; sorted by number here). */
export function mergeSessions(
  ideaFolder: string,
  records: readonly SessionRecord[],
  now: Date,
): MergedReferenceData {
  const sorted = [...records].sort((a, b) => a.number - b.number);
  const colors = new Map<string, Item>();
  const elements = new Map<string, Item>();
  const sourceUrls = new Set<string>();
  const sessions: MergedSession[] = [];
  let designTokens: DesignTokens = {};
  for (const record of sorted) {
    const { data } = record;
    for (const color of data.colors ?? []) colors.set(color.id, color);
    for (const element of data.elements ?? []) elements.set(element.id, element);
    if (data.design_tokens && Object.keys(data.design_tokens).length > 0) designTokens = data.design_tokens;
    if (data.source_url !== '') sourceUrls.add(data.source_url);
    const entry: MergedSession = {
      session_number: record.number,
      file: `${SESSIONS_DIR}/${record.name}`,
      source_url: data.source_url,
      timestamp: data.timestamp,
    };
    if (data.session_id !== undefined && data.session_id !== null) entry.session_id = data.session_id;
    sessions.push(entry);
  }
  return {
    version: REFERENCE_DATA_VERSION,
    idea_folder: ideaFolder,
    last_updated: now.toISOString(),
    source_urls: [...sourceUrls],
    sessions,
    colors: [...colors.values()],
    elements: [...elements.values()],
    design_tokens: designTokens,
  };
}

interface CacheEntry {
  size: number;
  mtimeMs: number;
  ino: number;
  record: SessionRecord | null;
}

/**
 * Sessions are append-only and never rewritten, so a parsed session is cached by its file
 * identity (inode, size, mtime): each save then parses only the files it has not seen, instead of
 * re-reading every session of the idea every time.
 */
export class SessionCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly maxEntries = 20_000) {}

  /** Reads every `ref-session-NNN.json` of `sessionsDir`; unreadable or invalid files are skipped. */
  async load(
    sessionsDir: string,
    names: readonly string[],
    onSkip?: (name: string, reason: string) => void,
  ): Promise<SessionRecord[]> {
    const records: SessionRecord[] = [];
    await Promise.all(
      names.map(async (name) => {
        const m = SESSION_FILE_PATTERN.exec(name);
        if (m?.[1] === undefined) return;
        const file = path.join(sessionsDir, name);
        try {
          const stat = await fs.lstat(file);
          if (!stat.isFile()) {
            onSkip?.(name, 'not a regular file');
            return;
          }
          const cached = this.entries.get(file);
          if (
            cached &&
            cached.ino === stat.ino &&
            cached.size === stat.size &&
            cached.mtimeMs === stat.mtimeMs
          ) {
            if (cached.record) records.push(cached.record);
            return;
          }
          const record = parseSession(
            name,
            Number.parseInt(m[1], 10),
            await fs.readFile(file, 'utf8'),
            onSkip,
          );
          this.remember(file, { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, record });
          if (record) records.push(record);
        } catch (err) {
          onSkip?.(name, (err as Error).message);
        }
      }),
    );
    return records;
  }

  /** Records a session this process has just written, so the next save need not parse it. */
  async add(file: string, record: SessionRecord): Promise<void> {
    const stat = await fs.lstat(file);
    this.remember(file, { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, record });
  }

  private remember(file: string, entry: CacheEntry): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(file, entry);
  }
}

function parseSession(
  name: string,
  number: number,
  text: string,
  onSkip?: (name: string, reason: string) => void,
): SessionRecord | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    onSkip?.(name, `not JSON: ${(err as Error).message}`);
    return null;
  }
  const parsed = SessionData.safeParse(json);
  if (!parsed.success) {
    onSkip?.(name, 'not a JSON object');
    return null;
  }
  return { number, name, data: parsed.data };
}
