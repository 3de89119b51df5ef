import type { ToolbarMessageHandler } from '../types.js';

/** The press, nothing changed since the rest frame: a thumbnail cut from it. */
export const preview: ToolbarMessageHandler<'xipe-toolbar:preview'> = async (req, { deps, tabId }) => ({
  data_url: await deps.capture.preview(tabId, req.frame, req.crop),
});
