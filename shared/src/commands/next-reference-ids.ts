import { z } from 'zod';
import { IdeaFolderName } from '../reference-data.js';

/**
 * Handled by the native host: the next free `color-NNN` and `elem-NNN` numbers of an idea, so the
 * toolbar numbers a new session's items after everything already saved there (the original
 * toolbar restarted at color-001 every session, and merging by id silently overwrote earlier data).
 */
export const NEXT_REFERENCE_IDS = 'next_reference_ids';

export const NextReferenceIdsParams = z
  .object({
    /** Absolute workspace root; the toolbar may omit it when exactly one workspace is registered. */
    workspace: z.string().min(1).max(4096).optional(),
    idea_folder: IdeaFolderName,
  })
  .strict();
export type NextReferenceIdsParams = z.infer<typeof NextReferenceIdsParams>;

export const NextReferenceIdsResult = z.object({
  next_color: z.number().int().positive(),
  next_element: z.number().int().positive(),
});
export type NextReferenceIdsResult = z.infer<typeof NextReferenceIdsResult>;
