import type { BridgeState, CheckResult } from './types.js';

/** A reachable host has its extension attached. */
export function checkExtensionConnected(state: BridgeState): CheckResult {
  const title = 'extension connected';
  if (state.hosts.length === 0) {
    return { id: 'extension_connected', title, status: 'skip', detail: 'no reachable host to ask' };
  }
  const connected = state.hosts.filter((h) => h.extension_connected);
  if (connected.length === 0) {
    return {
      id: 'extension_connected',
      title,
      status: 'fail',
      detail: `host(s) ${state.hosts.map((h) => h.pid).join(', ')} running but no extension attached`,
      fix: 'Open chrome://extensions, make sure X-IPE UI/UX Reference is enabled, and click its reload button.',
    };
  }
  const browsers = connected.map((h) =>
    `${h.extension?.browser.name ?? '?'} ${h.extension?.browser.version ?? ''}`.trim(),
  );
  return { id: 'extension_connected', title, status: 'ok', detail: browsers.join(', ') };
}
