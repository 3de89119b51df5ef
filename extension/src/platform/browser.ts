import browser from 'webextension-polyfill';

export type { Alarms, Runtime, Tabs } from 'webextension-polyfill';
/**
 * The one seam between the extension and the browser's APIs. Everything else imports from here,
 * so a port to another browser (or a test double) changes one file.
 *
 * `browser` is webextension-polyfill's promise-based API. `chromeApi` is the raw `chrome` object
 * for what the polyfill does not cover: `userScripts` (appears and disappears with the
 * per-extension "Allow User Scripts" toggle) and `runtime.connectNative` with `runtime.lastError`.
 */
export { browser };

export const chromeApi: typeof chrome = globalThis.chrome;

/**
 * `chrome.userScripts` when the user allowed user scripts for this extension, else null. Chrome
 * defines the namespace only while the toggle is on, and its methods throw while it is off, so
 * this is checked on every use rather than once.
 */
export function userScriptsApi(): typeof chrome.userScripts | null {
  const api = chromeApi.userScripts as typeof chrome.userScripts | undefined;
  if (api === undefined || typeof api.execute !== 'function') return null;
  try {
    // Throws synchronously while the toggle is off (Chrome's documented availability check).
    void api.getScripts().catch(() => undefined);
    return api;
  } catch {
    return null;
  }
}
