import type { TabInfo, TabTarget } from '#shared/index.js';
import { XipeError } from '#shared/index.js';
import { quoteShort, urlMatches } from '#shared/tab-match.js';
import { browser, type Tabs } from '../platform/browser.js';

/**
 * Windows the extension opened for its own work (e.g. the verify loop's): their tabs are never a
 * default target and are not listed, so an agent only ever sees and acts on the user's tabs.
 */
const ownWindows = new Set<number>();

/** Marks a window the extension opened for its own work (see `ownWindows`). */
export function markOwnWindow(windowId: number): void {
  ownWindows.add(windowId);
  tabsChanged();
}

/** Forgets a window of ours (closed, or handed to the user). */
export function unmarkOwnWindow(windowId: number): void {
  if (ownWindows.delete(windowId)) tabsChanged();
}

const isUsers = (tab: Tabs.Tab): boolean => tab.windowId === undefined || !ownWindows.has(tab.windowId);

/** Every tab, in the stable order the tools promise: window id ascending, then tab index. */
export async function listAllTabs(): Promise<TabInfo[]> {
  const [tabs, focused] = await Promise.all([
    browser.tabs.query({}),
    browser.windows.getLastFocused().catch(() => null),
  ]);
  return sortTabs(
    tabs.flatMap((tab) =>
      tab.id === undefined || !isUsers(tab) ? [] : [toTabInfo(tab, tab.id, focused?.id ?? null)],
    ),
  );
}

/**
 * The tabs as of the last `tabs.query({})`, kept until any tab or window event says something
 * changed (`tabsChanged`, wired to those events by the service worker): an agent that injects
 * again and again into a page that does not change costs no browser round trip for the lookup.
 * `generation` keeps a query that was in flight during a change from being kept.
 */
let snapshot: TabInfo[] | null = null;
let generation = 0;

/**
 * Forgets the tab snapshot; called for every tab and window event, tab activation and window focus
 * included (a snapshot that still calls the previous tab active would send a screenshot there).
 */
export function tabsChanged(): void {
  snapshot = null;
  generation += 1;
}

async function currentTabs(): Promise<TabInfo[]> {
  if (snapshot !== null) return snapshot;
  const started = generation;
  const tabs = sortTabs(
    (await browser.tabs.query({})).flatMap((tab) =>
      tab.id === undefined || !isUsers(tab) ? [] : [toTabInfo(tab, tab.id, null)],
    ),
  );
  if (generation === started) snapshot = tabs;
  return tabs;
}

/**
 * The tab a command acts on (pickTarget's rules), asking the browser only what the target needs:
 * a tab_id or url_contains is looked up in the tab snapshot (one `tabs.query` when there is none;
 * `tabs.get` for a tab_id it lacks); the full listing only for the default (the active tab of the
 * last focused window) and for errors, which list the open tabs. `focused_window` is only
 * meaningful in the default case.
 */
export async function findTarget(target: TabTarget): Promise<TabInfo> {
  if (target.tab_id !== undefined) {
    const id = target.tab_id;
    const known = (await currentTabs()).find((t) => t.id === id);
    if (known !== undefined) return known;
    const tab = await browser.tabs.get(id).catch(() => null);
    if (tab?.id === id && isUsers(tab)) return toTabInfo(tab, tab.id, null);
  } else if (target.url_contains !== undefined) {
    const needle = target.url_contains;
    const matches = (await currentTabs()).filter((t) => urlMatches(t.url, needle));
    if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  }
  return pickTarget(await listAllTabs(), target);
}

export function sortTabs(tabs: TabInfo[]): TabInfo[] {
  return [...tabs].sort((a, b) => a.window_id - b.window_id || a.index - b.index);
}

function toTabInfo(tab: Tabs.Tab, id: number, focusedWindowId: number | null): TabInfo {
  return {
    id,
    window_id: tab.windowId ?? -1,
    index: tab.index,
    // A tab still loading has only pendingUrl.
    url: tab.url ?? tab.pendingUrl ?? '',
    title: tab.title ?? '',
    active: tab.active,
    focused_window: focusedWindowId !== null && tab.windowId === focusedWindowId,
  };
}

/**
 * The tab a command acts on: `tab_id`; else the one tab whose origin and path contain
 * `url_contains` (more than one is refused, listing them: a page that made its URL look like
 * another's must not receive what was meant for that one); else the active tab of the last
 * focused window.
 */
export function pickTarget(tabs: readonly TabInfo[], target: TabTarget): TabInfo {
  const open = (): Array<{ id: number; url: string; title: string }> =>
    tabs.map((t) => ({ id: t.id, url: t.url, title: t.title }));
  if (target.tab_id !== undefined) {
    const tab = tabs.find((t) => t.id === target.tab_id);
    if (tab === undefined) {
      throw new XipeError(
        'TAB_NOT_FOUND',
        `No tab with id ${target.tab_id}. Call list_tabs to see the open tabs.`,
        {
          tab_id: target.tab_id,
          open_tabs: open(),
        },
      );
    }
    return tab;
  }
  if (target.url_contains !== undefined) {
    const needle = target.url_contains;
    const matches = tabs.filter((t) => urlMatches(t.url, needle));
    const [tab] = matches;
    if (tab === undefined) {
      const urls = tabs.map((t) => quoteShort(t.url)).join(', ');
      throw new XipeError(
        'TAB_NOT_FOUND',
        `No open tab's origin and path contain ${quoteShort(needle)} (its query and fragment are not looked at). Open tabs: ${urls || '(none)'}.`,
        { url_contains: needle, open_tabs: open() },
      );
    }
    if (matches.length > 1) throw ambiguous(needle, matches);
    return tab;
  }
  const active = tabs.find((t) => t.active && t.focused_window) ?? tabs.find((t) => t.active) ?? tabs[0];
  if (active === undefined) {
    throw new XipeError('TAB_NOT_FOUND', 'The browser has no open tab. Open a page, then retry.', {
      open_tabs: [],
    });
  }
  return active;
}

/** At most this many candidates are named in an ambiguity error. */
const MAX_CANDIDATES = 10;

function ambiguous(needle: string, matches: readonly TabInfo[]): XipeError {
  const shown = matches.slice(0, MAX_CANDIDATES);
  const list = shown.map((t) => `${t.id} ${quoteShort(t.title, 60)} ${quoteShort(t.url)}`).join('; ');
  const more = matches.length > shown.length ? `; and ${matches.length - shown.length} more` : '';
  return new XipeError(
    'VALIDATION_ERROR',
    `url_contains ${quoteShort(needle)} matches ${matches.length} tabs, so none was picked: ${list}${more}. Pass tab_id (one of these ids) or a longer url_contains.`,
    {
      field: 'url_contains',
      url_contains: needle,
      candidates: shown.map((t) => ({
        id: t.id,
        title: quoteShort(t.title, 60),
        url: quoteShort(t.url),
      })),
      candidate_count: matches.length,
    },
  );
}
