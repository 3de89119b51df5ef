import { z } from 'zod';
import { ScreenshotMode } from '#shared/commands/capture-screenshot.js';
import {
  MAX_INLINE_PNG_BYTES,
  refineScreenshotParams,
  SAVE_SCREENSHOT,
} from '#shared/commands/save-screenshot.js';
import { IdeaFolderName } from '#shared/reference-data.js';
import { resolveRoute, routeOptions } from '../bridge-client/routing.js';
import { refineOneTarget, tabTargetShape } from './call/tab-target-args.js';
import { defineTool, withImages } from './define-tool.js';

export const captureScreenshotTool = defineTool({
  name: 'capture_screenshot',
  description:
    "Screenshot a tab to a PNG file (no image bytes in your context unless `return_base64`): mode 'viewport', " +
    "'element' (with `selector`) or 'full_page'. Writes to `output_path` (inside the workspace) or to " +
    "`idea_folder`'s uiux-references/screenshots/ (use it in save_uiux_reference as screenshots/<file>); " +
    'neither = x-ipe-docs/screenshots/. Returns path, width, height, bytes.' +
    ' Waits its turn behind other captures in the same window; timeout_ms counts from its start; the answer has queued_ms.',
  inputSchema: z
    .strictObject({
      mode: ScreenshotMode.default('viewport').describe("'viewport' (default), 'element' or 'full_page'."),
      selector: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe("CSS selector of the element (mode 'element')."),
      ...tabTargetShape,
      output_path: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe('Where to write the .png, inside the workspace (relative to it, or absolute).'),
      idea_folder: IdeaFolderName.optional().describe(
        "Write into this idea's uiux-references/screenshots/ instead (an existing folder under x-ipe-docs/ideas).",
      ),
      return_base64: z
        .boolean()
        .default(false)
        .describe(`Also return the PNG as an image block (up to ${MAX_INLINE_PNG_BYTES / 1024} KiB).`),
      timeout_ms: z.number().int().positive().max(120_000).default(30_000).describe('Default 30000.'),
    })
    .superRefine((args, ctx) => {
      refineOneTarget(args, ctx);
      refineScreenshotParams(args, ctx);
      // Stricter than the wire: an agent passing a selector without mode 'element' meant something else.
      if (args.mode !== 'element' && args.selector !== undefined)
        ctx.addIssue({ code: 'custom', path: ['selector'], message: "no selector unless mode is 'element'" });
    }),
  // The default capture limit (30 s, enforced by the host) must fire before the server's own.
  timeoutMs: 35_000,
  // Writes a new file (never overwrites an idea's screenshots: next free number) and reads the page.
  annotations: {
    title: 'Screenshot a tab to a file',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const route = await resolveRoute(ctx.bridge, args, ctx.signal);
    const result = await ctx.bridge.request(
      SAVE_SCREENSHOT,
      {
        ...route.target,
        mode: args.mode,
        ...(args.selector !== undefined ? { selector: args.selector } : {}),
        ...(args.output_path !== undefined ? { output_path: args.output_path } : {}),
        ...(args.idea_folder !== undefined ? { idea_folder: args.idea_folder } : {}),
        return_base64: args.return_base64,
        timeout_ms: args.timeout_ms,
      },
      {
        ...routeOptions(route),
        timeoutMs: args.timeout_ms,
        signal: ctx.signal,
        ...(ctx.progress !== undefined ? { onProgress: ctx.progress } : {}),
      },
    );
    const { base64, ...rest } = result;
    if (base64 === undefined) return { status: 'success', ...rest };
    // The bytes go once, as an image block; the JSON only says where they are.
    return withImages(
      { status: 'success', ...rest, image: 'returned as an image content block (image/png)' },
      [{ data: base64, mimeType: 'image/png' }],
    );
  },
});
