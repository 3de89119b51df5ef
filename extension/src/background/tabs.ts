import type { TabInfo, TabTarget } from '../../../shared/src/index.js';
import { XipeError } from '../../../shared/src/index.js';
import { browser, type Tabs } from '../platform/browser.js';
import { isRenderWindow } from './verify/render-windows.js';

/** Every tab, in the stable order the tools promise: window id ascending, then tab index. */
export async function listAllTabs(): Promise<TabInfo[]> {
  const [tabs, focused] = await Promise.all([
    browser.tabs.query({}),
    browser.windows.getLastFocused().catch(() => null),
  ]);
  return sortTabs(
    tabs.flatMap((tab) =>
      tab.id === undefined || isRenderWindow(tab.windowId)
        ? []
        : [toTabInfo(tab, tab.id, focused?.id ?? null)],
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

/** Forgets the tab snapshot; called for every tab and window event. */
export function tabsChanged(): void {
  snapshot = null;
  generation += 1;
}

async function currentTabs(): Promise<TabInfo[]> {
  if (snapshot !== null) return snapshot;
  const started = generation;
  const tabs = sortTabs(
    (await browser.tabs.query({})).flatMap((tab) =>
      tab.id === undefined || isRenderWindow(tab.windowId) ? [] : [toTabInfo(tab, tab.id, null)],
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
    if (tab?.id === id && !isRenderWindow(tab.windowId)) return toTabInfo(tab, tab.id, null);
  } else if (target.url_contains !== undefined) {
    const needle = target.url_contains;
    const tab = (await currentTabs()).find((t) => t.url.includes(needle));
    if (tab !== undefined) return tab;
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
 * The tab a command acts on: `tab_id`; else the first tab (list order) whose URL contains
 * `url_contains`; else the active tab of the last focused window.
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
    const tab = tabs.find((t) => t.url.includes(needle));
    if (tab === undefined) {
      const urls = tabs.map((t) => t.url).join(', ');
      throw new XipeError(
        'TAB_NOT_FOUND',
        `No open tab's URL contains '${needle}'. Open tabs: ${urls || '(none)'}.`,
        { url_contains: needle, open_tabs: open() },
      );
    }
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
