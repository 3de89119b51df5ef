import fs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../constants.js';
import { mergeReferencedElements, REFERENCED_ELEMENTS_FILE } from '../../deep-capture/referenced-elements.js';
import { areasOfSave } from '../../deep-capture/saved-areas.js';
import { validationError, XipeError } from '../../errors.js';
import {
  jsonByteLength,
  type MergedReferenceData,
  ReferenceData,
  type SaveResult,
} from '../../reference-data.js';
import { fsyncDir, isTempName, TEMP_PREFIX, toWriteError, writeFileAtomic } from '../atomic-write.js';
import { removeDeadLockLeftovers, withIdeaLock } from './lock.js';
import { mergeSessions, SessionCache, SessionData, type SessionRecord } from './merge.js';
import { nextNumber, SESSION_FILE_PATTERN, sessionFileName } from './numbering.js';
import {
  areasForTokens,
  PAGE_REFERENCES_DIR,
  pageFiles,
  readReferencedFile,
  writeReferenced,
  writeTokensFile,
} from './page-references.js';
import {
  ideaPaths,
  MERGED_FILE,
  prepareIdeaDirs,
  preparePlainSubdir,
  SESSIONS_DIR,
  workspaceRelative,
} from './path-safety.js';
import { decodeScreenshots, removeFiles, type StagedImageSource, writeScreenshots } from './screenshots.js';
import { restoreSnapshot, type Snapshot, snapshotFiles } from './snapshot.js';

/**
 * The idea store (docs/architecture.md, The idea store): the one place that writes `<workspace>/x-ipe-docs/ideas/<idea>/
 * uiux-references/`. A save validates everything first, then, holding the idea's cross-process
 * lock, writes the screenshots, the session (never overwriting) and the rebuilt merged view. A save
 * that carries areas (3.0 `areas[]`, or elements with `html_css`/`instruction`) or static resources
 * also lands them in `page-element-references/referenced-elements.json` (saved-areas.ts). The DTCG
 * tokens file holds the sessions' tokens and every area's. A save that fails part-way removes what
 * it wrote and puts back the views it replaced, so the idea is left as it was.
 */

export interface StoreLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  info?(msg: string, fields?: Record<string, unknown>): void;
}

export interface SaveReferenceOptions {
  /** Absolute workspace root (already resolved and allowed by the caller). */
  workspace: string;
  /** The reference data as received; validated here. */
  data: unknown;
  /** Refuse requests whose JSON is larger than this (default 10 MiB). */
  maxPayloadBytes?: number;
  /** Size of the request JSON if the caller knows it; else the size of `data` as JSON. */
  payloadBytes?: number;
  lockTimeoutMs?: number;
  logger?: StoreLogger;
  /** Images the extension staged for this save, named `staged:<id>` (the host's toolbar saves). */
  staged?: StagedImageSource;
}

const sessionCache = new SessionCache();

export function payloadTooLarge(bytes: number, maxBytes: number): XipeError {
  return new XipeError(
    'PAYLOAD_TOO_LARGE',
    `Request is ${bytes} bytes, over the ${maxBytes}-byte limit. Save fewer or smaller screenshots ` +
      '(or pass screenshot file paths instead of base64), or raise max_payload_bytes in config.json.',
    { bytes, max_bytes: maxBytes },
  );
}

/** Refuses a payload over the cap (PAYLOAD_TOO_LARGE). */
export function checkPayloadSize(bytes: number, maxBytes: number): void {
  if (bytes > maxBytes) throw payloadTooLarge(bytes, maxBytes);
}

