#!/usr/bin/env node
// Writes skills/x-ipe-uiux-reference/SKILL.md (the agent plugin's skill, see .claude-plugin/) from the
// guide the MCP server serves as xipe://guide, so the two never drift: run after `npm run build`
// when the guide changes (test/integration/agent-plugin.test.ts fails until then).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { AGENT_GUIDE_MARKDOWN } = await import('../dist/node/mcp/src/resources/guide.js');
const { skillMarkdown } = await import('../dist/node/mcp/src/resources/skill.js');
const file = path.join(root, 'skills', 'x-ipe-uiux-reference', 'SKILL.md');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, skillMarkdown(AGENT_GUIDE_MARKDOWN));
process.stdout.write(`wrote ${path.relative(root, file)}\n`);
