import { z } from 'zod';
import { listAllTabs } from '../tab-list.js';
import { defineTool } from './define-tool.js';

export const listTabsTool = defineTool({
  name: 'list_tabs',
  description:
    'List every tab of every connected browser (Chrome/Chromium with the X-IPE extension), in one stable order: ' +
    'browser_id, then window, then tab index. Each tab has browser_id, profile (a stable id of the browser profile), ' +
    'window_id, tab_id, index, url, title and active. `page_index` is the position in this list (use it, or `tab_id` + ' +
    '`browser`, to target inject_script). Browsers whose extension does not answer are listed under `browsers` with the error.',
  inputSchema: z.strictObject({}),
  annotations: { title: 'List browser tabs', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const { tabs, browsers } = await listAllTabs(ctx.bridge, { signal: ctx.signal });
    return { tabs, browsers };
  },
});
