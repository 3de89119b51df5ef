import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { invalidField, XipeError } from '../../errors.js';
import { ideaFolderProblem } from '../../reference-data.js';
import { toWriteError } from '../atomic-write.js';

/**
 * Path safety for the idea store (docs/architecture.md, The idea store): nothing is ever written outside
 * `<workspace>/x-ipe-docs/ideas/<idea>/uiux-references/`, symlinks included. Pure checks first
 * (name, containment), then real paths are resolved and checked again.
 */

export const IDEAS_SUBPATH = ['x-ipe-docs', 'ideas'] as const;
export const REFERENCES_DIR = 'uiux-references';
export const SESSIONS_DIR = 'sessions';
export const SCREENSHOTS_DIR = 'screenshots';
export const MERGED_FILE = 'reference-data.json';

/** Throws VALIDATION_ERROR unless `name` is one plain folder name. */
export function assertIdeaFolderName(name: string): void {
  const problem = ideaFolderProblem(name);
  if (problem !== null) throw invalidField('idea_folder', problem, name);
}

/** True when `candidate` is `root` itself or below it (the `root + sep` prefix rule). */
export function isWithin(root: string, candidate: string, p: path.PlatformPath = path): boolean {
  const r = p.resolve(root);
  const c = p.resolve(candidate);
  if (c === r) return true;
  const prefix = r.endsWith(p.sep) ? r : r + p.sep;
  return c.startsWith(prefix);
}

export interface IdeaPaths {
  workspace: string;
  ideasDir: string;
  ideaDir: string;
  refsDir: string;
  sessionsDir: string;
  screenshotsDir: string;
  mergedFile: string;
}

/** Lexical layout of one idea; the name is validated, nothing touches the disk. */
export function ideaPaths(workspace: string, ideaFolder: string): IdeaPaths {
  assertIdeaFolderName(ideaFolder);
  const ws = path.resolve(workspace);
  const ideasDir = path.join(ws, ...IDEAS_SUBPATH);
  const ideaDir = path.join(ideasDir, ideaFolder);
  // Belt and braces: a valid name can never escape, but the containment rule is the real guarantee.
  if (path.dirname(ideaDir) !== ideasDir) {
    throw invalidField('idea_folder', 'a single folder name', ideaFolder);
  }
  const refsDir = path.join(ideaDir, REFERENCES_DIR);
  return {
    workspace: ws,
    ideasDir,
    ideaDir,
    refsDir,
    sessionsDir: path.join(refsDir, SESSIONS_DIR),
    screenshotsDir: path.join(refsDir, SCREENSHOTS_DIR),
    mergedFile: path.join(refsDir, MERGED_FILE),
  };
}

/** A path relative to the workspace with `/` separators, as returned to callers. */
export function workspaceRelative(workspace: string, file: string): string {
  return path.relative(workspace, file).split(path.sep).join('/');
}

function refused(what: string, dir: string, why: string): XipeError {
  return new XipeError(
    'VALIDATION_ERROR',
    `Refusing to write: ${what} ${why}. Replace it with a plain folder (or remove it) and save again.`,
    { path: dir },
  );
}

type DirState = 'missing' | 'ok';

/**
 * Checks that `dir`, if it exists, is a real directory (not a symlink, not a file) whose real path
 * sits directly inside `parentReal`. Nothing is created here, so a refusal writes nothing.
 */
