import type { ToolbarMessageHandler } from '../types.js';

/** Colour mode: the pixels of a viewport rectangle. */
export const sample: ToolbarMessageHandler<'xipe-toolbar:sample'> = async (
  req,
  { deps, tabId, windowId },
) => {
  const crop = await deps.capture.crop(tabId, req.crop, req.viewport, windowId);
  return crop
    ? { data_url: `data:image/png;base64,${crop.png}`, width: crop.width, height: crop.height }
    : null;
};
