import type { ToolbarMessageHandler } from '../types.js';

/** The tab's collection (typography added when the toolbar sends it) and whether Save can work. */
export const getState: ToolbarMessageHandler<'xipe-toolbar:get_state'> = async (
  req,
  { deps, tabId, tabUrl },
) => ({
  collection: await deps.store.get(tabId, tabUrl, req.typography),
  host_connected: deps.host.connected,
});
