import {
  COMPARE_WITH_REFERENCE,
  CompareWithReferenceResult,
} from '#shared/commands/compare-with-reference.js';
import {
  AREA_IMAGE,
  AreaImageResult,
  LIST_AREAS,
  ListAreasResult,
} from '#shared/commands/reference-areas.js';
import { loopbackUrlProblem } from '#shared/commands/render-candidate.js';
import { XipeError } from '#shared/errors.js';
import type { HostLink } from '../host-link.js';
import type { ToolbarDeps, ToolbarMessageHandler } from '../types.js';

/**
 * The verify loop's designer side: the idea's areas and one area's screenshot for the overlay
 * (read by the host: the page gets the bytes, never a path or URL into the workspace), and the
 * host's comparison of this tab's page with an area — the same `compare_with_reference` an agent
 * calls, so the panel's scores are the tool's.
 */

/** A comparison renders the page again and reads it: allow it the tool's own time limit and more. */
const COMPARE_TIMEOUT_MS = 60_000;

function connectedHost(deps: ToolbarDeps): HostLink {
  if (!deps.host.connected)
    throw new XipeError(
      'BACKEND_UNREACHABLE',
      'The X-IPE native host is not connected. Run `x-ipe-uiux install --workspace <dir>`, then reopen the toolbar.',
    );
  return deps.host;
}

const ideaOf = (req: { workspace?: string | undefined; idea_folder: string }) => ({
  ...(req.workspace ? { workspace: req.workspace } : {}),
  idea_folder: req.idea_folder,
});

export const verifyAreas: ToolbarMessageHandler<'xipe-toolbar:verify_areas'> = async (req, { deps }) => {
  const listed = ListAreasResult.parse(await connectedHost(deps).request(LIST_AREAS, ideaOf(req)));
  return {
    areas: listed.areas.map(({ area_id, width, height, instruction }) => ({
      area_id,
      width,
      height,
      instruction,
    })),
  };
};

export const areaImage: ToolbarMessageHandler<'xipe-toolbar:area_image'> = async (req, { deps }) => {
  const image = AreaImageResult.parse(
    await connectedHost(deps).request(AREA_IMAGE, { ...ideaOf(req), area_id: req.area_id }),
  );
  return {
    data_url: `data:image/png;base64,${image.png}`,
    width: image.width,
    height: image.height,
    css_width: image.css_width,
    css_height: image.css_height,
  };
};

export const compare: ToolbarMessageHandler<'xipe-toolbar:compare'> = async (req, { deps, tabUrl }) => {
  const problem = loopbackUrlProblem(tabUrl);
  if (problem !== null)
    throw new XipeError(
      'VALIDATION_ERROR',
      `Compare renders this page again in a window of its own, which it does only for ${problem}; this tab shows ${tabUrl.slice(0, 200)}. ` +
        'Open the mockup from a local dev server (or have an agent call compare_with_reference with its file_path).',
    );
  const host = connectedHost(deps);
  const result = CompareWithReferenceResult.parse(
    await host.request(
      COMPARE_WITH_REFERENCE,
      {
        ...ideaOf(req),
        area_id: req.area_id,
        url: tabUrl,
        ...(req.selector !== undefined ? { selector: req.selector } : {}),
      },
      COMPARE_TIMEOUT_MS,
    ),
  );
  return {
    scores: result.scores,
    differences: result.differences,
    difference_count: result.difference_count,
    notes: result.notes ?? [],
    report: result.files.report_md,
  };
};
