import { z } from 'zod';
import { ReferenceData, SaveResult } from '../reference-data.js';

/** Handled by the native host, the only writer of idea folders (docs/architecture.md, The idea store). */
export const SAVE_REFERENCE = 'save_reference';

/**
 * Absolute workspace root. The MCP server sends its own; the toolbar may name one of the
 * workspaces registered in config.json, or omit it when exactly one is registered.
 */
export const WorkspacePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), {
    message: 'an absolute path',
  });

export const SaveReferenceParams = z
  .object({
    workspace: WorkspacePath.optional(),
    data: ReferenceData,
  })
  .strict();
export type SaveReferenceParams = z.infer<typeof SaveReferenceParams>;
export type SaveReferenceParamsInput = z.input<typeof SaveReferenceParams>;

export const SaveReferenceResult = SaveResult;
export type SaveReferenceResult = z.infer<typeof SaveReferenceResult>;
