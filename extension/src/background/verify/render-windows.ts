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
 * is then shot in bands).
 */

export interface RenderWindow {
  windowId: number;
  tabId: number;
  close(): Promise<void>;
}

function loaded(tabId: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      browser.tabs.onUpdated.removeListener(listener);
      void browser.tabs
        .get(tabId)
        .catch(() => null)
        .then((tab) => {
          const state =
            tab === null
              ? 'the tab is gone'
              : `the tab is ${tab.status ?? 'in an unknown state'} at ${tab.url ?? tab.pendingUrl ?? '?'}`;
          reject(new Error(`The candidate did not load within ${timeoutMs} ms (${state})`));
        });
    }, timeoutMs);
    // The window's first page (about:blank) may report complete after the candidate was asked for.
    const listener = (id: number, info: { status?: string }, tab: { url?: string }) => {
      if (id !== tabId || info.status !== 'complete' || tab.url === undefined || tab.url === 'about:blank')
        return;
      clearTimeout(timer);
      browser.tabs.onUpdated.removeListener(listener);
      resolve();
    };
    browser.tabs.onUpdated.addListener(listener);
  });
}

/** Opens an unfocused window on `about:blank` (sized once the page can measure its viewport). */
export async function openRenderWindow(): Promise<RenderWindow> {
  const win = await browser.windows.create({ url: 'about:blank', focused: false, type: 'normal' });
  const windowId = win.id;
  const tabId = win.tabs?.[0]?.id;
  if (windowId === undefined) throw new Error('The browser opened no window to render in');
  markOwnWindow(windowId);
  const close = async () => {
    await browser.windows.remove(windowId).catch(() => undefined);
    unmarkOwnWindow(windowId);
  };
  if (tabId === undefined) {
    await close();
    throw new Error('The browser opened a window with no tab to render in');
  }
  return { windowId, tabId, close };
}

/** Loads `url` in the render tab and waits for its load event. */
export async function loadCandidate(tabId: number, url: string, timeoutMs: number): Promise<void> {
  const done = loaded(tabId, timeoutMs);
  await browser.tabs.update(tabId, { url });
  await done;
}

/** Makes the viewport `width` wide (and up to `height` tall) given what the page measured. */
export async function fitViewport(
  windowId: number,
  measured: { innerWidth: number; innerHeight: number },
  width: number,
  height: number,
): Promise<boolean> {
  const win = await browser.windows.get(windowId);
  const outerW = win.width ?? measured.innerWidth;
  const outerH = win.height ?? measured.innerHeight;
  const wantW = outerW + (width - measured.innerWidth);
  const wantH = outerH + (height - measured.innerHeight);
  if (wantW === outerW && wantH === outerH) return false;
  try {
    await browser.windows.update(windowId, { width: wantW, height: wantH });
  } catch {
    // A height the screen refuses: keep the width right, the bands cover the rest.
    await browser.windows.update(windowId, { width: wantW }).catch(() => undefined);
  }
  return true;
}
