import fs from 'node:fs';
import path from 'node:path';
import type { IdeaSummary } from '#shared/commands/list-ideas.js';
import { invalidField, XipeError } from '#shared/errors.js';
import { ideaNotFound } from '#shared/node/idea-store/path-safety.js';
import { ideaFolderProblem } from '#shared/reference-data.js';

/**
 * Read-only view of a workspace's idea folders for MCP resources. The native host stays the only
 * writer; this reads the same layout (docs/architecture.md, The idea store) with the same name rules and refuses anything
 * that would resolve outside `x-ipe-docs/ideas/<idea>/uiux-references/`, symlinks included.
 */

export const IDEAS_SUBPATH = ['x-ipe-docs', 'ideas'] as const;
const REFERENCES_DIR = 'uiux-references';
const SESSIONS_DIR = 'sessions';
const MERGED_FILE = 'reference-data.json';
const SESSION_FILE = /^ref-session-(\d{3,})\.json$/;

/** A merged view larger than this is not put into an agent's context (read the file instead). */
export const MAX_REFERENCE_DATA_BYTES = 8 * 1024 * 1024;

export const ideasDir = (workspace: string): string => path.join(path.resolve(workspace), ...IDEAS_SUBPATH);

export interface WorkspaceIdea extends IdeaSummary {
  /** `reference-data.json` exists (the merged view an agent can read as a resource). */
  has_reference_data: boolean;
  /** `page-element-references/referenced-elements.json` exists (deep captures, capture_area). */
  has_referenced_elements: boolean;
}

