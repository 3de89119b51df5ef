import { LIST_TABS } from '#shared/commands/list-tabs.js';
import { XipeError } from '#shared/errors.js';
import type { BridgeClient } from './bridge.js';

/** One tab in the merged, stable order that `page_index` refers to. */
export interface ListedTab {
  page_index: number;
  browser_id: string;
  browser: string;
  /**
   * The browser profile: extensions cannot read the profile folder's name, so this is the random
   * id the extension keeps in that profile's storage (the part of browser_id after the name).
   */
  profile: string;
  window_id: number;
  tab_id: number;
  index: number;
  url: string;
  title: string;
  active: boolean;
}

/** One connected host: its browser, or why it could not list tabs. */
export interface ListedBrowser {
  browser_id: string | null;
  browser: string | null;
  browser_version: string | null;
  extension_version: string | null;
  user_scripts_allowed: boolean | null;
  host_pid: number;
  tab_count: number;
  error: { code: string; message: string } | null;
}

export interface TabListing {
  tabs: ListedTab[];
  browsers: ListedBrowser[];
}

const LIST_TIMEOUT_MS = 10_000;

/** `chromium-1a2b3c` → `1a2b3c` (the id the extension stores per profile). */
export function profileOf(browserId: string, name: string): string {
  const prefix = `${name.toLowerCase()}-`;
  return browserId.toLowerCase().startsWith(prefix) ? browserId.slice(prefix.length) : browserId;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Asks every connected host for its tabs (in parallel) and merges them: browser_id ascending,
 * then window id, then tab index. Hosts that fail are reported in `browsers`; if none succeeds,
 * the first failure is thrown.
 */
export async function listAllTabs(
  bridge: BridgeClient,
  options: { signal?: AbortSignal } = {},
): Promise<TabListing> {
  const outcomes = await bridge.requestEach(LIST_TABS, {}, { timeoutMs: LIST_TIMEOUT_MS, ...options });
  const rows: Omit<ListedTab, 'page_index'>[] = [];
  const browsers: ListedBrowser[] = [];
  for (const outcome of outcomes) {
    const ext = outcome.host.info.extension;
    if (!outcome.ok) {
      browsers.push({
        browser_id: outcome.browser?.browser_id ?? null,
        browser: outcome.browser?.name ?? null,
        browser_version: outcome.browser?.version ?? null,
        extension_version: ext?.version ?? null,
        user_scripts_allowed: ext?.user_scripts_allowed ?? null,
        host_pid: outcome.host.pid,
        tab_count: 0,
        error: { code: outcome.error.code, message: outcome.error.message },
      });
      continue;
    }
    const { browser, tabs } = outcome.result;
    for (const tab of tabs) {
      rows.push({
        browser_id: browser.browser_id,
        browser: browser.name,
        profile: profileOf(browser.browser_id, browser.name),
        window_id: tab.window_id,
        tab_id: tab.id,
        index: tab.index,
        url: tab.url,
        title: tab.title,
        active: tab.active,
      });
    }
    browsers.push({
      browser_id: browser.browser_id,
      browser: browser.name,
      browser_version: browser.version,
      extension_version: ext?.version ?? null,
      user_scripts_allowed: ext?.user_scripts_allowed ?? null,
      host_pid: outcome.host.pid,
      tab_count: tabs.length,
      error: null,
    });
  }
  const failures = outcomes.filter((o) => !o.ok);
  const first = failures[0];
  if (first !== undefined && !first.ok && failures.length === outcomes.length) {
    throw new XipeError(first.error.code, first.error.message, { ...first.error.details, browsers });
  }
  rows.sort(
    (a, b) =>
      byText(a.browser_id, b.browser_id) ||
      a.window_id - b.window_id ||
      a.index - b.index ||
      a.tab_id - b.tab_id,
  );
  browsers.sort(
    (a, b) => byText(a.browser_id ?? '\uffff', b.browser_id ?? '\uffff') || a.host_pid - b.host_pid,
  );
  return { tabs: rows.map((row, page_index) => ({ page_index, ...row })), browsers };
}
