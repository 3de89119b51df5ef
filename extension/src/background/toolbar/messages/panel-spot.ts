import type { ToolbarMessageHandler } from '../types.js';

/** Where the designer last left the panel (kept for every page). */
export const panelSpot: ToolbarMessageHandler<'xipe-toolbar:panel_spot'> = (req, { deps }) =>
  deps.store.panelSpot(req.spot);
