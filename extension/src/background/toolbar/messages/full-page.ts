import type { ToolbarMessageHandler } from '../types.js';

/** A full page is stitched in the worker from bands the toolbar scrolls into view one by one. */
export const fullPageBegin: ToolbarMessageHandler<'xipe-toolbar:full_page_begin'> = (
  req,
  { deps, tabId },
) => ({
  job: deps.capture.begin(tabId, req.width, req.height, req.left ?? 0),
});

export const fullPageBand: ToolbarMessageHandler<'xipe-toolbar:full_page_band'> = (
  req,
  { deps, tabId, windowId },
) =>
  deps.capture.band(
    tabId,
    req.job,
    { srcY: req.src_y, height: req.height, destY: req.dest_y },
    req.viewport,
    windowId,
    req.marker,
    req.step,
  );

export const fullPageSettle: ToolbarMessageHandler<'xipe-toolbar:full_page_settle'> = async (
  req,
  { deps, tabId },
) => ({
  stale: await deps.capture.settle(tabId, req.job),
});

/** With a draft the stitched page becomes an item; without one the job is dropped. */
export const fullPageEnd: ToolbarMessageHandler<'xipe-toolbar:full_page_end'> = async (req, ctx) => {
  const { deps, tabId } = ctx;
  if (!req.draft) {
    deps.capture.abandon(tabId, req.job);
    return null;
  }
  const item = await deps.store.addElement(tabId, req.draft, deps.capture.end(tabId, req.job));
  ctx.emit('element_picked', item.page_url, item);
  return item;
};
