import type { ListTabsParams, ListTabsResult } from '#shared/index.js';
import { listAllTabs } from '../tabs.js';
import type { HandlerContext } from './types.js';

/** `list_tabs`: every tab of this browser, window id ascending then index. */
export async function listTabs(_params: ListTabsParams, ctx: HandlerContext): Promise<ListTabsResult> {
  const [browser, tabs] = await Promise.all([ctx.browserInfo(), listAllTabs()]);
  return { browser, tabs };
}
