import type { CommandSpec } from './command-line.js';

/**
 * The `x-ipe-uiux` command line (docs/design.md §3, contract): one spec per command, read by the parser
 * and by `--help`. Pure data, so the entry point can list every command without loading any.
 */

const workspace = {
  type: 'string',
  value: 'DIR',
  help: 'Project folder holding x-ipe-docs/ideas (default: the current directory)',
} as const;

export const START_COMMAND = {
  name: 'start',
  summary: 'Launch Chromium with the extension loaded, the host connected and the toolbar ready on URL.',
  options: {
    workspace: { ...workspace, help: 'Project folder to save into (default: a demo workspace in <home>)' },
    headless: { type: 'boolean', help: 'No window: for CI and machines without a display' },
    'user-data-dir': {
      type: 'string',
      value: 'DIR',
      help: 'Browser profile (default: <home>/profiles/default)',
    },
    timeout: {
      type: 'string',
      value: 'SECONDS',
      help: 'Give up when the extension has not connected by then (default 60)',
    },
  },
  positionals: { usage: '[URL]', max: 1 },
  details: `URL defaults to a bundled demo page. Without a display (no $DISPLAY, e.g. over SSH or in CI)
use --headless; from a clone: \`npm run start:headless\` (or \`npm start -- --headless\`: npm keeps
options before \`--\` for itself). Ctrl+C, SIGTERM, SIGHUP (closing the terminal) or closing the
browser stops everything.`,
} as const satisfies CommandSpec;

const browser = {
  type: 'string',
  value: 'B',
  help: 'chrome, chromium, edge, brave or all (default: every browser found)',
} as const;

export const INSTALL_COMMAND = {
  name: 'install',
  summary: "Register the native host with a browser (its user-level folder, or a profile's).",
  options: {
    browser,
    'user-data-dir': { type: 'string', value: 'DIR', help: 'Register for this browser profile only' },
    workspace: { ...workspace, help: 'Also register this project folder with the host' },
  },
} as const satisfies CommandSpec;

export const UNINSTALL_COMMAND = {
  name: 'uninstall',
  summary: 'Remove what install wrote (every registration, or only the one named).',
  options: {
    browser: { ...browser, help: 'Remove only this browser’s registration' },
    'user-data-dir': { type: 'string', value: 'DIR', help: 'Remove only this profile’s registration' },
  },
} as const satisfies CommandSpec;

export const INIT_COMMAND = {
  name: 'init',
  summary: 'Register the MCP server with coding agents and add a short guide where each reads instructions.',
  options: {
    client: {
      type: 'string',
      value: 'C',
      help: 'claude, copilot, opencode (comma-separated) or all.\nWithout it: asks on a terminal; otherwise only the project-level ones (claude, opencode)',
    },
    workspace: { ...workspace, help: 'Project folder to register (default: the current directory)' },
    idea: {
      type: 'string',
      value: 'NAME',
      help: 'Create this idea folder under x-ipe-docs/ideas (without it: asks on a terminal\nwhen the project has none)',
    },
  },
  details: `Also registers the project as a workspace the toolbar can save into.
Claude Code: .mcp.json and CLAUDE.md in the project. OpenCode: opencode.json(c) and AGENTS.md in
the project. Copilot CLI: $COPILOT_HOME/mcp-config.json (user-level, default ~/.copilot) and
.github/copilot-instructions.md. Existing settings, comments and formatting are kept.`,
} as const satisfies CommandSpec;

export const DOCTOR_COMMAND = {
  name: 'doctor',
  summary:
    'Check every link (browser, host manifest, token, bridge, extension, workspace) and say how to fix it.',
  options: {
    json: { type: 'boolean', help: 'Print the report as JSON' },
    workspace,
  },
} as const satisfies CommandSpec;

export const SAVE_COMMAND = {
  name: 'save',
  summary: 'Save reference data into an idea folder (save_uiux_reference without MCP or a browser).',
  options: {
    'data-file': {
      type: 'string',
      value: 'FILE',
      help: 'Read the reference data (one JSON object) from FILE',
    },
    data: { type: 'string', value: 'JSON', help: 'The reference data itself' },
    workspace: {
      ...workspace,
      help: 'Project folder holding x-ipe-docs/ideas (default: the current directory)',
    },
    format: { type: 'string', value: 'F', help: 'json (default: the tool result object) or text' },
  },
  details: `Saves the data (the save_uiux_reference arguments) as a new session of
x-ipe-docs/ideas/<idea_folder>/uiux-references/. Without --data-file or --data it reads stdin.
Exit status: 0 saved, 1 refused (VALIDATION_ERROR, IDEA_NOT_FOUND, PAYLOAD_TOO_LARGE, WRITE_ERROR,
TIMEOUT), 2 bad usage (no input, unreadable file, invalid JSON, unknown option).`,
} as const satisfies CommandSpec;

export const MCP_COMMAND = {
  name: 'mcp',
  summary: 'The MCP server x-ipe-app-and-agent-interaction: stdio (started by agents) or Streamable HTTP.',
  options: {
    workspace,
    http: {
      type: 'string',
      value: 'PORT',
      help: 'Serve Streamable HTTP on 127.0.0.1:PORT instead of stdio (0 picks a free port)',
    },
    'token-in-path': {
      type: 'boolean',
      help: 'With --http: serve /<secret>/mcp without a header, the secret an HMAC of the token\n(not the token itself; printed on stderr), for clients that cannot send headers',
    },
    'idle-timeout': {
      type: 'string',
      value: 'SECONDS',
      help: 'With --http: close sessions idle this long (default 1800)',
    },
  },
  details: `stdout carries JSON-RPC only; logs go to stderr and <home>/logs/mcp.log. Over HTTP every request
needs "Authorization: Bearer <contents of <home>/token>".`,
} as const satisfies CommandSpec;

export const HOST_COMMAND = {
  name: 'host',
  summary:
    'The native-messaging host. The browser starts it (through the launcher install wrote); not for hand use.',
  options: {},
  positionals: { usage: '[ORIGIN]', max: 1 },
} as const satisfies CommandSpec;

/** In the order `x-ipe-uiux --help` lists them. */
export const CLI_COMMANDS: readonly CommandSpec[] = [
  START_COMMAND,
  INSTALL_COMMAND,
  UNINSTALL_COMMAND,
  INIT_COMMAND,
  DOCTOR_COMMAND,
  SAVE_COMMAND,
  MCP_COMMAND,
  HOST_COMMAND,
];
