import fs from 'node:fs';
import { scanRuntimeDir } from '#shared/node/bridge/discovery.js';
import { tokenPath } from '#shared/node/paths.js';
import type { BridgeState, CheckResult, DoctorDeps } from './types.js';

/** A live host answers the hello with our token; the hosts reached go into `state` for the next checks. */
export async function checkBridge(deps: DoctorDeps, state: BridgeState): Promise<CheckResult> {
  const title = 'bridge endpoint reachable';
  const scan = await scanRuntimeDir(deps.home);
  if (scan.refused !== null) {
    // The same checks the MCP server applies: it would refuse this folder too.
    return {
      id: 'bridge',
      title,
      status: 'fail',
      detail: scan.refused.message,
      fix: `If ${scan.dir} is yours, \`chmod 700 '${scan.dir}'\`; otherwise (another owner, a symlink, a file) remove it as its owner. Then reload the extension so the host makes a new one.`,
    };
  }
  if (scan.live.length === 0) {
    return {
      id: 'bridge',
      title,
      status: 'fail',
      detail: `no live native host in ${scan.dir}${scan.stale.length > 0 ? ` (${scan.stale.length} stale descriptor(s))` : ''}${scan.unusable.length > 0 ? `; refused: ${scan.unusable.map((e) => e.message).join(' | ')}` : ''}`,
      fix:
        'The browser starts the host when the extension connects: run `x-ipe-uiux start`, or open your browser with the ' +
        'extension loaded (if it is open, reload the extension on chrome://extensions and check its service worker console).',
    };
  }
  let token = '';
  try {
    token = fs.readFileSync(tokenPath(deps.home), 'utf8').trim();
  } catch {
    // reported by the token check; the hello below fails with UNAUTHORIZED
  }
  const errors: string[] = [];
  for (const descriptor of scan.live) {
    const outcome = await deps.probe(descriptor, token);
    if (outcome.ok) state.hosts.push(outcome.host);
    else errors.push(`host pid ${descriptor.pid}: ${outcome.error.code}: ${outcome.error.message}`);
  }
  if (state.hosts.length === 0) {
    const unauthorized = errors.some((e) => e.includes('UNAUTHORIZED'));
    return {
      id: 'bridge',
      title,
      status: 'fail',
      detail: errors.join(' | '),
      fix: unauthorized
        ? `The host uses a different token: make sure XIPE_UIUX_HOME is the same for the host (launcher) and this shell (${deps.home}), then run \`x-ipe-uiux install\` and reload the extension.`
        : 'Reload the extension on chrome://extensions (the host restarts with it); see the host log in <home>/logs.',
    };
  }
  const pids = state.hosts.map((h) => h.pid).join(', ');
  return {
    id: 'bridge',
    title,
    status: 'ok',
    detail: `${state.hosts.length} host(s) answered the hello (pid ${pids})${errors.length > 0 ? `; ${errors.join(' | ')}` : ''}`,
  };
}
