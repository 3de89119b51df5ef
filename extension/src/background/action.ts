import type { Tabs } from '../platform/browser.js';
import { toggleToolbar } from './toolbar/index.js';

/**
 * The toolbar button (and its keyboard shortcut, `_execute_action` in the manifest): toggles the
 * designer toolbar in the clicked tab. The service worker (re)connects the native link first.
 */
export async function handleActionClick(tab: Tabs.Tab): Promise<void> {
  if (tab.id !== undefined) await toggleToolbar(tab.id);
}
