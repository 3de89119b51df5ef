import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCP_SERVER_NAME } from '#shared/constants.js';
import { AGENT_GUIDE_MARKDOWN } from '../../mcp/src/resources/guide.js';
import { SKILL_NAME, skillMarkdown } from '../../mcp/src/resources/skill.js';
import { REPO_ROOT } from '../helpers/fake-extension.js';

// The agent plugin (.claude-plugin/, read by Claude Code and by Copilot CLI): one install gives the
// agent the MCP server and the workflow skill.

const read = (...parts: string[]) => fs.readFileSync(path.join(REPO_ROOT, ...parts), 'utf8');
const pkg = JSON.parse(read('package.json')) as { name: string; version: string };

describe('the agent plugin', () => {
  it('declares the MCP server, started from the published package of this very version', () => {
    const plugin = JSON.parse(read('.claude-plugin', 'plugin.json')) as {
      name: string;
      version: string;
      mcpServers: Record<string, { type: string; command: string; args: string[] }>;
    };
    expect(plugin.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(plugin.version).toBe(pkg.version);
    expect(Object.keys(plugin.mcpServers)).toEqual([MCP_SERVER_NAME]);
    expect(plugin.mcpServers[MCP_SERVER_NAME]).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', `${pkg.name}@${pkg.version}`, 'mcp'],
    });
  });

  it('is listed by the repository’s marketplace', () => {
    const marketplace = JSON.parse(read('.claude-plugin', 'marketplace.json')) as {
      name: string;
      owner: { name: string };
      plugins: Array<{ name: string; source: string }>;
    };
    expect(marketplace.owner.name).not.toBe('');
    expect(marketplace.plugins).toEqual([expect.objectContaining({ name: pkg.name, source: './' })]);
  });

  it('ships the guide the server serves as xipe://guide as its skill (run scripts/write-skill.mjs)', () => {
    const skill = read('skills', SKILL_NAME, 'SKILL.md');
    expect(skill).toBe(skillMarkdown(AGENT_GUIDE_MARKDOWN));
    expect(skill).toMatch(/^---\nname: x-ipe-uiux-reference\ndescription: ".{40,1024}"\n---\n/);
  });
});
