import { z } from 'zod';
import { TabTarget } from '#shared/commands/target.js';

/**
 * The tab-targeting arguments every browser tool shares (inject_script's contract): one of
 * `tab_id`, `url_contains`, `page_index`, plus `browser` when several are connected. Routing is
 * `resolveRoute` in tools/inject-script.ts.
 */
export const tabTargetShape = {
  tab_id: TabTarget.shape.tab_id.describe('Tab id (list_tabs).'),
  url_contains: TabTarget.shape.url_contains.describe('The tab whose URL contains this.'),
  page_index: z.number().int().nonnegative().optional().describe('0-based position in list_tabs.'),
  browser: z.string().min(1).optional().describe('browser_id (list_tabs), when several are connected.'),
};

/** At most one of tab_id, url_contains, page_index. */
export function refineOneTarget(
  args: { tab_id?: number | undefined; url_contains?: string | undefined; page_index?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  const given = (['tab_id', 'url_contains', 'page_index'] as const).filter((k) => args[k] !== undefined);
  if (given.length > 1) {
    ctx.addIssue({
      code: 'custom',
      path: [given[1] ?? 'page_index'],
      message: 'at most one of tab_id, url_contains, page_index',
      params: { received: given.join(' and ') },
    });
  }
}
