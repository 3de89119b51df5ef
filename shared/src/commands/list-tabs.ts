import { z } from 'zod';
import { BrowserInfo } from '../envelopes.js';

export const LIST_TABS = 'list_tabs';

export const ListTabsParams = z.object({}).strict();
export type ListTabsParams = z.infer<typeof ListTabsParams>;

export const TabInfo = z.object({
  id: z.number().int(),
  window_id: z.number().int(),
  index: z.number().int(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
  /** The tab's window is the last focused one. */
  focused_window: z.boolean(),
});
export type TabInfo = z.infer<typeof TabInfo>;

/** Tabs in stable order: window id ascending, then tab index. */
export const ListTabsResult = z.object({
  browser: BrowserInfo,
  tabs: z.array(TabInfo),
});
export type ListTabsResult = z.infer<typeof ListTabsResult>;
