import { z } from 'zod';
import { TabTarget } from '../../shared/src/commands/target.js';

/**
 * The tab-targeting arguments every browser tool shares (inject_script's contract): one of
 * `tab_id`, `url_contains`, `page_index`, plus `browser` when several are connected. Routing is
 * `resolveRoute` in tools/inject-script.ts.
 */
export const tabTargetShape = {
  tab_id: TabTarget.shape.tab_id.describe('Target tab id (from list_tabs).'),
  url_contains: TabTarget.shape.url_contains.describe('Target the tab whose URL contains this text.'),
  page_index: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Target by 0-based position in list_tabs order.'),
  browser: z
    .string()
    .min(1)
    .optional()
    .describe('browser_id (from list_tabs) when several browsers are connected.'),
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
      message: `give at most one of tab_id, url_contains, page_index (got ${given.join(' and ')})`,
    });
  }
}
