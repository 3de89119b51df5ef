import { z } from 'zod';
import { IdeaFolderName } from '../reference-data.js';
import { QueueFields } from './capture-queue.js';
import { ScreenshotMode } from './capture-screenshot.js';
import { TabRef, TabTarget } from './target.js';

/**
 * Handled by the native host for `capture_screenshot` (the MCP tool): the host asks the extension
 * for the PNG (`capture_screenshot` on the native link) and writes it itself — to `output_path`
 * inside the caller's workspace, or into an idea's `uiux-references/screenshots/` — so the bytes
 * cross one hop and the host stays the only writer of idea folders.
 */
export const SAVE_SCREENSHOT = 'save_screenshot';

/** Base64 returned to the agent only up to this many bytes of PNG (a result must fit a context). */
export const MAX_INLINE_PNG_BYTES = 256 * 1024;

/** What the fields say together: an element needs its selector; one destination at most. */
export function refineScreenshotParams(
  p: {
    mode: string;
    selector?: string | undefined;
    output_path?: string | undefined;
    idea_folder?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (p.mode === 'element' && p.selector === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['selector'],
      message: "a CSS selector when mode is 'element'",
    });
  if (p.output_path !== undefined && p.idea_folder !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['idea_folder'],
      message: 'at most one of output_path and idea_folder',
      params: { received: 'both' },
    });
}

export const SaveScreenshotParams = TabTarget.extend({
  mode: ScreenshotMode.default('viewport'),
  selector: z.string().min(1).max(4096).optional(),
  /** A .png path inside the workspace; relative paths resolve against the workspace. */
  output_path: z.string().min(1).max(4096).optional(),
  idea_folder: IdeaFolderName.optional(),
  return_base64: z.boolean().default(false),
  timeout_ms: z.number().int().positive().max(600_000).default(30_000),
})
  .strict()
  .superRefine(refineScreenshotParams);
export type SaveScreenshotParams = z.infer<typeof SaveScreenshotParams>;
export type SaveScreenshotParamsInput = z.input<typeof SaveScreenshotParams>;

export const SaveScreenshotResult = z.object({
  /** Absolute path of the PNG written. */
  path: z.string(),
  /** The same path relative to the workspace (`/` separators). */
  relative_path: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  mode: ScreenshotMode,
  tab: TabRef,
  capped_at: z.number().optional(),
  /** Only with return_base64 and at most MAX_INLINE_PNG_BYTES of PNG. */
  base64: z.string().optional(),
  /** Why base64 was left out although asked for. */
  base64_omitted: z.string().optional(),
  /** How long the capture waited for its window; `queued_behind` says behind what (when it waited). */
  ...QueueFields,
});
export type SaveScreenshotResult = z.infer<typeof SaveScreenshotResult>;
