import {
  COMPARE_WITH_REFERENCE,
  type CommandName,
  EVENTS_SINCE,
  HOST_STATUS,
  INJECT_SCRIPT,
  INJECT_TOOLBAR,
  LIST_TABS,
  SAVE_AREA,
  SAVE_REFERENCE,
  SAVE_SCREENSHOT,
} from '#shared/commands/index.js';
import { bridgeStatusTool } from './bridge-status.js';
import { captureAreaTool } from './capture-area.js';
import { captureScreenshotTool } from './capture-screenshot.js';
import { compareWithReferenceTool } from './compare-with-reference.js';
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
  compareWithReferenceTool,
];

/**
 * The bridge command that does each tool's work (docs/architecture.md, Commands and tools). Tools
 * are named for what the agent wants, commands for what crosses the wire, so some differ:
 * capture_screenshot → save_screenshot and capture_area → save_area (the host writes the files:
 * no image bytes in the agent's context), wait_for_captures → events_since (through the bridge client's capture inbox),
 * bridge_status → host_status (through the bridge client's status()). A tool given a tab target may
 * send list_tabs first to find its browser (routing.ts). Tests check each tool sends its command.
 */
export const TOOL_COMMANDS = {
  inject_script: INJECT_SCRIPT,
  list_tabs: LIST_TABS,
  bridge_status: HOST_STATUS,
  save_uiux_reference: SAVE_REFERENCE,
  inject_toolbar: INJECT_TOOLBAR,
  wait_for_captures: EVENTS_SINCE,
  capture_screenshot: SAVE_SCREENSHOT,
  capture_area: SAVE_AREA,
  compare_with_reference: COMPARE_WITH_REFERENCE,
} as const satisfies Record<string, CommandName>;
