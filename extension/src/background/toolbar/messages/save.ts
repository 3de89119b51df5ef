import { NEXT_REFERENCE_IDS, NextReferenceIdsResult } from '#shared/commands/next-reference-ids.js';
import { SAVE_REFERENCE, SaveReferenceParams, SaveReferenceResult } from '#shared/commands/save-reference.js';
import { STAGE_IMAGE, STAGED_PREFIX, StageImageResult } from '#shared/commands/stage-image.js';
import { DTCG_FILE } from '#shared/design-tokens.js';
import { validationError, XipeError } from '#shared/errors.js';
import type { SaveOutcome } from '#shared/toolbar-messages.js';
import { saveAreas } from '../deep-save.js';
import { buildReferenceData } from '../reference-builder.js';
import type { ToolbarContext, ToolbarMessageHandler } from '../types.js';

const SAVE_TIMEOUT_MS = 60_000;

/** Save: images first, then the areas' files, then one small session that names them all. */
export const save: ToolbarMessageHandler<'xipe-toolbar:save'> = (req, ctx) =>
  saveCollection(ctx, req.workspace, req.idea_folder);

async function saveCollection(
  ctx: ToolbarContext,
  workspace: string | undefined,
  ideaFolder: string,
): Promise<SaveOutcome> {
  const { deps, tabId, tabUrl } = ctx;
  const collection = await deps.store.get(tabId, tabUrl);
  if (collection.elements.length === 0 && collection.colors.length === 0) {
    throw new XipeError(
      'VALIDATION_ERROR',
      'Nothing collected yet: pick an element, an area or a colour first.',
    );
  }
  if (!deps.host.connected) {
    throw new XipeError(
      'BACKEND_UNREACHABLE',
      'The X-IPE native host is not connected, so nothing can be saved yet. Your captures are kept. ' +
        'Run `x-ipe-uiux install` (or `x-ipe-uiux doctor`) and try again.',
    );
  }
  const target = { ...(workspace ? { workspace } : {}), idea_folder: ideaFolder };
  const ids = NextReferenceIdsResult.parse(await deps.host.request(NEXT_REFERENCE_IDS, target));
  // Each image goes to the host on its own first; the save names it. A session is never
  // refused for its own screenshot sizes (a nine-viewport full page at DPR 2 is ~12 MB of base64).
  const screenshots = new Map<string, string>();
  for (const e of collection.elements) {
    const crop = await deps.store.crop(e.key);
    if (!crop) continue;
    const imageId = crypto.randomUUID();
    StageImageResult.parse(
      await deps.host.request(STAGE_IMAGE, { image_id: imageId, png_base64: crop.png }, SAVE_TIMEOUT_MS),
    );
    screenshots.set(e.key, `${STAGED_PREFIX}${imageId}`);
  }
  // Deep captures go first: the session's elements point at the areas' files.
  const areas = await saveAreas({
    host: deps.host,
    store: deps.store,
    tabId,
    elements: collection.elements,
    colors: collection.colors,
    target,
  });
  const data = buildReferenceData({ collection, screenshots, areas, ideaFolder, ids, now: ctx.now() });
  const params = SaveReferenceParams.safeParse({ ...(workspace ? { workspace } : {}), data });
  if (!params.success)
    throw validationError(params.error, 'reference data', { ...(workspace ? { workspace } : {}), data });
  const result = SaveReferenceResult.parse(
    await deps.host.request(SAVE_REFERENCE, params.data, SAVE_TIMEOUT_MS),
  );
  await deps.store.clear(tabId, tabUrl, {
    from: collection,
    target: { workspace: result.workspace, idea_folder: result.idea_folder },
  });
  const refsDir = result.reference_data_path.slice(0, result.reference_data_path.lastIndexOf('/') + 1);
  const outcome: SaveOutcome = {
    session_number: result.session_number,
    session_file: result.session_file,
    session_path: result.session_path,
    reference_data_path: result.reference_data_path,
    screenshots: result.screenshots,
    idea_folder: result.idea_folder,
    workspace: result.workspace,
    tokens_path: data.design_tokens ? `${refsDir}${DTCG_FILE}` : null,
  };
  ctx.emit('session_saved', collection.source_url, outcome);
  return outcome;
}
