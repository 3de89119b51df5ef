import { pendingPixels } from '../deep-capture/pending-pixels.js';
import { captureArea } from './capture-area.js';
import { captureScreenshot } from './capture-screenshot.js';
import { fetchResource } from './fetch-resource.js';
import { injectScript } from './inject-script.js';
import { injectToolbar } from './inject-toolbar.js';
import { listTabs } from './list-tabs.js';
import { renderCandidate } from './render-candidate.js';
import { stagedArea, stagedResource } from './staged.js';
import type { ExtensionCommand, Handler } from './types.js';

/**
 * One handler per extension command. The mapped type makes a missing or extra entry a compile
 * error; handlers.test.ts checks the same against COMMANDS at run time.
 */
export const HANDLERS: { readonly [C in ExtensionCommand]: Handler<C> } = {
  list_tabs: listTabs,
  inject_script: injectScript,
  inject_toolbar: injectToolbar,
  capture_screenshot: captureScreenshot,
  capture_area: (params, ctx) =>
    params.staged !== undefined ? stagedArea(params.staged, ctx) : captureArea(params, ctx),
  area_pixels: (params) => pendingPixels.take(params.ticket),
  fetch_resource: (params, ctx) =>
    params.staged !== undefined ? stagedResource(params, params.staged, ctx) : fetchResource(params),
  render_candidate: renderCandidate,
};