/** The idea folders (sorted like the toolbar shows them); empty when there is no ideas folder. */
export async function listWorkspaceIdeas(workspace: string): Promise<WorkspaceIdea[]> {
  const dir = ideasDir(workspace);
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const ideas = await Promise.all(
    entries.map(async (entry): Promise<WorkspaceIdea | null> => {
      if (entry.name.startsWith('.') || ideaFolderProblem(entry.name) !== null) return null;
      const ideaDir = path.join(dir, entry.name);
      if (!entry.isDirectory()) {
        // A symlinked idea folder is an idea folder (the store accepts it too).
        const isDir = entry.isSymbolicLink() && (await isDirectory(ideaDir));
        if (!isDir) return null;
      }
      return summarize(ideaDir, entry.name);
    }),
  );
  return ideas
    .filter((idea): idea is WorkspaceIdea => idea !== null)
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

async function summarize(ideaDir: string, name: string): Promise<WorkspaceIdea> {
  const refsDir = path.join(ideaDir, REFERENCES_DIR);
  const isFile = (p: string) =>
    fs.promises.lstat(p).then(
      (s) => s.isFile(),
      () => false,
    );
  const [sessions, hasMerged, hasAreas] = await Promise.all([
    fs.promises.readdir(path.join(refsDir, SESSIONS_DIR)).catch(() => [] as string[]),
    isFile(path.join(refsDir, MERGED_FILE)),
    isFile(path.join(refsDir, ...REFERENCED_ELEMENTS_FILE.parts)),
  ]);
  const sessionCount = sessions.filter((n) => SESSION_FILE.test(n)).length;
  return {
    name,
    has_references: hasMerged || sessionCount > 0 || hasAreas,
    session_count: sessionCount,
    has_reference_data: hasMerged,
    has_referenced_elements: hasAreas,
  };
}

/** A JSON file of an idea's `uiux-references/` an agent may read as a resource. */
interface IdeaJsonFile {
  /** Path below `uiux-references/`, folders first. */
  parts: readonly string[];
  /** What to tell an agent when the file does not exist yet (after the path). */
  missing: string;
  /** What to tell an agent when it is not valid JSON. */
  invalid: string;
}

export const REFERENCE_DATA_FILE: IdeaJsonFile = {
  parts: [MERGED_FILE],
  missing:
    'Save a session first (save_uiux_reference, or Save in the toolbar); xipe://ideas shows which ideas have references.',
  invalid: 'the next save rebuilds it from the session files.',
};

export const REFERENCED_ELEMENTS_FILE: IdeaJsonFile = {
  parts: ['page-element-references', 'referenced-elements.json'],
  missing: 'Capture an area first (capture_area); xipe://ideas shows which ideas have deep captures.',
  invalid: 'fix it or move it away; the next capture_area refuses to overwrite it until then.',
};

/**
 * The text of `<idea>/uiux-references/reference-data.json`, checked to be valid JSON.
 * VALIDATION_ERROR for a name that is not one plain folder name, IDEA_NOT_FOUND when the idea
 * folder does not exist, FILE_NOT_FOUND when it has no merged view yet; a symlinked
 * `uiux-references/` or file, or one resolving elsewhere, is refused.
 */
export function readReferenceData(workspace: string, idea: string): Promise<string> {
  return readIdeaJson(workspace, idea, REFERENCE_DATA_FILE);
}

/** `<idea>/uiux-references/page-element-references/referenced-elements.json`, as readReferenceData. */
export function readReferencedElements(workspace: string, idea: string): Promise<string> {
  return readIdeaJson(workspace, idea, REFERENCED_ELEMENTS_FILE);
}

async function readIdeaJson(workspace: string, idea: string, wanted: IdeaJsonFile): Promise<string> {
  const problem = ideaFolderProblem(idea);
  if (problem !== null) {
    throw invalidField('idea_folder', problem, idea, 'idea folder name', {
      details: { field: 'idea_folder' },
    });
  }
  const dir = ideasDir(workspace);
  const relative = `${IDEAS_SUBPATH.join('/')}/${idea}/${REFERENCES_DIR}/${wanted.parts.join('/')}`;
  let ideaReal: string;
  try {
    ideaReal = await fs.promises.realpath(path.join(dir, idea));
    if (!(await isDirectory(ideaReal))) throw new Error('not a directory');
  } catch {
    throw ideaNotFound({ ideasDir: dir }, idea, 'Read xipe://ideas for the idea folders of this workspace.');
  }
  let folder = path.join(ideaReal, REFERENCES_DIR);
  for (const [i, name] of [REFERENCES_DIR, ...wanted.parts.slice(0, -1)].entries()) {
    if (i > 0) folder = path.join(folder, name);
    const stat = await fs.promises.lstat(folder).catch(() => null);
    if (stat !== null && (stat.isSymbolicLink() || !stat.isDirectory())) {
      throw new XipeError(
        'VALIDATION_ERROR',
        `Refusing to read ${relative}: ${name}/ is not a plain folder.`,
        {
          idea_folder: idea,
        },
      );
    }
  }
  const file = path.join(folder, wanted.parts[wanted.parts.length - 1] ?? '');
  let handle: fs.promises.FileHandle;
  try {
    // O_NOFOLLOW: a file that is a symlink (to anywhere) is never followed.
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') {
      throw new XipeError('VALIDATION_ERROR', `Refusing to read ${relative}: it is a symbolic link.`, {
        idea_folder: idea,
      });
    }
    throw new XipeError(
      'FILE_NOT_FOUND',
      `Nothing yet for idea folder '${idea}': ${relative} does not exist. ${wanted.missing}`,
      {
        idea_folder: idea,
        path: relative,
      },
    );
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new XipeError('VALIDATION_ERROR', `Refusing to read ${relative}: it is not a file.`, {
        idea_folder: idea,
      });
    }
    if (stat.size > MAX_REFERENCE_DATA_BYTES) {
      throw new XipeError(
        'PAYLOAD_TOO_LARGE',
        `${relative} is ${stat.size} bytes, over the ${MAX_REFERENCE_DATA_BYTES}-byte limit for a resource; ` +
          'read the file directly.',
        { idea_folder: idea, bytes: stat.size, max_bytes: MAX_REFERENCE_DATA_BYTES },
      );
    }
    const text = await handle.readFile({ encoding: 'utf8' });
    try {
      JSON.parse(text);
    } catch (err) {
      throw new XipeError(
        'VALIDATION_ERROR',
        `${relative} is not valid JSON (${(err as Error).message}); ${wanted.invalid}`,
        { idea_folder: idea, path: relative },
      );
    }
    return text;
  } finally {
    await handle.close();
  }
}

async function isDirectory(p: string): Promise<boolean> {
  return fs.promises.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
