import fs from 'node:fs/promises';
import path from 'node:path';
import { invalidInput, XipeError } from '#shared/errors.js';
import { toWriteError } from '#shared/node/atomic-write.js';
import { isWithin } from '#shared/node/idea-store/path-safety.js';
import { makeIssue } from '#shared/validation-issues.js';

/**
 * Where `capture_screenshot` may write when the agent names a path: a `.png` file inside the
 * workspace. Lexical checks first (NUL, extension, the `root + sep` rule after resolving against
 * the workspace), then the real paths of the existing ancestors and of the created folders are
 * checked again, so a symlink cannot lead the write outside the workspace.
 */

/** `why` completes "which …": what is wrong with the requested path. */
function refused(why: string, requested: string): XipeError {
  return invalidInput(
    [makeIssue('output_path', 'a .png path inside the workspace', requested, why)],
    'input',
    {
      hint: 'Pass a .png path inside the workspace (relative paths resolve against it), or use idea_folder.',
      details: { output_path: requested },
    },
  );
}

/** The absolute, lexically checked target of `requested` (no disk access). */
export function resolveOutputPath(workspace: string, requested: string, p: path.PlatformPath = path): string {
  if (requested.includes('\0')) throw refused('contains a NUL character', requested);
  if (!requested.toLowerCase().endsWith('.png')) throw refused('does not end with .png', requested);
  const root = p.resolve(workspace);
  const target = p.resolve(root, requested);
  if (target === root || !isWithin(root, target, p))
    throw refused(`resolves outside the workspace ${root}`, requested);
  return target;
}

async function realpathOrNull(file: string): Promise<string | null> {
  try {
    return await fs.realpath(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw toWriteError(file, err);
  }
}

/**
 * Creates the target's missing folders and returns the real path to write to. Every existing
 * ancestor must resolve inside the workspace's real path; the target itself must not be a symlink
 * or a folder (a symlink would be replaced by the atomic rename, but refusing says why).
 */
export async function prepareOutputFile(
  workspace: string,
  target: string,
  requested: string,
): Promise<string> {
  const rootReal = await realpathOrNull(workspace);
  if (rootReal === null) {
    throw new XipeError('WRITE_ERROR', `The workspace ${workspace} does not exist.`, { path: workspace });
  }
  const dir = path.dirname(target);
  let existing = dir;
  let existingReal = await realpathOrNull(existing);
  while (existingReal === null) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
    existingReal = await realpathOrNull(existing);
  }
  if (existingReal === null || !isWithin(rootReal, existingReal)) {
    throw refused(
      `goes through ${existing}, which resolves outside the workspace (through a symbolic link)`,
      requested,
    );
  }
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  } catch (err) {
    throw toWriteError(dir, err);
  }
  const dirReal = await realpathOrNull(dir);
  if (dirReal === null || !isWithin(rootReal, dirReal)) {
    throw refused(
      `goes through ${dir}, which resolves outside the workspace (through a symbolic link)`,
      requested,
    );
  }
  const file = path.join(dirReal, path.basename(target));
  const stat = await fs.lstat(file).catch(() => null);
  if (stat?.isSymbolicLink()) throw refused(`is a symbolic link`, requested);
  if (stat?.isDirectory()) throw refused(`is a folder`, requested);
  return file;
}
