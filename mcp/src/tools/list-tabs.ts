import { z } from 'zod';
import { listAllTabs } from '../bridge-client/tab-list.js';
import { defineTool } from './define-tool.js';

export const listTabsTool = defineTool({
  name: 'list_tabs',
  description:
    'List the tabs of every connected browser in one stable order (browser, window, tab index): browser_id, ' +
    "profile, window_id, tab_id, index, url, title, active. A tab's `page_index` is its position here; target " +
    'tools with it, or with `tab_id` (+ `browser`). Browsers that do not answer are under `browsers` with the error.',
  inputSchema: z.strictObject({}),
  annotations: { title: 'List browser tabs', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const { tabs, browsers } = await listAllTabs(ctx.bridge, { signal: ctx.signal });
    return { tabs, browsers };
  },
});
