import type { ToolbarMessageHandler } from '../types.js';

/** An element or an area: its crop is taken while the store adds the item. */
export const captureElement: ToolbarMessageHandler<'xipe-toolbar:capture_element'> = async (req, ctx) => {
  const { deps, tabId, windowId } = ctx;
  const crop = deps.capture.crop(tabId, req.crop, req.viewport, windowId);
  const item = await deps.store.addElement(tabId, req.draft, crop);
  ctx.emit(item.kind === 'area' ? 'area_picked' : 'element_picked', item.page_url, item);
  if (item.comment) ctx.emit('note_added', item.page_url, { key: item.key, comment: item.comment });
  return item;
};
