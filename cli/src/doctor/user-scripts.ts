import type { BridgeState, CheckResult } from './types.js';

export const ALLOW_USER_SCRIPTS_FIX =
  'Open chrome://extensions → X-IPE UI/UX Reference → Details → turn on "Allow User Scripts" ' +
  '(`x-ipe-uiux start` turns it on in its own profile).';

/** Every connected extension may run user scripts (inject_script on strict-CSP pages needs them). */
export function checkUserScripts(state: BridgeState): CheckResult {
  const title = 'user scripts allowed';
  const withExtension = state.hosts.filter((h) => h.extension !== null && h.extension_connected);
  if (withExtension.length === 0) {
    return { id: 'user_scripts', title, status: 'skip', detail: 'no connected extension to ask' };
  }
  const off = withExtension.filter((h) => h.extension?.user_scripts_allowed !== true);
  if (off.length > 0) {
    return {
      id: 'user_scripts',
      title,
      status: 'fail',
      detail: `"Allow User Scripts" is off in ${off.map((h) => h.extension?.browser.browser_id ?? `host ${h.pid}`).join(', ')}; inject_script is blocked on pages with a strict CSP`,
      fix: ALLOW_USER_SCRIPTS_FIX,
    };
  }
  return { id: 'user_scripts', title, status: 'ok', detail: 'chrome.userScripts is available' };
}
