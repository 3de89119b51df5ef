/**
 * The agent plugin's skill (skills/x-ipe-uiux-reference/SKILL.md, read by Claude Code and Copilot
 * CLI): the xipe://guide text under the frontmatter those clients use to decide when to load it.
 */
export const SKILL_NAME = 'x-ipe-uiux-reference';

export const SKILL_DESCRIPTION =
  "Use when collecting UI/UX references from the user's browser: picking elements, areas and colours with " +
  'the designer in the X-IPE toolbar, screenshots to files, running a local script in a tab, or saving ' +
  'reference data into x-ipe-docs/ideas/<idea>/uiux-references/ (MCP server x-ipe-app-and-agent-interaction).';

export function skillMarkdown(guide: string): string {
  return `---\nname: ${SKILL_NAME}\ndescription: ${JSON.stringify(SKILL_DESCRIPTION)}\n---\n\n${guide}`;
}
