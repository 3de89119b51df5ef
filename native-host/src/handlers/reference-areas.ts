import {
  AreaImageParams,
  type AreaImageResult,
  ListAreasParams,
  type ListAreasResult,
} from '#shared/commands/reference-areas.js';
import { validationError } from '#shared/errors.js';
import { pageFiles, readReferencedFile } from '#shared/node/idea-store/page-references.js';
import { ideaPaths, prepareIdeaDirs } from '#shared/node/idea-store/path-safety.js';
import { resolveWorkspace } from '#shared/node/idea-store/workspaces.js';
import { areaReference } from './compare-with-reference.js';
import type { HostHandler, HostHandlerContext } from './types.js';
import { caller } from './workspace.js';

/**
 * `list_areas` and `area_image`, for the toolbar's overlay: an idea's deep-captured areas, and one
 * area's screenshot as bytes (read from inside the idea, links resolved, as the comparison reads
 * it), so no page ever gets a path or URL into the workspace.
 */

async function refsDirOf(
  ctx: HostHandlerContext,
  p: { workspace?: string | undefined; idea_folder: string },
): Promise<string> {
  const workspace = resolveWorkspace({ ...caller(ctx), requested: p.workspace });
  return (await prepareIdeaDirs(ideaPaths(workspace, p.idea_folder), p.idea_folder)).refsDir;
}

export const listAreasHandler: HostHandler = async (params, ctx): Promise<ListAreasResult> => {
  const parsed = ListAreasParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'list_areas params', params ?? {});
  const referenced = await readReferencedFile(pageFiles(await refsDirOf(ctx, parsed.data)).referenced);
  return {
    areas: (referenced?.areas ?? [])
      .filter((a) => a.screenshot !== null && a.selected_area_bounding_box !== null)
      .map((a) => ({
        area_id: a.area_id,
        width: a.selected_area_bounding_box?.width ?? 0,
        height: a.selected_area_bounding_box?.height ?? 0,
        instruction: a.instruction === '' ? null : a.instruction.slice(0, 2000),
        source_url: referenced?.source_url ? referenced.source_url.slice(0, 4096) : null,
      })),
  };
};

export const areaImageHandler: HostHandler = async (params, ctx): Promise<AreaImageResult> => {
  const parsed = AreaImageParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'area_image params', params ?? {});
  const reference = await areaReference(await refsDirOf(ctx, parsed.data), parsed.data.area_id, undefined);
  return {
    area_id: reference.id,
    png: reference.png.toString('base64'),
    width: reference.pixelWidth,
    height: reference.pixelHeight,
    css_width: reference.width,
    css_height: reference.height,
  };
};
