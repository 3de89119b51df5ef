import { z } from 'zod';
import { TabRef, TabTarget } from './target.js';

/**
 * Handled by the extension: opens the designer toolbar (a bundled file injected with
 * `scripting.executeScript({files})`, so page CSP and the user-scripts toggle do not matter).
 * The target fields sit at the top level of params (`{url_contains}` is what `x-ipe-uiux start`
 * sends); none = the active tab of the last focused window.
 */
export const INJECT_TOOLBAR = 'inject_toolbar';

export const InjectToolbarParams = TabTarget.extend({
  /** Remove an existing toolbar (and legacy toolbars and their guards) first, then open a fresh one. */
  cleanup_before: z.boolean().default(false),
}).strict();
export type InjectToolbarParams = z.infer<typeof InjectToolbarParams>;
export type InjectToolbarParamsInput = z.input<typeof InjectToolbarParams>;

export const InjectToolbarResult = z.object({
  tab: TabRef,
  /** A toolbar was already open in the tab: nothing was injected (idempotent). */
  already_open: z.boolean(),
});
export type InjectToolbarResult = z.infer<typeof InjectToolbarResult>;
