import type { InjectScriptParams, InjectScriptResult } from '../../../../shared/src/index.js';
import { EXTENSION_ORIGIN, XipeError } from '../../../../shared/src/index.js';
import { chromeApi } from '../../platform/browser.js';
import { removeToolbars } from '../injection/cleanup.js';
import { forbiddenReason } from '../injection/forbidden-urls.js';
import { mapApiError, runInjection } from '../injection/run-injection.js';
import { ScriptStore } from '../injection/script-store.js';
import { findTarget } from '../tabs.js';
import type { HandlerContext } from './types.js';

/** For the worker's lifetime: scripts sent with their hash, run again when named by it. */
const scripts = new ScriptStore();

/**
 * `inject_script`: find the code (sent, or kept from an earlier call), resolve the tab, refuse
 * pages no extension may script, optionally remove an existing toolbar, then run the code and
 * return its completion value.
 */
export async function injectScript(
  params: InjectScriptParams,
  _ctx: HandlerContext,
): Promise<InjectScriptResult> {
  const code = await scripts.resolve(params);
  const tab = await findTarget(params.target);
  const ref = { id: tab.id, url: tab.url, title: tab.title };
  const ownOrigin = chromeApi.runtime.getURL('/') || EXTENSION_ORIGIN;
  const reason = forbiddenReason(tab.url, ownOrigin);
  if (reason !== null) {
    throw new XipeError(
      'INJECTION_BLOCKED',
      `Cannot inject into tab ${tab.id} (${tab.url || 'no URL'}): ${reason}. Target a normal web page (tab_id, url_contains or page_index from list_tabs).`,
      { tab: ref },
    );
  }
  if (params.cleanup_before) {
    try {
      await removeToolbars(tab.id);
    } catch (err) {
      throw mapApiError(err, tab.id);
    }
  }
  const { returnValue, method } = await runInjection({
    tabId: tab.id,
    code,
    world: params.world,
    timeoutMs: params.timeout_ms,
  });
  return { returnValue, tab: ref, method };
}