async function checkPlainDir(dir: string, parentReal: string, what: string): Promise<DirState> {
  let stat: Awaited<ReturnType<typeof fs.lstat>>;
  try {
    stat = await fs.lstat(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw toWriteError(dir, err);
  }
  if (stat.isSymbolicLink()) throw refused(what, dir, 'is a symbolic link');
  if (!stat.isDirectory()) {
    throw new XipeError('WRITE_ERROR', `Cannot write ${dir}: ENOTDIR it exists and is not a folder`, {
      path: dir,
      os_code: 'ENOTDIR',
    });
  }
  const real = await fs.realpath(dir).catch((err: unknown) => {
    throw toWriteError(dir, err);
  });
  if (path.dirname(real) !== parentReal || !isWithin(parentReal, real)) {
    throw refused(what, dir, `resolves outside ${parentReal}`);
  }
  return 'ok';
}

async function createDir(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { mode: 0o755 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw toWriteError(dir, err);
  }
}

export interface SafeDirs {
  /** Real path of `<idea>/uiux-references/`. */
  refsDir: string;
  sessionsDir: string;
  screenshotsDir: string;
}

/**
 * Resolves (and creates when missing) the three store folders of an existing idea folder. The
 * idea folder itself must exist and is never created: IDEA_NOT_FOUND otherwise. Each store folder
 * must be a plain directory whose real path sits directly inside the real idea folder; all three
 * are checked before any is created, so a refusal leaves the disk untouched.
 */
export async function prepareIdeaDirs(paths: IdeaPaths, ideaFolder: string): Promise<SafeDirs> {
  let ideaReal: string;
  try {
    ideaReal = await fs.realpath(paths.ideaDir);
    const stat = await fs.stat(ideaReal);
    if (!stat.isDirectory()) throw new Error('not a directory');
  } catch {
    throw ideaNotFound(paths, ideaFolder);
  }
  const refsDir = path.join(ideaReal, REFERENCES_DIR);
  const sessionsDir = path.join(refsDir, SESSIONS_DIR);
  const screenshotsDir = path.join(refsDir, SCREENSHOTS_DIR);
  const refsState = await checkPlainDir(refsDir, ideaReal, `${REFERENCES_DIR}/`);
  const subStates =
    refsState === 'missing'
      ? (['missing', 'missing'] as const)
      : ([
          await checkPlainDir(sessionsDir, refsDir, `${REFERENCES_DIR}/${SESSIONS_DIR}/`),
          await checkPlainDir(screenshotsDir, refsDir, `${REFERENCES_DIR}/${SCREENSHOTS_DIR}/`),
        ] as const);
  if (refsState === 'missing') await createDir(refsDir);
  if (subStates[0] === 'missing') await createDir(sessionsDir);
  if (subStates[1] === 'missing') await createDir(screenshotsDir);
  // Re-check after creating: a folder swapped for a symlink in between is still refused.
  await checkPlainDir(refsDir, ideaReal, `${REFERENCES_DIR}/`);
  await checkPlainDir(sessionsDir, refsDir, `${REFERENCES_DIR}/${SESSIONS_DIR}/`);
  await checkPlainDir(screenshotsDir, refsDir, `${REFERENCES_DIR}/${SCREENSHOTS_DIR}/`);
  return { refsDir, sessionsDir, screenshotsDir };
}

/**
 * Resolves (creating it when missing) `<parentReal>/<name>` as a plain directory directly inside
 * `parentReal` (a real path from prepareIdeaDirs), with the same refusals as the store's own
 * folders: the deep-capture files use it for `page-element-references/` and its `resources/`.
 */
export async function preparePlainSubdir(parentReal: string, name: string, what: string): Promise<string> {
  const dir = path.join(parentReal, name);
  if ((await checkPlainDir(dir, parentReal, what)) === 'missing') await createDir(dir);
  await checkPlainDir(dir, parentReal, what);
  return dir;
}

/**
 * IDEA_NOT_FOUND (DESIGN §4): the message itself starts with `Idea folder not found: {idea}.` and
 * says where it looked, which ideas exist there and what to do next, because a CLI prints only the
 * message and an agent acts on it. `nextStep` replaces the default advice (e.g. a resource's).
 */
export function ideaNotFound(
  paths: Pick<IdeaPaths, 'ideasDir'>,
  ideaFolder: string,
  nextStep?: string,
): XipeError {
  const existing = listIdeaFolders(paths.ideasDir);
  const shown = existing.slice(0, 10).map((name) => JSON.stringify(name));
  const more = existing.length > shown.length ? `, … (${existing.length} in all)` : '';
  const found =
    existing.length > 0
      ? `existing ideas: ${shown.join(', ')}${more}`
      : existsSync(paths.ideasDir)
        ? 'it has no idea folders'
        : 'that folder does not exist';
  const next =
    nextStep ??
    (existing.length > 0
      ? 'Pass one of the existing names exactly, or create the folder first (`x-ipe-uiux init --idea NAME`; the store never creates it).'
      : 'Create the idea folder first (`x-ipe-uiux init --idea NAME`; the store never creates it), or pass the right workspace.');
  return new XipeError(
    'IDEA_NOT_FOUND',
    `Idea folder not found: ${ideaFolder}. Looked in ${paths.ideasDir}: ${found}. ${next}`,
    { idea_folder: ideaFolder, looked_in: paths.ideasDir, existing_ideas: existing, hint: next },
  );
}

/** The folder names directly under `ideasDir`, sorted; empty when it is missing or unreadable. */
export function listIdeaFolders(ideasDir: string): string[] {
  try {
    return readdirSync(ideasDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
