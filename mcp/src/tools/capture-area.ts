import { z } from 'zod';
import { refineOneLocator } from '#shared/commands/capture-area.js';
import { SAVE_AREA } from '#shared/commands/save-area.js';
import { CaptureRect } from '#shared/deep-capture/area-capture.js';
import { AreaId } from '#shared/deep-capture/referenced-elements.js';
import { IdeaFolderName } from '#shared/reference-data.js';
import { resolveRoute, routeOptions } from '../bridge-client/routing.js';
import { refineOneTarget, tabTargetShape } from './call/tab-target-args.js';
import { defineTool } from './define-tool.js';

/** Capture, fetching resources and writing them can take a while on a heavy page. */
const CAPTURE_TIMEOUT_MS = 60_000;

export const captureAreaTool = defineTool({
  name: 'capture_area',
  description:
    "Deep-capture an area of a tab into an idea folder, as data to rebuild it from: each element's styles and " +
    ':hover/:focus states, fonts and images as files, an offline HTML+CSS clone and a screenshot. Give exactly one ' +
    'of `selector` or `rect` (CSS px, page coordinates). Writes uiux-references/page-element-references/ ' +
    '(referenced-elements.json, summarized-uiux-reference.md, resources/) and screenshots/area-N.png. Returns ' +
    'paths and counts only: read files.summary (and files.tokens, the design tokens) next.' +
    ' Waits its turn behind other captures in the same window; timeout_ms counts from its start; the answer has queued_ms.',
  inputSchema: z
    .strictObject({
      idea_folder: IdeaFolderName.describe('An existing folder name under x-ipe-docs/ideas/.'),
      selector: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe('CSS selector of the area (its first match).'),
      rect: CaptureRect.optional().describe('The area in CSS px, page coordinates (not the viewport).'),
      area_id: AreaId.optional().describe('area-N to replace; default the next free one.'),
      instruction: z
        .string()
        .max(65_536)
        .optional()
        .describe('What to do with this area (kept with it, shown in the summary).'),
      ...tabTargetShape,
      timeout_ms: z
        .number()
        .int()
        .positive()
        .max(300_000)
        .default(CAPTURE_TIMEOUT_MS)
        .describe('Default 60000.'),
    })
    .superRefine((args, ctx) => {
      refineOneTarget(args, ctx);
      refineOneLocator(args, ctx);
    }),
  timeoutMs: CAPTURE_TIMEOUT_MS + 5_000,
  annotations: { title: 'Deep-capture an area into an idea', destructiveHint: false, openWorldHint: true },
  async handler(args, ctx) {
    const route = await resolveRoute(ctx.bridge, args, ctx.signal);
    return ctx.bridge.request(
      SAVE_AREA,
      {
        ...route.target,
        idea_folder: args.idea_folder,
        ...(args.selector !== undefined ? { selector: args.selector } : {}),
        ...(args.rect !== undefined ? { rect: args.rect } : {}),
        ...(args.area_id !== undefined ? { area_id: args.area_id } : {}),
        ...(args.instruction !== undefined ? { instruction: args.instruction } : {}),
        timeout_ms: args.timeout_ms,
      },
      {
        ...routeOptions(route),
        timeoutMs: args.timeout_ms,
        signal: ctx.signal,
        ...(ctx.progress !== undefined ? { onProgress: ctx.progress } : {}),
      },
    );
  },
});
