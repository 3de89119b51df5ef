import { z } from 'zod';
import { QueueClient, QueueReport } from './capture-queue.js';
import { TabRef, TabTarget } from './target.js';

/**
 * Handled by the extension: takes a PNG of a tab (viewport, one element, or the full page) and
 * answers with its bytes. The host asks for it while handling `save_screenshot` and writes the
 * file, so the image crosses the native link once and never reaches the MCP server unless asked.
 */
export const CAPTURE_SCREENSHOT = 'capture_screenshot';

export const ScreenshotMode = z.enum(['viewport', 'element', 'full_page']);
export type ScreenshotMode = z.infer<typeof ScreenshotMode>;

export const CaptureScreenshotParams = z
  .object({
    mode: ScreenshotMode.default('viewport'),
    /** CSS selector of the element (mode `element`; the first match). */
    selector: z.string().min(1).max(4096).optional(),
    target: TabTarget.default({}),
    /** Who asked (the host names its bridge client): captures take turns fairly between clients. */
    client: QueueClient.optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.mode === 'element' && p.selector === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['selector'],
        message: "a CSS selector when mode is 'element'",
      });
  });
export type CaptureScreenshotParams = z.infer<typeof CaptureScreenshotParams>;
export type CaptureScreenshotParamsInput = z.input<typeof CaptureScreenshotParams>;

export const CaptureScreenshotResult = z.object({
  /** Standard base64 of the PNG file. */
  png: z.string().min(1),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  tab: TabRef,
  /** Device pixels per CSS px of the capture. */
  scale: z.number().positive(),
  /** Full page: the page was taller than what is stitched (the cut height in CSS px). */
  capped_at: z.number().optional(),
  /** How long the shot waited for its window (other captures in it went first). */
  queue: QueueReport.optional(),
});
export type CaptureScreenshotResult = z.infer<typeof CaptureScreenshotResult>;
