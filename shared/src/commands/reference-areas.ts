import { z } from 'zod';
import { AreaId } from '../deep-capture/referenced-elements.js';
import { IdeaFolderName } from '../reference-data.js';
import { WorkspacePath } from './save-reference.js';

/**
 * Handled by the native host for the toolbar's overlay (DESIGN §8, the designer side of the verify loop):
 * the deep-captured areas of an idea, and one area's screenshot. The host reads the file, so the
 * page never gets a URL to anything in the workspace: the toolbar shows the bytes it is handed.
 */
export const LIST_AREAS = 'list_areas';
export const AREA_IMAGE = 'area_image';

export const ListAreasParams = z
  .object({ workspace: WorkspacePath.optional(), idea_folder: IdeaFolderName })
  .strict();
export type ListAreasParams = z.infer<typeof ListAreasParams>;

export const AreaSummary = z.object({
  area_id: AreaId,
  /** CSS px of the captured area. */
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  instruction: z.string().max(2000).nullable(),
  source_url: z.string().max(4096).nullable(),
});
export type AreaSummary = z.infer<typeof AreaSummary>;

export const ListAreasResult = z.object({
  /** In the order of referenced-elements.json; empty when the idea has no deep capture yet. */
  areas: z.array(AreaSummary).max(1000),
});
export type ListAreasResult = z.infer<typeof ListAreasResult>;

export const AreaImageParams = z
  .object({ workspace: WorkspacePath.optional(), idea_folder: IdeaFolderName, area_id: AreaId })
  .strict();
export type AreaImageParams = z.infer<typeof AreaImageParams>;

export const AreaImageResult = z.object({
  area_id: AreaId,
  /** Standard base64 of `screenshots/area-N.png`. */
  png: z.string().min(1),
  /** Device px of the PNG. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** CSS px of the area: the PNG is shown at this size (its device pixel ratio undone). */
  css_width: z.number().positive(),
  css_height: z.number().positive(),
});
export type AreaImageResult = z.infer<typeof AreaImageResult>;
