import path from 'node:path';
import { invalidField } from '../../errors.js';

/**
 * Which workspace a save or listing goes to. MCP servers (bridge) pass their own workspace, in the
 * request or in their hello; the toolbar (extension) may only use workspaces registered in
 * config.json: the named one if it is registered, or the only one when exactly one is.
 */

export interface WorkspaceRequest {
  /** Workspace named in the request, if any. */
  requested?: string | undefined;
  /** Workspace the caller announced in its hello (MCP servers). */
  callerWorkspace?: string | undefined;
  source: 'bridge' | 'extension';
  /** `config.workspaces`. */
  registered: readonly string[];
}

const normalize = (p: string): string => path.resolve(p);

export function resolveWorkspace(request: WorkspaceRequest): string {
  const registered = request.registered.map(normalize);
  if (request.requested !== undefined) {
    if (!path.isAbsolute(request.requested)) {
      throw invalidField('workspace', 'an absolute path', request.requested);
    }
    const ws = normalize(request.requested);
    if (request.source === 'bridge' || registered.includes(ws)) return ws;
    throw invalidField(
      'workspace',
      `a registered workspace (registered: ${listed(registered)})`,
      ws,
      'input',
      {
        hint: 'Register it with `x-ipe-uiux install --workspace <dir>`.',
        details: { workspaces: registered },
      },
    );
  }
  if (request.source === 'bridge' && request.callerWorkspace !== undefined) {
    return normalize(request.callerWorkspace);
  }
  const only = registered.length === 1 ? registered[0] : undefined;
  if (only !== undefined) return only;
  const [expected, hint] =
    registered.length === 0
      ? [
          'a workspace, but none is registered',
          'Run `x-ipe-uiux install --workspace <dir>` (or `x-ipe-uiux start --workspace <dir>`).',
        ]
      : [`one of the registered workspaces (${listed(registered)})`, 'Name one in "workspace".'];
  throw invalidField('workspace', expected, undefined, 'input', {
    hint,
    details: { workspaces: registered },
  });
}

/** Every workspace a listing covers when none is named. */
export function workspacesToList(request: Omit<WorkspaceRequest, 'requested'>): string[] {
  if (request.source === 'bridge' && request.callerWorkspace !== undefined) {
    return [normalize(request.callerWorkspace)];
  }
  return [...new Set(request.registered.map(normalize))];
}

function listed(workspaces: readonly string[]): string {
  return workspaces.length === 0 ? 'none' : workspaces.join(', ');
}
