import { z } from 'zod';

/** Handled by the native host: the idea folders the toolbar (or an agent) can save into. */
export const LIST_IDEAS = 'list_ideas';

export const ListIdeasParams = z
  .object({
    /** Absolute workspace root; default: the caller's workspace, else every registered one. */
    workspace: z.string().min(1).max(4096).optional(),
  })
  .strict();
export type ListIdeasParams = z.infer<typeof ListIdeasParams>;

export const IdeaSummary = z.object({
  name: z.string(),
  /** `uiux-references/` holds a merged reference-data.json or at least one session. */
  has_references: z.boolean(),
  session_count: z.number().int().nonnegative(),
});
export type IdeaSummary = z.infer<typeof IdeaSummary>;

export const WorkspaceIdeas = z.object({
  path: z.string(),
  /** Sorted by name; empty when the workspace has no `x-ipe-docs/ideas/` folder. */
  ideas: z.array(IdeaSummary),
});
export type WorkspaceIdeas = z.infer<typeof WorkspaceIdeas>;

export const ListIdeasResult = z.object({
  workspaces: z.array(WorkspaceIdeas),
});
export type ListIdeasResult = z.infer<typeof ListIdeasResult>;
