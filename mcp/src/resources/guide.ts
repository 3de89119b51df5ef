import { MCP_SERVER_NAME } from '#shared/constants.js';

/** `xipe://guide`: how an agent runs a reference session with the designer, in one screen. */
export const AGENT_GUIDE_MARKDOWN = `# ${MCP_SERVER_NAME}: usage guide for agents

These tools reach the user's own Chrome/Chromium through the X-IPE extension and a native host.
Script and image bytes never pass through your context: you give file paths, you get file paths.

## Gathering references with the designer

1. \`list_tabs\` — every tab of every connected browser; \`page_index\` is the position in this list.
2. \`inject_toolbar\` — open the X-IPE toolbar in the designer's tab (target with \`tab_id\`,
   \`url_contains\` or \`page_index\`, plus \`browser\` when several browsers are connected;
   no target = the active tab). Calling it again is harmless.
3. \`wait_for_captures\` — long-poll until the designer picks elements, areas or colours, adds notes
   or saves; returns the events as a JSON list. Each call drains what it returns, so call it again
   to keep listening.
4. \`capture_screenshot\` — viewport, one element (\`selector\`) or the full page, written to a PNG
   file in the workspace or the idea's \`uiux-references/screenshots/\`; returns path and size.
5. \`save_uiux_reference\` — save reference data (version "1.0", "2.0" or "3.0"; \`idea_folder\`
   must already exist) into \`x-ipe-docs/ideas/<idea_folder>/uiux-references/\`; null means absent
   for optional fields. Works with the browser closed. Pass screenshot file paths, not base64.

## Rebuilding an area of a page

\`capture_area\` — one call: \`idea_folder\` plus \`selector\` (CSS) or \`rect\` {x, y, width, height}
(CSS px, page coordinates), optional \`instruction\` and \`area_id\`. It writes the area's elements
with their styles, \`:hover\`/\`:focus\` rules, fonts and images (content-hash files) and a standalone
clone (\`area-N-structure.html\` + \`area-N-styles.css\`, renders offline) under
\`uiux-references/page-element-references/\`, and a screenshot; it answers with paths and counts only.
Read \`summarized-uiux-reference.md\` there first, then the clone.

## Other tools

- \`inject_script\` — run a local \`.js\` file (absolute \`file_path\`) in a tab and get its
  completion value (promises awaited). The file is read by the server and never echoed.
- \`bridge_status\` — which browsers and hosts are connected, whether user scripts are allowed,
  the workspace and the log files, with what to do about anything broken.

## Resources

- \`xipe://ideas\` — the idea folders of this workspace (name, has_references, session_count).
- \`xipe://ideas/{idea}/reference-data\` — an idea's merged \`reference-data.json\`
  (the idea name percent-encoded, e.g. \`xipe://ideas/018.%20Feature-UIUX%20Reference/reference-data\`).
- \`xipe://ideas/{idea}/referenced-elements\` — an idea's deep captures (\`referenced-elements.json\` 3.0).

## When something fails

Errors are instructions: every failure is \`{"error", "message", "details", "tool_name"}\` and
the message says what to call or change next. \`BACKEND_UNREACHABLE\` or
\`EXTENSION_NOT_CONNECTED\` (never for saves, which need no browser): the browser with the
extension is not running or not connected —
call \`bridge_status\`, and ask the user to run \`x-ipe-uiux start\` or \`x-ipe-uiux doctor\`.
\`TIMEOUT\`: the call took longer than its limit; retry, or pass a larger \`timeout_ms\` where the
tool has one.
`;
