import { LIST_IDEAS, ListIdeasResult } from '#shared/commands/list-ideas.js';
import { XipeError } from '#shared/errors.js';
import type { ToolbarMessageHandler } from '../types.js';

export const listIdeas: ToolbarMessageHandler<'xipe-toolbar:list_ideas'> = async (req, { deps }) => {
  if (!deps.host.connected) {
    throw new XipeError(
      'BACKEND_UNREACHABLE',
      'The X-IPE native host is not connected. Run `x-ipe-uiux install --workspace <dir>`, then reopen the toolbar.',
    );
  }
  return ListIdeasResult.parse(
    await deps.host.request(LIST_IDEAS, req.workspace ? { workspace: req.workspace } : {}),
  );
};
