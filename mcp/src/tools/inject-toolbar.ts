import { z } from 'zod';
import { INJECT_TOOLBAR, InjectToolbarParams } from '#shared/commands/inject-toolbar.js';
import { resolveRoute, routeOptions } from '../bridge-client/routing.js';
import { refineOneTarget, tabTargetShape } from './call/tab-target-args.js';
import { defineTool } from './define-tool.js';

const TOOLBAR_TIMEOUT_MS = 15_000;

export const injectToolbarTool = defineTool({
  name: 'inject_toolbar',
  description:
    "Open the designer toolbar in a tab of the user's browser (elements, areas, colours, notes); then call " +
    'wait_for_captures for what they pick. No target = the active tab. A second call reports `already_open: true`; ' +
    '`cleanup_before` replaces the toolbar.',
  inputSchema: z
    .strictObject({
      ...tabTargetShape,
      cleanup_before: InjectToolbarParams.shape.cleanup_before.describe(
        'Remove an existing toolbar (and legacy ones) first.',
      ),
    })
    .superRefine(refineOneTarget),
  // Changes the page (adds the toolbar), so not read-only; a second call changes nothing.
  annotations: {
    title: 'Open the designer toolbar',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const route = await resolveRoute(ctx.bridge, args, ctx.signal);
    const result = await ctx.bridge.request(
      INJECT_TOOLBAR,
      { ...route.target, cleanup_before: args.cleanup_before },
      { ...routeOptions(route), timeoutMs: TOOLBAR_TIMEOUT_MS, signal: ctx.signal },
    );
    return {
      status: 'success',
      already_open: result.already_open,
      tab: result.tab,
      next: 'Ask the designer to pick elements/colours in the toolbar, then call wait_for_captures.',
    };
  },
});
