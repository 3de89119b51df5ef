import type { ToolbarMessageHandler } from '../types.js';

export const removeItem: ToolbarMessageHandler<'xipe-toolbar:remove_item'> = (req, { deps, tabId }) =>
  deps.store.remove(tabId, req.key);
