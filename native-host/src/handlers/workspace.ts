import type { WorkspaceRequest } from '#shared/node/idea-store/index.js';
import type { HostContextBase } from './types.js';

/** Who is asking, in the terms resolveWorkspace/workspacesToList decide a workspace by. */
export function caller(ctx: HostContextBase): Omit<WorkspaceRequest, 'requested'> {
  return { callerWorkspace: ctx.workspace, source: ctx.source, registered: ctx.config.workspaces };
}