export async function saveReference(options: SaveReferenceOptions): Promise<SaveResult> {
  const maxBytes = options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  checkPayloadSize(options.payloadBytes ?? jsonByteLength(options.data), maxBytes);

  const parsed = ReferenceData.safeParse(options.data);
  if (!parsed.success) throw validationError(parsed.error, 'reference data', options.data);
  const data = parsed.data;
  const paths = ideaPaths(options.workspace, data.idea_folder);
  // Everything that can be refused is checked before the first byte is written.
  const pending = decodeScreenshots(data, options.staged);
  const dirs = await prepareIdeaDirs(paths, data.idea_folder);
  const logger = options.logger;

  const lockOptions = {
    ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}),
    onStale: (owner: unknown) =>
      logger?.warn('broke a stale idea lock (its owner died)', { dir: dirs.refsDir, owner }),
  };
  return withIdeaLock(
    dirs.refsDir,
    async () => {
      const [sessionNames, refsNames] = await Promise.all([
        fs.readdir(dirs.sessionsDir).catch((err: unknown) => {
          throw toWriteError(dirs.sessionsDir, err);
        }),
        fs.readdir(dirs.refsDir).catch(() => [] as string[]),
      ]);
      await removeLeftovers(dirs, sessionNames, refsNames);
      const page = pageFiles(dirs.refsDir);
      // A save that lands in referenced-elements.json needs it readable before anything is written.
      const landsAreas = areasOfSave(data, null, '') !== null;
      if (landsAreas) {
        await preparePlainSubdir(dirs.refsDir, PAGE_REFERENCES_DIR, `${PAGE_REFERENCES_DIR}/`);
      }
      const existing = landsAreas ? await readReferencedFile(page.referenced) : null;

      const shots = await writeScreenshots(data, pending, dirs.screenshotsDir).catch((err: unknown) => {
        throw toWriteError(targetOf(err) ?? dirs.screenshotsDir, err);
      });
      const written = [...shots.files];
      let previousViews: Snapshot | null = null;
      try {
        if (shots.files.length > 0) await fsyncDir(dirs.screenshotsDir);
        const { number, name, file, record } = await writeSession(dirs.sessionsDir, sessionNames, shots.data);
        written.push(file);
        await sessionCache.add(file, record).catch(() => undefined);

        const others = await sessionCache.load(
          dirs.sessionsDir,
          sessionNames.filter((n) => n !== name),
          (skipped, reason) => logger?.warn('session left out of the merged view', { file: skipped, reason }),
        );
        const records = [...others, record];
        previousViews = await snapshotFiles([
          path.join(dirs.refsDir, MERGED_FILE),
          page.tokens,
          ...(landsAreas ? [page.referenced, page.summary] : []),
        ]);
        const landed = areasOfSave(shots.data, existing, `${SESSIONS_DIR}/${name}`);
        const referenced =
          landed === null
            ? null
            : mergeReferencedElements(existing, {
                source_url: data.source_url,
                timestamp: new Date().toISOString(),
                ...landed,
              });
        const areas =
          referenced?.areas ??
          (await areasForTokens(dirs.refsDir, (reason) =>
            logger?.warn('area tokens left out of the tokens file', { reason }),
          ));
        const merged = await writeMergedView(dirs.refsDir, data.idea_folder, records);
        const tokensWritten = await writeTokensFile(
          page.tokens,
          merged?.design_tokens ?? {},
          records.length > 0 ? areas : [],
        );
        if (referenced !== null) await writeReferenced(page, data.idea_folder, referenced);
        const areaIds = landed?.areas.map((a) => a.area_id) ?? [];
        return {
          status: 'success',
          session_file: name,
          session_number: number,
          session_path: workspaceRelative(
            paths.workspace,
            path.join(paths.ideaDir, 'uiux-references', 'sessions', name),
          ),
          screenshots: shots.files.map((f) =>
            workspaceRelative(
              paths.workspace,
              path.join(paths.ideaDir, 'uiux-references', 'screenshots', path.basename(f)),
            ),
          ),
          reference_data_path: workspaceRelative(
            paths.workspace,
            path.join(paths.ideaDir, 'uiux-references', MERGED_FILE),
          ),
          idea_folder: data.idea_folder,
          workspace: paths.workspace,
          ...(tokensWritten ? { tokens_path: workspaceRelative(paths.workspace, page.tokens) } : {}),
          ...(referenced !== null
            ? {
                referenced_elements_path: workspaceRelative(
                  paths.workspace,
                  path.join(paths.ideaDir, 'uiux-references', PAGE_REFERENCES_DIR, REFERENCED_ELEMENTS_FILE),
                ),
                summary_path: workspaceRelative(paths.workspace, page.summary),
                area_ids: areaIds,
              }
            : {}),
        } satisfies SaveResult;
      } catch (err) {
        await removeFiles(written);
        // The merged views may already list this save: put back exactly the bytes they had.
        if (previousViews !== null) {
          await restoreSnapshot(previousViews).catch((rollbackErr: unknown) =>
            logger?.warn('could not roll back the merged view', { error: String(rollbackErr) }),
          );
        }
        throw err;
      }
    },
    lockOptions,
  ).catch((err: unknown) => {
    // Creating the lock file can fail too (disk full, read-only): still a WRITE_ERROR with the OS reason.
    if (err instanceof XipeError || typeof (err as NodeJS.ErrnoException)?.code !== 'string') throw err;
    throw toWriteError(dirs.refsDir, err);
  });
}

