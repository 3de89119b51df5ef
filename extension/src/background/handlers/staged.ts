import type { CaptureAreaResult, FetchResourceParams, FetchResourceResult } from '#shared/index.js';
import { XipeError } from '#shared/index.js';
import { fetchResource } from './fetch-resource.js';
import type { HandlerContext } from './types.js';

/**
 * `capture_area` and `fetch_resource` for a deep capture the toolbar staged (the host's
 * `save_area` on the designer's Save): answered from what was read and fetched at capture time,
 * so the page is not touched again and may have moved on.
 */

export async function stagedArea(key: string, ctx: HandlerContext): Promise<CaptureAreaResult> {
  const area = await ctx.staged.area(key);
  if (area === null) {
    throw new XipeError(
      'VALIDATION_ERROR',
      `No deep capture is staged for toolbar item ${key}: it was removed or already saved. Capture the area again.`,
      { staged: key },
    );
  }
  return area;
}

/** A file not staged (none was fetched for that URL) is fetched now, as for a live capture. */
export async function stagedResource(
  params: FetchResourceParams,
  key: string,
  ctx: HandlerContext,
): Promise<FetchResourceResult> {
  return (await ctx.staged.resource(key, params.url)) ?? fetchResource(params);
}
