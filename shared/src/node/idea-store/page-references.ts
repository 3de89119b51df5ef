import fs from 'node:fs/promises';
import path from 'node:path';
import { ideaTokensDocument } from '../../deep-capture/area-dtcg.js';
import {
  REFERENCED_ELEMENTS_FILE,
  type ReferencedArea,
  ReferencedElements,
} from '../../deep-capture/referenced-elements.js';
import { renderSummary, SUMMARY_FILE } from '../../deep-capture/summary.js';
import { DTCG_FILE } from '../../design-tokens.js';
import { XipeError } from '../../errors.js';
import { toWriteError, writeFileAtomic } from '../atomic-write.js';
import { MERGED_FILE } from './path-safety.js';

/**
 * The idea's page references (docs/design.md §7) as the store and capture_area both write them, under the
 * idea lock: `page-element-references/referenced-elements.json` and its summary, and the DTCG
 * tokens file beside `reference-data.json`, which holds the sessions' tokens and every area's.
 */

export const PAGE_REFERENCES_DIR = 'page-element-references';
export const RESOURCES_DIR = 'resources';

export interface PageFiles {
  referenced: string;
  summary: string;
  tokens: string;
}

/** Where the files are, given the real `uiux-references/` folder. */
export function pageFiles(refsDir: string): PageFiles {
  const dir = path.join(refsDir, PAGE_REFERENCES_DIR);
  return {
    referenced: path.join(dir, REFERENCED_ELEMENTS_FILE),
    summary: path.join(dir, SUMMARY_FILE),
    tokens: path.join(refsDir, DTCG_FILE),
  };
}

export function invalidReferenced(file: string, problem: string): XipeError {
  return new XipeError(
    'VALIDATION_ERROR',
    `${file} is not a valid referenced-elements 3.0 file (${problem}), so it was left as it is and nothing was saved. Fix it (or move it away) and save again.`,
    { path: file },
  );
}

/**
 * The file in its canonical form; null when there is none. One that cannot be read as 3.0 is a
 * VALIDATION_ERROR naming the first problem: it is never overwritten.
 */
export async function readReferencedFile(file: string): Promise<ReferencedElements | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw toWriteError(file, err);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidReferenced(file, 'not JSON');
  }
  const result = ReferencedElements.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidReferenced(
      file,
      `${issue?.path.join('.') || 'the top level'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return result.data;
}

/**
 * The areas whose tokens go into the DTCG file when a save does not touch referenced-elements.json:
 * none when the folder is not a plain one (it is never read through a link) or the file is unreadable.
 */
export async function areasForTokens(
  refsDir: string,
  onProblem: (reason: string) => void,
): Promise<ReferencedArea[]> {
  const dir = path.join(refsDir, PAGE_REFERENCES_DIR);
  const stat = await fs.lstat(dir).catch(() => null);
  if (stat === null || !stat.isDirectory()) return [];
  try {
    return (await readReferencedFile(pageFiles(refsDir).referenced))?.areas ?? [];
  } catch (err) {
    onProblem(err instanceof Error ? err.message : String(err));
    return [];
  }
}

/** The sessions' merged design tokens, as `reference-data.json` holds them ({} when none). */
export async function sessionTokens(refsDir: string): Promise<Record<string, unknown>> {
  try {
    const merged = JSON.parse(await fs.readFile(path.join(refsDir, MERGED_FILE), 'utf8')) as unknown;
    const tokens = (merged as { design_tokens?: unknown } | null)?.design_tokens;
    return tokens !== null && typeof tokens === 'object' && !Array.isArray(tokens)
      ? (tokens as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

async function write(file: string, data: string): Promise<void> {
  await writeFileAtomic(file, data, { overwrite: true }).catch((err: unknown) => {
    throw toWriteError(file, err);
  });
}

/** Writes the DTCG file from the sessions' tokens and the areas' (removed when there are none). */
export async function writeTokensFile(
  file: string,
  designTokens: Record<string, unknown>,
  areas: readonly ReferencedArea[],
): Promise<boolean> {
  const doc = ideaTokensDocument(designTokens, areas);
  if (doc === null) await fs.rm(file, { force: true });
  else await write(file, `${JSON.stringify(doc, null, 2)}\n`);
  return doc !== null;
}

/** Writes referenced-elements.json and the summary made from it. */
export async function writeReferenced(
  files: PageFiles,
  ideaFolder: string,
  referenced: ReferencedElements,
): Promise<void> {
  await write(files.referenced, `${JSON.stringify(referenced, null, 2)}\n`);
  await write(files.summary, renderSummary(ideaFolder, referenced));
}
