import type { ToolbarMessageHandler } from '../types.js';

export const addColor: ToolbarMessageHandler<'xipe-toolbar:add_color'> = async (req, ctx) => {
  const item = await ctx.deps.store.addColor(ctx.tabId, req.draft);
  ctx.emit('color_picked', item.page_url, item);
  return item;
};
