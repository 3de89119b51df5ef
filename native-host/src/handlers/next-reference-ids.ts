import fs from 'node:fs/promises';
import path from 'node:path';
import { NextReferenceIdsParams, type NextReferenceIdsResult } from '#shared/commands/next-reference-ids.js';
import { validationError } from '#shared/errors.js';
import { ELEMENT_CROP_PATTERN, numbersIn } from '#shared/node/idea-store/numbering.js';
import { ideaNotFound, ideaPaths } from '#shared/node/idea-store/path-safety.js';
import { resolveWorkspace } from '#shared/node/idea-store/workspaces.js';
import type { HostHandler } from './types.js';
import { caller } from './workspace.js';

/** Highest NNN among `{prefix}-NNN` ids in the `colors`/`elements` arrays of one JSON file. */
export function maxIds(json: unknown): { color: number; element: number } {
  const max = { color: 0, element: 0 };
  if (!json || typeof json !== 'object') return max;
  const scan = (list: unknown, prefix: string, key: 'color' | 'element') => {
    if (!Array.isArray(list)) return;
    for (const item of list) {
      const id = (item as { id?: unknown } | null)?.id;
      const m = typeof id === 'string' ? new RegExp(`^${prefix}-(\\d+)$`).exec(id) : null;
      if (m?.[1]) max[key] = Math.max(max[key], Number(m[1]));
    }
  };
  scan((json as { colors?: unknown }).colors, 'color', 'color');
  scan((json as { elements?: unknown }).elements, 'elem', 'element');
  return max;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Highest NNN of the `elem-NNN-crop.png` files in the idea's screenshots (0 when none). */
async function maxCrop(screenshotsDir: string): Promise<number> {
  const names = await fs.readdir(screenshotsDir).catch(() => [] as string[]);
  return numbersIn(names, ELEMENT_CROP_PATTERN).at(-1) ?? 0;
}

/**
 * `next_reference_ids`: scans the merged view and every session (a session written just before a
 * crash may not be merged yet), read-only. The next element number is also past every element
 * crop in the idea: a crop is numbered the next free of its kind when it is written (docs/design.md
 * §4), so starting the elements there too lets a new session's `elem-NNN` land on
 * `elem-NNN-crop.png` instead of on a number an earlier session's crop already has (an agent's crops
 * without ids, elements saved without crops and gaps all make the two counts drift apart).
 */
export const nextReferenceIds: HostHandler = async (params, ctx): Promise<NextReferenceIdsResult> => {
  const parsed = NextReferenceIdsParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'next_reference_ids params', params ?? {});
  const workspace = resolveWorkspace({ ...caller(ctx), requested: parsed.data.workspace });
  const paths = ideaPaths(workspace, parsed.data.idea_folder);
  const stat = await fs.stat(paths.ideaDir).catch(() => null);
  if (!stat?.isDirectory()) throw ideaNotFound(paths, parsed.data.idea_folder);
  const files = [paths.mergedFile];
  const sessions = await fs.readdir(paths.sessionsDir).catch(() => [] as string[]);
  for (const name of sessions)
    if (/^ref-session-\d+\.json$/.test(name)) files.push(path.join(paths.sessionsDir, name));
  let color = 0;
  let element = 0;
  for (const file of files) {
    const m = maxIds(await readJson(file));
    color = Math.max(color, m.color);
    element = Math.max(element, m.element);
  }
  element = Math.max(element, await maxCrop(paths.screenshotsDir));
  return { next_color: color + 1, next_element: element + 1 };
};
