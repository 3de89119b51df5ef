import { z } from 'zod';
import { ScreenshotMode } from '../../../shared/src/commands/capture-screenshot.js';
import {
  MAX_INLINE_PNG_BYTES,
  refineScreenshotParams,
  SAVE_SCREENSHOT,
} from '../../../shared/src/commands/save-screenshot.js';
import { IdeaFolderName } from '../../../shared/src/reference-data.js';
import { resolveRoute, routeOptions } from '../routing.js';
import { refineOneTarget, tabTargetShape } from '../tab-target-args.js';
import { defineTool, withImages } from './define-tool.js';

export const captureScreenshotTool = defineTool({
  name: 'capture_screenshot',
  description:
    "Take a PNG screenshot of a tab in the user's browser and write it to a file (the image never enters your " +
    "context unless you ask): `mode` 'viewport' (default), 'element' (with `selector`) or 'full_page'. " +
    'Write to `output_path` (a .png inside the workspace; relative paths resolve against it) or into ' +
    "`idea_folder`'s uiux-references/screenshots/ (next free number; reference it from save_uiux_reference " +
    'as screenshots/<file>); neither = x-ipe-docs/screenshots/. Returns path, width, height, bytes. Same tab ' +
    `targeting as inject_script. \`return_base64\` also returns the PNG as an image content block, up to ${MAX_INLINE_PNG_BYTES / 1024} KiB.` +
    ' Captures in one browser window take turns (other agents, the designer): a call waits its turn, its timeout_ms counts from when it starts, and the answer says how long it waited (queued_ms, queued_behind).',
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
        .describe(
          `Also return the PNG as an image content block (only up to ${MAX_INLINE_PNG_BYTES} bytes).`,
        ),
      timeout_ms: z.number().int().positive().max(120_000).default(30_000).describe('Default 30000.'),
    })
    .superRefine((args, ctx) => {
      refineOneTarget(args, ctx);
      refineScreenshotParams(args, ctx);
      // Stricter than the wire: an agent passing a selector without mode 'element' meant something else.
      if (args.mode !== 'element' && args.selector !== undefined)
        ctx.addIssue({ code: 'custom', path: ['selector'], message: "is only used with mode 'element'" });
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
    if (base64 === undefined) return { success: true, ...rest };
    // The bytes go once, as an image block; the JSON only says where they are.
    return withImages({ success: true, ...rest, image: 'returned as an image content block (image/png)' }, [
      { data: base64, mimeType: 'image/png' },
    ]);
  },
});
