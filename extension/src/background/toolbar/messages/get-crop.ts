import type { ToolbarMessageHandler } from '../types.js';

/** For the panel's thumbnail: a stitched shot has a small one of its own. */
export const getCrop: ToolbarMessageHandler<'xipe-toolbar:get_crop'> = async (req, { deps }) => {
  const thumb = await deps.store.thumb(req.key);
  if (thumb) return { data_url: `data:image/png;base64,${thumb}` };
  const crop = await deps.store.crop(req.key);
  return { data_url: crop ? `data:image/png;base64,${crop.png}` : null };
};