/** Writes `reference-data.json` (removed with no sessions left: a rolled-back first save). */
async function writeMergedView(
  refsDir: string,
  ideaFolder: string,
  records: SessionRecord[],
): Promise<MergedReferenceData | null> {
  const mergedFile = path.join(refsDir, MERGED_FILE);
  if (records.length === 0) {
    await removeFiles([mergedFile]);
    return null;
  }
  const merged = mergeSessions(ideaFolder, records, new Date());
  await writeFileAtomic(mergedFile, `${JSON.stringify(merged, null, 2)}\n`, { overwrite: true }).catch(
    (err: unknown) => {
      throw toWriteError(mergedFile, err);
    },
  );
  return merged;
}

function targetOf(err: unknown): string | undefined {
  const target = (err as { target?: unknown } | null)?.target;
  return typeof target === 'string' ? target : undefined;
}

/**
 * Writes the next session: number = max existing + 1 from the scan, never from session_id. If the
 * name was taken anyway (a lock broken under a live owner), the folder is rescanned and the next
 * number tried, so sessions stay unique and gap-free.
 */
async function writeSession(
  sessionsDir: string,
  scanned: string[],
  data: ReferenceData,
): Promise<{ number: number; name: string; file: string; record: SessionRecord }> {
  let names = scanned;
  for (let attempt = 0; ; attempt++) {
    const number = nextNumber(names, SESSION_FILE_PATTERN);
    const name = sessionFileName(number);
    const file = path.join(sessionsDir, name);
    const session = { ...data, session_number: number, saved_at: new Date().toISOString() };
    try {
      await writeFileAtomic(file, `${JSON.stringify(session, null, 2)}\n`);
      return { number, name, file, record: { number, name, data: SessionData.parse(session) } };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw toWriteError(file, err);
      names = await fs.readdir(sessionsDir);
    }
  }
}

/** Temp files and lock leftovers of writers that died mid-save (all writes happen under the lock). */
async function removeLeftovers(
  dirs: { refsDir: string; sessionsDir: string; screenshotsDir: string },
  sessionNames: string[],
  refsNames: string[],
): Promise<void> {
  const dead = (name: string): boolean => {
    const pid = Number.parseInt(name.slice(TEMP_PREFIX.length).split('-')[0] ?? '', 10);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  };
  const removals: Promise<unknown>[] = [];
  for (const name of sessionNames) {
    if (isTempName(name) && dead(name))
      removals.push(fs.rm(path.join(dirs.sessionsDir, name), { force: true }));
  }
  for (const name of refsNames) {
    if (isTempName(name) && dead(name)) removals.push(fs.rm(path.join(dirs.refsDir, name), { force: true }));
  }
  const shotNames = await fs.readdir(dirs.screenshotsDir).catch(() => [] as string[]);
  for (const name of shotNames) {
    if (isTempName(name) && dead(name))
      removals.push(fs.rm(path.join(dirs.screenshotsDir, name), { force: true }));
  }
  if (refsNames.some((n) => n.startsWith('.lock-'))) removals.push(removeDeadLockLeftovers(dirs.refsDir));
  await Promise.all(removals.map((p) => p.catch(() => undefined)));
}
