import type { ToolbarMessageHandler } from '../types.js';

/** A frame of the page at rest, taken while the designer hovers, so a press shows a preview at once. */
export const restFrame: ToolbarMessageHandler<'xipe-toolbar:rest_frame'> = async (
  req,
  { deps, tabId, windowId },
) => ({
  frame: windowId === undefined ? null : await deps.capture.rest(tabId, windowId, req.viewport),
});
