import type { ToolbarMessageHandler } from '../types.js';

/** Stages an area's deep capture with its item until Save. */
export const deepCapture: ToolbarMessageHandler<'xipe-toolbar:deep_capture'> = async (
  req,
  { deps, tabId },
) => {
  const summary = await deps.staged.take(tabId, req.key, req.rect);
  // The item may have gone meanwhile (removed, saved): then what was staged for it goes too.
  return deps.store
    .setDeep(tabId, req.key, { instruction: req.instruction, ...summary })
    .catch(async (err: unknown) => {
      await deps.store.dropStaged(req.key);
      throw err;
    });
};
