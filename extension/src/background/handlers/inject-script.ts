import type { InjectScriptParams, InjectScriptResult } from '#shared/index.js';
import { removeToolbars } from '../injection/cleanup.js';
import { mapApiError } from '../injection/injection-errors.js';
import { prepareAhead, runInjection } from '../injection/run-injection.js';
import { ScriptStore } from '../injection/script-store.js';
import { scriptableTab } from '../scriptable-tab.js';
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
  const resolving = scripts.resolve(params);
  // A script sent in full: its rewrite overlaps the hash check (which may still refuse it).
  if (params.code !== undefined) prepareAhead(params.code);
  const code = await resolving;
  const { tab, ref } = await scriptableTab(params.target, 'inject into');
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
