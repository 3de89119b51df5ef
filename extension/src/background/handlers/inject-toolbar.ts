import type { InjectToolbarParams, InjectToolbarResult } from '#shared/index.js';
import { executeFunction } from '../../platform/browser.js';
import { removeToolbars, TOOLBAR_MARKER } from '../injection/cleanup.js';
import { mapApiError } from '../injection/injection-errors.js';
import { scriptableTab } from '../scriptable-tab.js';
import { openToolbar } from '../toolbar/open.js';
import type { HandlerContext } from './types.js';

/** Runs in the isolated world, where the toolbar keeps its marker. Self-contained. */
function toolbarPresent(marker: string): boolean {
  return (globalThis as Record<string, unknown>)[marker] !== undefined;
}

/**
 * `inject_toolbar`: opens the designer toolbar (a bundled file, so page CSP and the user-scripts
 * toggle do not matter). Idempotent: an open toolbar is left as it is (`already_open: true`);
 * `cleanup_before` removes it and any legacy toolbar first, then opens a fresh one.
 */
export async function injectToolbar(
  params: InjectToolbarParams,
  _ctx: HandlerContext,
): Promise<InjectToolbarResult> {
  const target = {
    ...(params.tab_id !== undefined ? { tab_id: params.tab_id } : {}),
    ...(params.url_contains !== undefined ? { url_contains: params.url_contains } : {}),
  };
  const { tab, ref } = await scriptableTab(target, 'open the toolbar in');
  try {
    if (params.cleanup_before) await removeToolbars(tab.id);
    const [probe] = await executeFunction({
      target: { tabId: tab.id },
      func: toolbarPresent,
      args: [TOOLBAR_MARKER],
    });
    const alreadyOpen = probe?.result === true;
    await openToolbar(tab.id, { mode: 'open' });
    return { tab: ref, already_open: alreadyOpen };
  } catch (err) {
    throw mapApiError(err, tab.id);
  }
}
