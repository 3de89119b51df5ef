import { z } from 'zod';
import {
  COMPARE_WITH_REFERENCE,
  CompareFields,
  refineCompareChoices,
} from '#shared/commands/compare-with-reference.js';
import { resolveRoute, routeOptions } from '../bridge-client/routing.js';
import { tabTargetShape } from './call/tab-target-args.js';
import { defineTool } from './define-tool.js';

/** Rendering waits for the page, its fonts and images, and two captures a second. */
const COMPARE_TIMEOUT_MS = 30_000;

export const compareWithReferenceTool = defineTool({
  name: 'compare_with_reference',
  description:
    "Check a rebuild against a captured reference: renders the candidate in the user's browser (a window of its " +
    "own, unfocused, closed after; the user's tabs are not touched), compares it with a deep-captured area " +
    '(`area_id`) or a screenshot under the idea (`screenshot`), and answers with scores 0–1 (pixel, ssim, ' +
    "block_match, text, position, color) and the five largest differences in words naming the candidate's " +
    'selectors. Candidate: `file_path` (an HTML file inside the workspace, served to the browser for this call ' +
    "only) or `url` (http://localhost or http://127.0.0.1 only). The region compared is the candidate page's " +
    "top-left at the reference's size, or the element `selector` names. Writes uiux-references/verify/<id>-<n>/ " +
    '(candidate.png, diff.png, report.json with every difference, report.md). Loop: fix the top differences, ' +
    'compare again until the scores hold.',
  inputSchema: z
    .strictObject({
      idea_folder: CompareFields.idea_folder.describe('An existing folder name under x-ipe-docs/ideas/.'),
      area_id: CompareFields.area_id.describe(
        'The captured area to compare with (area-N, from capture_area).',
      ),
      screenshot: CompareFields.screenshot.describe(
        'Or a PNG under the idea\'s uiux-references/, e.g. "screenshots/full-page-001.png" (pixel scores only).',
      ),
      file_path: CompareFields.file_path.describe(
        'The candidate: an HTML file inside the workspace (absolute or workspace-relative).',
      ),
      url: CompareFields.url.describe(
        'Or the candidate on a local dev server: http://localhost:PORT/… or http://127.0.0.1:PORT/….',
      ),
      selector: CompareFields.selector.describe(
        "CSS selector of the candidate's region (its top-left); default the page's top-left.",
      ),
      viewport_width: CompareFields.viewport_width.describe(
        'CSS px; default the width the area was captured at.',
      ),
      dpr: CompareFields.dpr.describe(
        "Device pixel ratio; default the reference's (said in notes when the browser's differs).",
      ),
      browser: tabTargetShape.browser,
      timeout_ms: z
        .number()
        .int()
        .positive()
        .max(300_000)
        .default(COMPARE_TIMEOUT_MS)
        .describe('Default 30000.'),
    })
    .superRefine(refineCompareChoices),
  timeoutMs: COMPARE_TIMEOUT_MS + 5_000,
  annotations: {
    title: 'Compare a rebuild with its reference',
    destructiveHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const route = await resolveRoute(ctx.bridge, { browser: args.browser }, ctx.signal);
    const { browser: _browser, ...params } = args;
    return ctx.bridge.request(COMPARE_WITH_REFERENCE, params, {
      ...routeOptions(route),
      timeoutMs: args.timeout_ms,
      signal: ctx.signal,
    });
  },
});
