/// <reference types="@crxjs/vite-plugin/client" />
// Bundled by crxjs as a self-contained IIFE file, injected with executeScript({files}): a file
// from the extension package runs in the isolated world and is not subject to the page's CSP.

import toolbarFile from '../../content/toolbar/content.ts?iife';
import { browser, executeFunction } from '../../platform/browser.js';

export type ToolbarState = 'open' | 'closed';

export interface OpenToolbarOptions {
  /** `toggle` closes an open toolbar (the action button); `open` never closes (inject_toolbar). */
  mode?: 'open' | 'toggle';
  /** Remove any existing toolbar and its injection guard first, then inject a fresh one. */
  cleanupBefore?: boolean;
}

/**
 * Runs in the tab's isolated world before injecting: talks to a toolbar that is already there
 * (the `__xipeUiuxToolbar` marker) so injecting twice never gives two toolbars. Self-contained:
 * executeScript serialises this function.
 */
function probeExisting(mode: 'open' | 'toggle', cleanup: boolean): 'absent' | ToolbarState {
  interface Marker {
    open(): void;
    toggle(): boolean;
    destroy(): void;
  }
  const g = globalThis as { __xipeUiuxToolbar?: Marker };
  const existing = g.__xipeUiuxToolbar;
  if (cleanup || !existing) {
    existing?.destroy();
    delete g.__xipeUiuxToolbar;
    // A host element without a marker is left over by an extension reload: its script is gone.
    for (const el of Array.from(document.querySelectorAll('x-ipe-uiux-toolbar'))) el.remove();
    return 'absent';
  }
  if (mode === 'toggle') return existing.toggle() ? 'open' : 'closed';
  existing.open();
  return 'open';
}

export const TOOLBAR_FILE = toolbarFile;

/** Runs in the tab's isolated world: a line for the open toolbar's status (self-contained). */
function showNotice(text: string | null): void {
  const g = globalThis as { __xipeUiuxToolbar?: { notice?(text: string | null): void } };
  g.__xipeUiuxToolbar?.notice?.(text);
}

/** Tells the tab's toolbar, if one is open, what its capture waits for (null: it waits no more). */
export async function toolbarNotice(tabId: number, text: string | null): Promise<void> {
  await executeFunction({ target: { tabId, frameIds: [0] }, func: showNotice, args: [text] }).catch(
    () => undefined, // no toolbar, or the page is gone: nobody to tell
  );
}

/** Opens (or toggles) the designer toolbar in a tab; the MCP `inject_toolbar` command calls this. */
export async function openToolbar(tabId: number, options: OpenToolbarOptions = {}): Promise<ToolbarState> {
  const mode = options.mode ?? 'open';
  const [probe] = await executeFunction({
    target: { tabId },
    func: probeExisting,
    args: [mode, options.cleanupBefore ?? false],
  });
  const state = probe?.result;
  if (state === 'open' || state === 'closed') return state;
  if (state !== 'absent') throw new Error('Could not reach the page to open the toolbar');
  await browser.scripting.executeScript({ target: { tabId }, files: [toolbarFile] });
  return 'open';
}
