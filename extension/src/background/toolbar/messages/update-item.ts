import type { ToolbarMessageHandler } from '../types.js';

/** A note, a colour's role or an area's instruction changed. */
export const updateItem: ToolbarMessageHandler<'xipe-toolbar:update_item'> = async (req, ctx) => {
  const collection = await ctx.deps.store.update(ctx.tabId, req.key, {
    comment: req.comment,
    role: req.role,
    instruction: req.instruction,
  });
  if (req.comment !== undefined)
    ctx.emit('note_added', collection.source_url, { key: req.key, comment: req.comment });
  return collection;
};
