import type { TabTarget } from '#shared/commands/index.js';
import type { HostInfo } from '#shared/envelopes.js';
import { invalidField, XipeError } from '#shared/errors.js';
import { urlMatches } from '#shared/tab-match.js';
import type { BridgeClient } from './bridge.js';
import { listAllTabs } from './tab-list.js';

/**
 * Which browser gets a command, decided in two steps. A tool turns its tab target (`tab_id`,
 * `url_contains`, `page_index`, `browser`) into a route (`resolveRoute`): the browser to ask and
 * the target that browser understands. The bridge client then picks the host connection serving
 * that browser (`pickHost`). Each step asks the hosts only when the answer is not already known.
 */

export interface Route {
  /** The browser to route to (bridge option); unset when the only candidate is taken anyway. */
  browser?: string;
  target: TabTarget;
  /** The browser_id the call will reach, when known (also when `browser` is unset). */
  reaches?: string;
}

export interface RouteArgs {
  tab_id?: number | undefined;
  url_contains?: string | undefined;
  page_index?: number | undefined;
  browser?: string | undefined;
}

/** The browser option of a bridge request for a resolved route. */
export function routeOptions(route: { browser?: string }): { browser?: string } {
  return route.browser !== undefined ? { browser: route.browser } : {};
}

const browserIdOf = (host: { info: HostInfo }): string | undefined => host.info.extension?.browser.browser_id;

function severalBrowsers(ids: readonly (string | undefined)[], pass: string): XipeError {
  return invalidField(
    'browser',
    `one of the ${ids.length} connected browsers (${ids.join(', ')})`,
    undefined,
    'input',
    {
      hint: `Pass ${pass} (see list_tabs).`,
      details: { field: 'browser', connected_browsers: ids },
    },
  );
}

/**
 * Decides which browser gets the command and with which target. One browser (or `browser` given)
 * and no page_index: the target goes straight through (no extra round trip). Otherwise the merged
 * list_tabs order resolves it.
 */
export async function resolveRoute(
  bridge: BridgeClient,
  args: RouteArgs,
  signal: AbortSignal,
): Promise<Route> {
  const direct: TabTarget = {
    ...(args.tab_id !== undefined ? { tab_id: args.tab_id } : {}),
    ...(args.url_contains !== undefined ? { url_contains: args.url_contains } : {}),
  };
  if (args.page_index === undefined) {
    if (args.browser !== undefined) return { browser: args.browser, target: direct };
    const hosts = await bridge.hosts({ signal });
    const withExtension = hosts.filter((h) => h.info.extension !== null);
    if (hosts.length <= 1 || withExtension.length <= 1) {
      const reaches = withExtension[0] !== undefined ? browserIdOf(withExtension[0]) : undefined;
      return { target: direct, ...(reaches !== undefined ? { reaches } : {}) };
    }
    if (args.tab_id === undefined && args.url_contains === undefined) {
      throw severalBrowsers(
        withExtension.map(browserIdOf),
        '`browser` or a tab_id/url_contains/page_index target',
      );
    }
  }
  const { tabs } = await listAllTabs(bridge, { signal });
  if (args.page_index !== undefined) {
    const tab = tabs[args.page_index];
    if (tab === undefined) {
      throw new XipeError(
        'TAB_NOT_FOUND',
        `page_index ${args.page_index} is out of range: ${tabs.length} tab(s) are open${tabs.length > 0 ? ` (0–${tabs.length - 1})` : ''}. Call list_tabs and use one of its page_index values.`,
        { page_index: args.page_index, tab_count: tabs.length },
      );
    }
    if (args.browser !== undefined && args.browser !== tab.browser_id) {
      throw invalidField(
        'browser',
        `${tab.browser_id}, the browser of page_index ${args.page_index}`,
        args.browser,
        'input',
        {
          hint: 'Drop `browser`, or pick a page_index of that browser from list_tabs.',
          details: { field: 'browser', page_index: args.page_index, tab_browser: tab.browser_id },
        },
      );
    }
    return { browser: tab.browser_id, target: { tab_id: tab.tab_id } };
  }
  const matches = tabs.filter((t) =>
    args.tab_id !== undefined ? t.tab_id === args.tab_id : urlMatches(t.url, args.url_contains ?? ''),
  );
  const browsers = [...new Set(matches.map((t) => t.browser_id))];
  const what =
    args.tab_id !== undefined ? `tab_id ${args.tab_id}` : `url_contains ${JSON.stringify(args.url_contains)}`;
  const [only] = browsers;
  if (only === undefined) {
    throw new XipeError(
      'TAB_NOT_FOUND',
      `No tab matches ${what} in any connected browser. Call list_tabs to see the open tabs.`,
      { ...direct, tab_count: tabs.length },
    );
  }
  if (browsers.length > 1) {
    throw invalidField(
      'browser',
      `one of ${browsers.join(', ')}: ${what} matches tabs in each`,
      undefined,
      'input',
      {
        hint: 'Pass `browser` to choose one.',
        details: { field: 'browser', matching_browsers: browsers },
      },
    );
  }
  return { browser: only, target: direct };
}

/**
 * The host serving `browser`, or the only host (with an extension) when none is named. Host info
 * may predate an extension connecting, so it is refreshed (`refresh`) before deciding that a
 * browser is missing or that there are several.
 */
export async function pickHost<H extends { info: HostInfo }>(
  hosts: readonly H[],
  options: { browser?: string | undefined; signal?: AbortSignal | undefined },
  refresh: (stale: H[], signal?: AbortSignal) => Promise<void>,
): Promise<H> {
  const only = hosts[0];
  if (hosts.length === 1 && only !== undefined && options.browser === undefined) return only;
  const byBrowser = (id: string): H | undefined => hosts.find((h) => browserIdOf(h) === id);
  if (options.browser !== undefined) {
    const known = byBrowser(options.browser);
    if (known !== undefined) return known;
  }
  await refresh(
    hosts.filter((h) => h.info.extension === null),
    options.signal,
  );
  const withExtension = hosts.filter((h) => h.info.extension !== null);
  const ids = withExtension.map((h) => browserIdOf(h) ?? '');
  if (options.browser !== undefined) {
    const found = byBrowser(options.browser);
    if (found !== undefined) return found;
    if (withExtension.length < hosts.length) {
      throw new XipeError(
        'EXTENSION_NOT_CONNECTED',
        `Browser ${options.browser} is not connected right now (a host is running without its extension; connected: ${ids.join(', ') || 'none'}). Bring that browser's window to front or reload the X-IPE extension, then retry; bridge_status shows every link.`,
        { browser: options.browser, connected_browsers: ids },
      );
    }
    throw invalidField(
      'browser',
      `the id of a connected browser (${ids.join(', ') || 'none is connected'})`,
      options.browser,
      'input',
      { hint: 'Use a browser_id from list_tabs.', details: { field: 'browser', connected_browsers: ids } },
    );
  }
  const [single] = withExtension;
  if (withExtension.length === 1 && single !== undefined) return single;
  if (withExtension.length === 0) return hosts[0] as H; // it answers EXTENSION_NOT_CONNECTED
  throw severalBrowsers(ids, '`browser` with one of these ids');
}
