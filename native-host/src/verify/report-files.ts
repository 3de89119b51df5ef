import fs from 'node:fs/promises';
import path from 'node:path';
import type { CompareScores } from '#shared/commands/compare-with-reference.js';
import { toWriteError, writeFileAtomic } from '#shared/node/atomic-write.js';
import { preparePlainSubdir } from '#shared/node/idea-store/path-safety.js';
import type { Differences } from './differences.js';

/**
 * `uiux-references/verify/<reference>-<n>/`: candidate.png, diff.png, report.json (every score and
 * difference) and report.md (for a person). A new folder per comparison, never overwritten: the
 * number is the highest taken + 1, claimed with an exclusive mkdir.
 */

export const VERIFY_DIR = 'verify';

export interface ReportFiles {
  dir: string;
  candidate: string;
  diff: string;
  report_json: string;
  report_md: string;
}

async function claimFolder(verifyDir: string, id: string): Promise<string> {
  const names = await fs.readdir(verifyDir).catch(() => [] as string[]);
  const pattern = new RegExp(`^${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`);
  let n = Math.max(0, ...names.map((name) => Number(pattern.exec(name)?.[1] ?? 0))) + 1;
  for (;;) {
    const dir = path.join(verifyDir, `${id}-${n}`);
    try {
      await fs.mkdir(dir, { mode: 0o755 });
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw toWriteError(dir, err);
      n += 1;
    }
  }
}

/** Markdown-inert text: page-derived strings cannot open links, images, HTML or code spans. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~&]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}

export interface ReportInput {
  reference: string;
  candidate: string;
  scores: CompareScores;
  found: Differences;
  notes: string[];
  viewport: { width: number; height: number };
  region: { x: number; y: number; width: number; height: number };
  elements: { reference: number; candidate: number; matched: number };
  /** Where the time went (ms): the extension's steps and the host's. */
  timings: Record<string, number>;
}

function markdown(r: ReportInput): string {
  const score = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));
  const lines = [
    `# Comparison with ${escapeMarkdown(r.reference)}`,
    '',
    `Candidate: ${escapeMarkdown(r.candidate)}  `,
    `Viewport ${r.viewport.width}×${r.viewport.height} CSS px; region ${Math.round(r.region.width)}×${Math.round(r.region.height)} at ${Math.round(r.region.x)},${Math.round(r.region.y)}.`,
    '',
    '| score | value |',
    '| --- | --- |',
    ...Object.entries(r.scores).map(([k, v]) => `| ${k} | ${score(v)} |`),
    '',
    '![candidate](candidate.png) ![difference](diff.png)',
    '',
    `## Differences (${r.found.differences.length})`,
    '',
    ...r.found.differences.map((d) => `- ${escapeMarkdown(d.text)}`),
  ];
  if (r.found.consequences.length > 0)
    lines.push(
      '',
      '## Moves that follow from the differences above',
      '',
      ...r.found.consequences.map(
        (d) => `- ${escapeMarkdown(d.text)} (from ${escapeMarkdown(d.explained_by)})`,
      ),
    );
  if (r.notes.length > 0) lines.push('', '## Notes', '', ...r.notes.map((n) => `- ${escapeMarkdown(n)}`));
  return `${lines.join('\n')}\n`;
}

export async function writeReport(
  refsDir: string,
  id: string,
  images: { candidate: Buffer; diff: Buffer },
  report: ReportInput,
): Promise<ReportFiles> {
  const verifyDir = await preparePlainSubdir(refsDir, VERIFY_DIR, `uiux-references/${VERIFY_DIR}/`);
  const dir = await claimFolder(verifyDir, id);
  const files: ReportFiles = {
    dir,
    candidate: path.join(dir, 'candidate.png'),
    diff: path.join(dir, 'diff.png'),
    report_json: path.join(dir, 'report.json'),
    report_md: path.join(dir, 'report.md'),
  };
  const json = {
    version: '1.0',
    reference: report.reference,
    candidate: report.candidate,
    scores: report.scores,
    viewport: report.viewport,
    region: report.region,
    elements: report.elements,
    differences: report.found.differences,
    consequences: report.found.consequences,
    notes: report.notes,
    timings: report.timings,
  };
  try {
    await Promise.all([
      writeFileAtomic(files.candidate, images.candidate, { syncDir: false }),
      writeFileAtomic(files.diff, images.diff, { syncDir: false }),
      writeFileAtomic(files.report_json, `${JSON.stringify(json, null, 2)}\n`, { syncDir: false }),
      writeFileAtomic(files.report_md, markdown(report)),
    ]);
  } catch (err) {
    throw toWriteError(dir, err);
  }
  return files;
}
