import type { ToolbarMessageHandler } from '../types.js';

/** The toolbar's turn in its window's capture queue: ms it waited; 0 when released. */
export const turn: ToolbarMessageHandler<'xipe-toolbar:turn'> = async (req, { deps, tabId, windowId }) => ({
  queued_ms: await deps.capture.turn(tabId, windowId, req.hold),
});
