/**
 * background/toolbar/ is the designer toolbar's service-worker side: it opens the toolbar in a
 * tab (open.ts), answers the toolbar's messages (handler.ts, one file per message under
 * messages/), keeps each tab's collection in
 * extension storage (collection-store.ts) and saves it through the host (reference-builder.ts,
 * host-link.ts). The pixels come from background/capture/, which capture_screenshot shares.
 */
import { browser, ownTopFrameTab, type Runtime } from '../../platform/browser.js';
import { captureCrop } from '../capture/capture.js';
import { RestFrames } from '../capture/rest-frame.js';
import { StitchJobs } from '../capture/stitch-jobs.js';
import { captureTurns } from '../capture/turns.js';
import { StagedCaptures } from '../deep-capture/staged.js';
import { CollectionStore, type KeyValueStorage } from './collection-store.js';
import { createToolbarHandler, isToolbarMessage } from './handler.js';
import type { HostLink } from './host-link.js';
import { openToolbar, toolbarNotice } from './open.js';
import { ToolbarTurns } from './turns.js';

export { type OpenToolbarOptions, openToolbar, type ToolbarState } from './open.js';

const localStorageArea: KeyValueStorage = {
  get: (keys) => browser.storage.local.get(keys),
  set: (items) => browser.storage.local.set(items),
  remove: (keys) => browser.storage.local.remove(keys),
};

/**
 * The designer toolbar's service-worker side. Called once, synchronously, at the top level of the
 * service worker so the listeners exist whenever Chrome wakes the worker for one of them.
 */
export function registerToolbar(link: HostLink): { staged: StagedCaptures } {
  const store = new CollectionStore(localStorageArea);
  const staged = new StagedCaptures(
    localStorageArea,
    (key) => store.crop(key),
    async (tabId) => {
      const tab = await browser.tabs.get(tabId);
      return { id: tabId, url: tab.url ?? '', title: tab.title ?? '' };
    },
  );
  const jobs = new StitchJobs();
  const restFrames = new RestFrames();
  const turns = new ToolbarTurns((tabId, text) => void toolbarNotice(tabId, text));
  const windowOf = async (tabId: number, windowId: number | undefined) =>
    windowId ?? (await browser.tabs.get(tabId)).windowId ?? browser.windows.WINDOW_ID_CURRENT;
  const handle = createToolbarHandler({
    store,
    staged,
    host: link,
    capture: {
      crop: async (tabId, rect, viewport, windowId) =>
        turns.run(tabId, await windowOf(tabId, windowId), 'toolbar crop', () =>
          captureCrop(tabId, rect, viewport, windowId),
        ),
      begin: (tabId, width, height, left) => jobs.begin(tabId, width, height, left),
      band: async (tabId, job, band, viewport, windowId, marker, step) =>
        turns.run(tabId, await windowOf(tabId, windowId), 'toolbar full page band', () =>
          jobs.band(tabId, job, band, viewport, windowId, marker, step),
        ),
      turn: async (tabId, windowId, hold) => {
        if (!hold) {
          turns.release(tabId);
          return 0;
        }
        return turns.hold(tabId, await windowOf(tabId, windowId));
      },
      settle: (tabId, job) => jobs.settle(tabId, job),
      end: (tabId, job) => jobs.end(tabId, job),
      abandon: (tabId, job) => jobs.abandon(tabId, job),
      // A preview is worth taking only of what the designer sees: not while a capture holds the window.
      rest: async (tabId, windowId, viewport) =>
        captureTurns.isBusy(windowId) ? null : restFrames.take(tabId, windowId, viewport),
      preview: (tabId, frame, rect) => restFrames.thumbnail(tabId, frame, rect),
    },
  });

  // A listener that returns a promise answers with its value; undefined leaves the message to others.
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
    if (!isToolbarMessage(message)) return undefined;
    // Only our own content script in a tab's top frame; extension pages and sub-frames are refused.
    const tab = ownTopFrameTab(sender);
    const tabUrl = sender.url ?? tab?.url;
    if (tab === undefined || !tabUrl) {
      return Promise.resolve({
        ok: false,
        error: { code: 'UNAUTHORIZED', message: 'Toolbar messages come from the toolbar only.' },
      });
    }
    return handle(message, { tabId: tab.id, tabUrl, windowId: tab.windowId });
  });

  browser.tabs.onRemoved.addListener((tabId) => {
    turns.release(tabId);
    restFrames.drop(tabId);
    void store.drop(tabId);
  });

  // Tab ids do not survive a browser restart: forget collections of tabs that are gone.
  browser.runtime.onStartup.addListener(() => {
    void (async () => {
      const [tabs, all] = await Promise.all([browser.tabs.query({}), browser.storage.local.get(null)]);
      await store.prune(new Set(tabs.flatMap((t) => (t.id === undefined ? [] : [t.id]))), Object.keys(all));
    })();
  });
  return { staged };
}

/** The action button (and its keyboard shortcut, `_execute_action`): toggles the toolbar. */
export async function toggleToolbar(tabId: number): Promise<void> {
  try {
    await openToolbar(tabId, { mode: 'toggle' });
  } catch (err) {
    // chrome://, the Web Store and similar pages refuse injection: say so on the button.
    const message = err instanceof Error ? err.message : String(err);
    await browser.action.setBadgeText({ tabId, text: '!' });
    await browser.action.setTitle({ tabId, title: `X-IPE toolbar cannot run on this page: ${message}` });
  }
}
