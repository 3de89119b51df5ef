import { browser } from '../../platform/browser.js';
import { markOwnWindow, unmarkOwnWindow } from '../tabs.js';

/**
 * Windows the extension opens to render a candidate for `compare_with_reference`. They are never
 * the designer's: `list_tabs` and default targets leave their tabs out (marked with
 * `markOwnWindow` in tabs.ts), they open unfocused, and they are closed when the render ends.
 *
 * Measured (docs/verify.md): `tabs.captureVisibleTab(windowId)` captures the active tab of an
 * unfocused window, headless and headed, without focusing it. A headless browser refuses bounds
 * that are less than half on its screen, and ignores the size given to `windows.create`: the size
 * is set afterwards, and a height that is refused leaves the window as tall as it was (the region
 * is then shot in bands). The window's frame (tab strip, toolbar: 87 px tall even headless) is
 * learnt from the first render, so the next ones are sized while their page loads.
 */

export interface RenderWindow {
  windowId: number;
  tabId: number;
  /** Resolves on the candidate's load event; rejects after the time limit, saying where the tab is. */
  loaded: Promise<void>;
  close(): Promise<void>;
}

export interface Size {
  width: number;
  height: number;
}

/** The last render window's outer size minus its viewport; null until one was measured. */
let frame: Size | null = null;

/**
 * Waits for the render tab's load event (`complete` on a page other than about:blank), listening
 * before the window exists: its page may load before `windows.create` answers with the tab's id.
 */
function loadWatcher(timeoutMs: number) {
  let tabId: number | undefined;
  const completed = new Set<number>();
  let settle: ((error: Error | null) => void) | null = null;
  const loaded = new Promise<void>((resolve, reject) => {
    settle = (error) => {
      clearTimeout(timer);
      browser.tabs.onUpdated.removeListener(listener);
      if (error === null) resolve();
      else reject(error);
    };
  });
  const listener = (id: number, info: { status?: string }, tab: { url?: string }) => {
    if (info.status !== 'complete' || tab.url === undefined || tab.url === 'about:blank') return;
    completed.add(id);
    if (id === tabId) settle?.(null);
  };
  const timer = setTimeout(async () => {
    const tab = tabId === undefined ? null : await browser.tabs.get(tabId).catch(() => null);
    const state =
      tab === null
        ? 'the tab is gone'
        : `the tab is ${tab.status ?? 'in an unknown state'} at ${tab.url ?? tab.pendingUrl ?? '?'}`;
    settle?.(new Error(`The candidate did not load within ${timeoutMs} ms (${state})`));
  }, timeoutMs);
  browser.tabs.onUpdated.addListener(listener);
  loaded.catch(() => undefined); // awaited by the caller once the window is open
  return {
    loaded,
    track(id: number) {
      tabId = id;
      if (completed.has(id)) settle?.(null);
    },
    stop() {
      settle?.(new Error('The render window was closed'));
    },
  };
}

/**
 * Opens an unfocused window on `url`, at `viewport` plus the frame learnt before (a headless
 * browser ignores the size here; `fitViewport` corrects it once the page has measured itself).
 */
export async function openRenderWindow(
  url: string,
  viewport: Size,
  timeoutMs: number,
): Promise<RenderWindow> {
  const watcher = loadWatcher(timeoutMs);
  const size =
    frame === null ? {} : { width: viewport.width + frame.width, height: viewport.height + frame.height };
  const win = await browser.windows
    .create({ url, focused: false, type: 'normal', ...size })
    .catch((err: unknown) => {
      watcher.stop();
      throw err;
    });
  const windowId = win.id;
  const tabId = win.tabs?.[0]?.id;
  const close = async () => {
    watcher.stop();
    if (windowId === undefined) return;
    await browser.windows.remove(windowId).catch(() => undefined);
    unmarkOwnWindow(windowId);
  };
  if (windowId !== undefined) markOwnWindow(windowId);
  if (windowId === undefined || tabId === undefined) {
    await close();
    throw new Error('The browser opened no window with a tab to render in');
  }
  watcher.track(tabId);
  // A headless browser opened it at its own size: resized while the page loads, not after.
  if ('width' in size && (win.width !== size.width || win.height !== size.height))
    await browser.windows.update(windowId, size).catch(() => undefined);
  return { windowId, tabId, loaded: watcher.loaded, close };
}

/**
 * Makes the viewport `width` wide and `height` tall given what the page measured (`inner`), and
 * learns the window's frame for the next render. False when it already was.
 */
export async function fitViewport(
  windowId: number,
  inner: Size,
  width: number,
  height: number,
): Promise<boolean> {
  if (inner.width === width && inner.height === height) return false;
  const win = await browser.windows.get(windowId);
  const outer = { width: win.width ?? inner.width, height: win.height ?? inner.height };
  frame = { width: outer.width - inner.width, height: outer.height - inner.height };
  const want = { width: width + frame.width, height: height + frame.height };
  try {
    await browser.windows.update(windowId, want);
  } catch {
    // A height the screen refuses: keep the width right, the bands cover the rest.
    await browser.windows.update(windowId, { width: want.width }).catch(() => undefined);
  }
  return true;
}
