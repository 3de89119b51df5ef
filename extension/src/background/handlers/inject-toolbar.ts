import type { InjectToolbarParams, InjectToolbarResult } from '../../../../shared/src/index.js';
import { EXTENSION_ORIGIN, XipeError } from '../../../../shared/src/index.js';
import { chromeApi } from '../../platform/browser.js';
import { removeToolbars, TOOLBAR_MARKER } from '../injection/cleanup.js';
import { forbiddenReason } from '../injection/forbidden-urls.js';
import { mapApiError } from '../injection/run-injection.js';
import { listAllTabs, pickTarget } from '../tabs.js';
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
  const tab = pickTarget(await listAllTabs(), target);
  const ref = { id: tab.id, url: tab.url, title: tab.title };
  const reason = forbiddenReason(tab.url, chromeApi.runtime.getURL('/') || EXTENSION_ORIGIN);
  if (reason !== null) {
    throw new XipeError(
      'INJECTION_BLOCKED',
      `Cannot open the toolbar in tab ${tab.id} (${tab.url || 'no URL'}): ${reason}. Target a normal web page (tab_id, url_contains or page_index from list_tabs).`,
      { tab: ref },
    );
  }
  try {
    if (params.cleanup_before) await removeToolbars(tab.id);
    const [probe] = await chromeApi.scripting.executeScript({
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
