import { bridgeStatusTool } from './bridge-status.js';
import { captureAreaTool } from './capture-area.js';
import { captureScreenshotTool } from './capture-screenshot.js';
import type { AnyTool } from './define-tool.js';
import { injectScriptTool } from './inject-script.js';
import { injectToolbarTool } from './inject-toolbar.js';
import { listTabsTool } from './list-tabs.js';
import { saveUiuxReferenceTool } from './save-uiux-reference.js';
import { waitForCapturesTool } from './wait-for-captures.js';

/**
 * Every tool the server offers, in the order `tools/list` shows them. Adding a tool: one file in
 * this folder exporting `defineTool(...)`, one import and one entry here. A test checks that every
 * file in this folder is listed and that the running server lists exactly these.
 */
export const TOOLS: readonly AnyTool[] = [
  injectScriptTool,
  listTabsTool,
  bridgeStatusTool,
  saveUiuxReferenceTool,
  injectToolbarTool,
  waitForCapturesTool,
  captureScreenshotTool,
  captureAreaTool,
];
