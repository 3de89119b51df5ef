import { z } from 'zod';
import { CaptureRect } from '../deep-capture/area-capture.js';
import { AreaId } from '../deep-capture/referenced-elements.js';
import { COLOR_ROLES } from '../design-tokens.js';
import { IdeaFolderName } from '../reference-data.js';
import { quoteShort } from '../tab-match.js';
import { refineOneLocator, StagedCaptureId } from './capture-area.js';
import { QueueFields } from './capture-queue.js';
import { WorkspacePath } from './save-reference.js';
import { TabRef, TabTarget } from './target.js';

/**
 * Handled by the native host for the `capture_area` MCP tool (docs/design.md §7): the host asks the
 * extension for the capture (`capture_area`) and each resource (`fetch_resource`), then writes
 * the area's files into the idea's `uiux-references/` under the idea lock — the host stays the
 * only writer of idea folders. The answer is small: paths and counts, never styles, HTML or bytes.
 */
export const SAVE_AREA = 'save_area';

export const SaveAreaParams = TabTarget.extend({
  /** As in save_reference: the toolbar names one of the registered workspaces (MCP servers send theirs in the hello). */
  workspace: WorkspacePath.optional(),
  idea_folder: IdeaFolderName,
  selector: z.string().min(1).max(4096).optional(),
  rect: CaptureRect.optional(),
  /** The designer toolbar's deep capture, staged in the extension (accepted from the extension only). */
  staged: StagedCaptureId.optional(),
  /** `area-N`; default the next free one. An existing id is replaced. */
  area_id: AreaId.optional(),
  instruction: z.string().max(65_536).default(''),
  /**
   * Colours the designer picked and named in the same toolbar session: in the area's tokens and
   * summary their roles win over the palette's guess for the same colour (or one a hair apart).
   */
  color_roles: z
    .array(z.object({ hex: z.string().regex(/^#[0-9a-f]{6}$/i), role: z.enum(COLOR_ROLES) }).strict())
    .max(256)
    .optional(),
  timeout_ms: z.number().int().positive().max(600_000).default(60_000),
})
  .strict()
  .superRefine(refineOneLocator);
export type SaveAreaParams = z.infer<typeof SaveAreaParams>;
export type SaveAreaParamsInput = z.input<typeof SaveAreaParams>;

export const SavedResource = z.object({
  type: z.string(),
  src: z.string(),
  local_path: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type SavedResource = z.infer<typeof SavedResource>;

/** A few of the resources left out, as examples: their URLs are the page's, shortened and quoted. */
export const SkippedExample = z.object({ src: z.string().max(100), reason: z.string().max(200) });
export type SkippedExample = z.infer<typeof SkippedExample>;
export const MAX_SKIPPED_EXAMPLES = 3;

/**
 * The answer is bounded (≤ 2 KB: an agent reads it into its context): counts, not lists. The
 * resources and what was left out are in the area's files (referenced-elements.json).
 */
export const SaveAreaResult = z.object({
  status: z.literal('success'),
  area_id: AreaId,
  element_count: z.number().int().nonnegative(),
  resource_count: z.number().int().nonnegative(),
  resource_bytes: z.number().int().nonnegative(),
  /** Absolute paths of every file written but the resources: the summary and tokens are what to read next. */
  files: z.object({
    referenced_elements: z.string(),
    structure_html: z.string(),
    styles_css: z.string(),
    screenshot: z.string(),
    /** Optional for a host of an earlier version; this one always writes it. */
    summary: z.string().optional(),
    /** Absent when the idea has no tokens to write. */
    tokens: z.string().optional(),
  }),
  elapsed_ms: z.number().nonnegative(),
  /** Resources left out (too large, not an image or font, unreachable): how many, and a few. */
  skipped_count: z.number().int().nonnegative(),
  skipped_examples: z.array(SkippedExample).max(MAX_SKIPPED_EXAMPLES),
  tab: TabRef.optional(),
  /** How long the capture waited for its window; `queued_behind` says behind what (when it waited). */
  ...QueueFields,
});
/** The count and a few short, quoted examples of the resources left out. */
export function summarizeSkipped(skipped: readonly { src: string; reason: string }[]): {
  skipped_count: number;
  skipped_examples: SkippedExample[];
} {
  return {
    skipped_count: skipped.length,
    skipped_examples: skipped.slice(0, MAX_SKIPPED_EXAMPLES).map((s) => ({
      src: quoteShort(s.src, 80),
      reason: s.reason.length > 200 ? `${s.reason.slice(0, 199)}…` : s.reason,
    })),
  };
}
export type SaveAreaResult = z.infer<typeof SaveAreaResult>;
