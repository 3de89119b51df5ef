import type { TabInfo, TabTarget } from '#shared/index.js';
import { EXTENSION_ORIGIN, XipeError } from '#shared/index.js';
import { browser } from '../platform/browser.js';
import { forbiddenReason } from './injection/forbidden-urls.js';
import { findTarget } from './tabs.js';

export interface ScriptableTab {
  tab: TabInfo;
  /** What errors and results name the tab by. */
  ref: { id: number; url: string; title: string };
}

/**
 * The tab a command targets, refused with INJECTION_BLOCKED (before anything touches it) when no
 * extension may script it. `action` completes "Cannot … tab N", e.g. "inject into".
 */
export async function scriptableTab(target: TabTarget, action: string): Promise<ScriptableTab> {
  const tab = await findTarget(target);
  const ref = { id: tab.id, url: tab.url, title: tab.title };
  const reason = forbiddenFor(tab.url);
  if (reason !== null) {
    throw new XipeError(
      'INJECTION_BLOCKED',
      `Cannot ${action} tab ${tab.id} (${tab.url || 'no URL'}): ${reason}. Target a normal web page (tab_id, url_contains or page_index from list_tabs).`,
      { tab: ref },
    );
  }
  return { tab, ref };
}

/**
 * `forbiddenReason` for the URL asked last: an agent injects into one page again and again, and
 * parsing its URL and asking the browser for our own origin cost a repeated call ~0.05 ms.
 */
let last: { url: string; reason: string | null } | null = null;
let ownOrigin: string | null = null;

function forbiddenFor(url: string): string | null {
  if (last?.url === url) return last.reason;
  ownOrigin ??= browser.runtime.getURL('/') || EXTENSION_ORIGIN;
  last = { url, reason: forbiddenReason(url, ownOrigin) };
  return last.reason;
}
