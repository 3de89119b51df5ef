import { z } from 'zod';
import { AreaId } from '../deep-capture/referenced-elements.js';
import { IdeaFolderName } from '../reference-data.js';
import { LoopbackUrl } from './render-candidate.js';
import { WorkspacePath } from './save-reference.js';

/**
 * Handled by the native host for the `compare_with_reference` MCP tool (DESIGN §8): the host
 * serves a candidate file (or takes a loopback URL), has the extension render it in a window of
 * its own (`render_candidate`), compares it with a captured area (or a screenshot) and writes
 * `uiux-references/verify/<id>-<n>/`. The answer stays small: scores, five sentences, paths.
 */
export const COMPARE_WITH_REFERENCE = 'compare_with_reference';

/** A path under the idea's uiux-references/ (checked again against real paths by the host). */
export const ReferenceScreenshotPath = z
  .string()
  .min(1)
  .max(1024)
  .regex(/\.png$/i, 'a .png file under the idea\'s uiux-references/, e.g. "screenshots/full-page-001.png"');

export const CompareFields = {
  idea_folder: IdeaFolderName,
  area_id: AreaId.optional(),
  screenshot: ReferenceScreenshotPath.optional(),
  /** An HTML file inside the workspace (absolute, or relative to the workspace). */
  file_path: z.string().min(1).max(4096).optional(),
  url: LoopbackUrl.optional(),
  selector: z.string().min(1).max(4096).optional(),
  viewport_width: z.number().int().min(100).max(4096).optional(),
  dpr: z.number().positive().max(8).optional(),
};

/** Exactly one reference (area_id | screenshot) and exactly one candidate (file_path | url). */
export function refineCompareChoices(
  v: { area_id?: unknown; screenshot?: unknown; file_path?: unknown; url?: unknown },
  ctx: z.RefinementCtx,
): void {
  for (const [a, b] of [
    ['area_id', 'screenshot'],
    ['file_path', 'url'],
  ] as const) {
    const given = (v[a] !== undefined ? 1 : 0) + (v[b] !== undefined ? 1 : 0);
    if (given !== 1)
      ctx.addIssue({
        code: 'custom',
        path: [given === 0 ? a : b],
        message: given === 0 ? `give ${a} or ${b}` : `give ${a} or ${b}, not both`,
      });
  }
}

export const CompareWithReferenceParams = z
  .object({
    workspace: WorkspacePath.optional(),
    ...CompareFields,
    timeout_ms: z.number().int().positive().max(600_000).default(30_000),
  })
  .strict()
  .superRefine(refineCompareChoices);
export type CompareWithReferenceParams = z.infer<typeof CompareWithReferenceParams>;
export type CompareWithReferenceParamsInput = z.input<typeof CompareWithReferenceParams>;

const Score = z.number().min(0).max(1).nullable();

export const CompareScores = z.object({
  pixel: Score,
  ssim: Score,
  block_match: Score,
  text: Score,
  position: Score,
  color: Score,
});
export type CompareScores = z.infer<typeof CompareScores>;

export const CompareWithReferenceResult = z.object({
  status: z.literal('success'),
  reference: z.string(),
  /** Null for a screenshot reference (no elements to match): those scores are null too. */
  scores: CompareScores,
  /** The five largest differences, in words, naming the candidate's selector. */
  differences: z.array(z.string().max(240)).max(5),
  difference_count: z.number().int().nonnegative(),
  /** Absolute paths. */
  files: z.object({
    candidate: z.string(),
    diff: z.string(),
    report_json: z.string(),
    report_md: z.string(),
  }),
  notes: z.array(z.string().max(300)).max(3).optional(),
  elapsed_ms: z.number().nonnegative(),
});
export type CompareWithReferenceResult = z.infer<typeof CompareWithReferenceResult>;
