import type { Tabs } from '../platform/browser.js';

/**
 * The toolbar button. Issue 4 (designer toolbar) plugs the toolbar toggle in here; until then a
 * click only (re)connects the native link, which the service worker does before calling this.
 */
export async function handleActionClick(_tab: Tabs.Tab): Promise<void> {}
