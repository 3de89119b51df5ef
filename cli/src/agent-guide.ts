import { MCP_SERVER_NAME } from '#shared/constants.js';

/**
 * The short guide `init` puts where each agent reads project instructions (CLAUDE.md, AGENTS.md,
 * .github/copilot-instructions.md), between markers so re-running init replaces it in place.
 */
export const GUIDE_BEGIN =
  '<!-- x-ipe-uiux:begin (written by `x-ipe-uiux init`; re-running init replaces this section) -->';
export const GUIDE_END = '<!-- x-ipe-uiux:end -->';

export const AGENT_GUIDE = `${GUIDE_BEGIN}
## UI/UX references from the browser (MCP server \`${MCP_SERVER_NAME}\`)

The user's own Chrome/Chromium is reachable through this MCP server (extension + native host).
Script and image bytes never pass through your context: you give file paths, you get file paths.

Collecting references with the designer (toolbar workflow):
1. \`inject_toolbar\` — open the X-IPE toolbar in the user's tab (target with \`url_contains\`,
   \`tab_id\` or \`page_index\` from \`list_tabs\`; default: the active tab).
2. \`wait_for_captures\` — long-poll until the designer has picked elements/colours or saved;
   returns what was captured (each call drains it).
3. \`save_uiux_reference\` — save the data into \`x-ipe-docs/ideas/<idea_folder>/uiux-references/\`
   (\`idea_folder\` must already exist; sessions are append-only, \`reference-data.json\` is the merged view).
   Needs no browser; without MCP, \`x-ipe-uiux save --data-file F\` does the same.

Other tools:
- \`inject_script\` — run a local .js file (absolute \`file_path\`) in the page, get its completion value.
- \`capture_screenshot\` — screenshot a tab to a file (path returned, no base64 unless asked).
- \`capture_area\` — deep-capture an area (\`selector\` or page \`rect\`) into an idea: elements, styles,
  states, fonts and images as files, and an offline HTML+CSS clone; read
  \`page-element-references/summarized-uiux-reference.md\`, then open the clone to rebuild it.
- \`list_tabs\` — tabs of every connected browser, in \`page_index\` order.
- \`bridge_status\` — which browsers/hosts are connected and whether user scripts are allowed.

When a tool says the extension is not connected or the backend is unreachable, run
\`x-ipe-uiux doctor\` and follow its fix lines; \`x-ipe-uiux start\` opens a ready browser.
${GUIDE_END}
`;

/** Puts the guide into a Markdown file's text: replaces the marked section, or appends it. */
export function withGuide(existing: string | null): string {
  if (existing === null || existing.trim() === '') return AGENT_GUIDE;
  const begin = existing.indexOf(GUIDE_BEGIN);
  const end = begin === -1 ? -1 : existing.indexOf(GUIDE_END, begin);
  if (begin !== -1 && end !== -1) {
    const after = existing.slice(end + GUIDE_END.length).replace(/^\r?\n/, '');
    return `${existing.slice(0, begin)}${AGENT_GUIDE}${after}`;
  }
  const separator = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return `${existing}${separator}${AGENT_GUIDE}`;
}
