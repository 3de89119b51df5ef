import type { Runtime, Scripting } from 'webextension-polyfill';
import browser from 'webextension-polyfill';

export type { Alarms, Runtime, Scripting, Tabs } from 'webextension-polyfill';
/**
 * The one seam between the extension and the browser's APIs: the only file that touches `chrome.*`
 * (biome's noRestrictedGlobals keeps it so), so a Firefox build (or a test double) changes this file.
 *
 * `browser` is webextension-polyfill's promise-based API; the service worker and the toolbar's
 * content script both call through it. Namespaces the polyfill has no metadata for (`scripting`,
 * `action`) pass through to Chrome's own promise-returning methods. What the polyfill does not
 * cover, or types loosely, is wrapped below: `userScripts` (Chrome's, which appears and disappears
 * with the per-extension "Allow User Scripts" toggle), why a native port closed, and
 * `executeScript` with a function whose arguments are checked against its parameters.
 */
export { browser };

const chromeApi: typeof chrome = globalThis.chrome;

/** Chrome's `userScripts` namespace when it exists (the toggle is on, or was at start-up). */
export function userScriptsNamespace(): typeof chrome.userScripts | undefined {
  const api = chromeApi.userScripts as typeof chrome.userScripts | undefined;
  return api !== undefined && typeof api.execute === 'function' ? api : undefined;
}

/**
 * `chrome.userScripts` when the user allowed user scripts for this extension, else null. Chrome
 * defines the namespace only while the toggle is on, and its methods throw while it is off, so
 * this is checked on every use rather than once.
 */
export function userScriptsApi(): typeof chrome.userScripts | null {
  const api = userScriptsNamespace();
  if (api === undefined) return null;
  try {
    // Throws synchronously while the toggle is off (Chrome's documented availability check).
    void api.getScripts().catch(() => undefined);
    return api;
  } catch {
    return null;
  }
}

/**
 * Why a native port closed, read inside its onDisconnect listener: Chrome reports it in
 * `runtime.lastError` (reading it also marks it checked), Firefox on the port. Null if no reason.
 */
export function disconnectReason(port: Runtime.Port): string | null {
  return port.error?.message ?? chromeApi.runtime.lastError?.message ?? null;
}

type FunctionInjection<Args extends unknown[], Result> = Omit<
  Scripting.ScriptInjection,
  'func' | 'args' | 'files'
> & { func: (...args: Args) => Result; args: Args };

/**
 * `scripting.executeScript` with a function (serialised into the page), its `args` checked against
 * its parameters (the polyfill's types take `unknown[]`). Results come from the page: validate them.
 */
export function executeFunction<Args extends unknown[], Result>(
  injection: FunctionInjection<Args, Result>,
): Promise<Scripting.InjectionResult[]> {
  return browser.scripting.executeScript(injection);
}

/**
 * An element's shadow root as a content script sees it, closed ones included (`chrome.dom`, which
 * the polyfill does not cover); null when it has none or the API is missing.
 */
export function openOrClosedShadowRoot(el: HTMLElement): ShadowRoot | null {
  const dom = (chromeApi as typeof chrome | undefined)?.dom;
  if (dom === undefined || typeof dom.openOrClosedShadowRoot !== 'function') return null;
  return dom.openOrClosedShadowRoot(el) as ShadowRoot | null;
}

/**
 * The tab of a message sender when it is our own content script in a tab's top frame;
 * undefined for extension pages, sub-frames and anyone else.
 */
export function ownTopFrameTab<T extends { id?: number | undefined }>(
  sender: { id?: string | undefined; frameId?: number | undefined; tab?: T | undefined } | undefined,
): (T & { id: number }) | undefined {
  const tab = sender?.tab;
  if (sender?.id !== chromeApi.runtime.id || sender.frameId !== 0 || tab?.id === undefined) return undefined;
  return tab as T & { id: number };
}
