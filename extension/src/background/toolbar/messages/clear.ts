import type { ToolbarMessageHandler } from '../types.js';

export const clear: ToolbarMessageHandler<'xipe-toolbar:clear'> = (_req, { deps, tabId, tabUrl }) =>
  deps.store.clear(tabId, tabUrl);
