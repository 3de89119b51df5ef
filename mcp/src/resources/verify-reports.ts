import fs from 'node:fs';
import path from 'node:path';
import { invalidField, XipeError } from '#shared/errors.js';
import { ideaFolderProblem } from '#shared/reference-data.js';
import { ideasDir } from './workspace-ideas.js';

/**
 * The comparisons compare_with_reference wrote for an idea (`uiux-references/verify/<id>-<n>/`),
 * newest last, each with its scores, how many differences it found, the first five, and its
 * files: what an agent needs to see whether its rebuilds are converging without opening images.
 * Read-only; `verify/` and each report folder must be plain folders inside the real idea folder.
 */

const MAX_REPORTS = 50;
const REPORT_DIR = /^(area-\d+|[\w.-]+)-(\d+)$/;

export interface VerifyReportSummary {
  id: string;
  dir: string;
  scores: unknown;
  difference_count: number;
  differences: string[];
  files: { candidate: string; diff: string; report_json: string; report_md: string };
}

async function verifyDir(workspace: string, idea: string): Promise<string | null> {
  const problem = ideaFolderProblem(idea);
  if (problem !== null) throw invalidField('idea_folder', problem, idea, 'idea folder name');
  const ideaReal = await fs.promises.realpath(path.join(ideasDir(workspace), idea)).catch(() => null);
  if (ideaReal === null)
    throw new XipeError('IDEA_NOT_FOUND', `Idea folder not found: ${idea}`, { idea_folder: idea });
  const dir = path.join(ideaReal, 'uiux-references', 'verify');
  const stat = await fs.promises.lstat(dir).catch(() => null);
  return stat?.isDirectory() === true ? dir : null;
}

async function summary(dir: string, name: string): Promise<VerifyReportSummary | null> {
  const folder = path.join(dir, name);
  const stat = await fs.promises.lstat(folder).catch(() => null);
  if (stat?.isDirectory() !== true) return null;
  const file = path.join(folder, 'report.json');
  try {
    const handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const text = await handle.readFile({ encoding: 'utf8' }).finally(() => handle.close());
    const report = JSON.parse(text) as { scores?: unknown; differences?: Array<{ text?: unknown }> };
    const differences = Array.isArray(report.differences) ? report.differences : [];
    return {
      id: name,
      dir: folder,
      scores: report.scores ?? null,
      difference_count: differences.length,
      differences: differences.slice(0, 5).map((d) => String(d.text ?? '')),
      files: {
        candidate: path.join(folder, 'candidate.png'),
        diff: path.join(folder, 'diff.png'),
        report_json: file,
        report_md: path.join(folder, 'report.md'),
      },
    };
  } catch {
    return null;
  }
}

/** Newest last (by number per reference), at most the last MAX_REPORTS. */
export async function listVerifyReports(workspace: string, idea: string): Promise<VerifyReportSummary[]> {
  const dir = await verifyDir(workspace, idea);
  if (dir === null) return [];
  const names = (await fs.promises.readdir(dir)).filter((n) => REPORT_DIR.test(n));
  const stamped = await Promise.all(
    names.map(async (n) => ({ n, at: (await fs.promises.lstat(path.join(dir, n))).mtimeMs })),
  );
  stamped.sort((a, b) => a.at - b.at || a.n.localeCompare(b.n, 'en', { numeric: true }));
  const kept = stamped.slice(-MAX_REPORTS);
  return (await Promise.all(kept.map((s) => summary(dir, s.n)))).filter(
    (s): s is VerifyReportSummary => s !== null,
  );
}

export async function hasVerifyReports(workspace: string, idea: string): Promise<boolean> {
  const dir = await verifyDir(workspace, idea).catch(() => null);
  if (dir === null) return false;
  return (await fs.promises.readdir(dir).catch(() => [] as string[])).some((n) => REPORT_DIR.test(n));
}
