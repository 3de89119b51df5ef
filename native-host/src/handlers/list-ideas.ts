import { ListIdeasParams, type ListIdeasResult } from '#shared/commands/list-ideas.js';
import { validationError } from '#shared/errors.js';
import { listIdeas, resolveWorkspace, workspacesToList } from '#shared/node/idea-store/index.js';
import type { HostHandler } from './types.js';
import { caller } from './workspace.js';

/** `list_ideas`: the idea folders of the caller's workspace, or of every registered one. */
export const listIdeasHandler: HostHandler = async (params, ctx): Promise<ListIdeasResult> => {
  const parsed = ListIdeasParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'list_ideas params', params ?? {});
  const request = caller(ctx);
  const workspaces =
    parsed.data.workspace !== undefined
      ? [resolveWorkspace({ ...request, requested: parsed.data.workspace })]
      : workspacesToList(request);
  return { workspaces: await Promise.all(workspaces.map(listIdeas)) };
};
