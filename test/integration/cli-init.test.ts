import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MCP_NODE_FLAGS } from '../../cli/src/node-flags.js';
import { CLI_BIN, REPO_ROOT } from '../helpers/fake-extension.js';

const NAME = 'x-ipe-app-and-agent-interaction';
let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xci-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function init(...args: string[]) {
  return spawnSync(process.execPath, [CLI_BIN, 'init', ...args], {
    env: {
      ...process.env,
      HOME: path.join(tmp, 'user'),
      COPILOT_HOME: path.join(tmp, 'copilot'),
      XIPE_UIUX_HOME: '',
    },
    cwd: tmp,
    encoding: 'utf8',
  });
}

it('init --client all registers the server with the real node and entry paths', () => {
  const r = init('--client', 'all', '--workspace', tmp);
  expect(r.status, r.stderr).toBe(0);
  const claude = JSON.parse(fs.readFileSync(path.join(tmp, '.mcp.json'), 'utf8'));
  expect(claude.mcpServers[NAME]).toEqual({
    command: process.execPath,
    args: [...MCP_NODE_FLAGS, path.join(REPO_ROOT, 'bin', 'x-ipe-uiux.js'), 'mcp', '--workspace', tmp],
  });
  expect(
    JSON.parse(fs.readFileSync(path.join(tmp, 'copilot', 'mcp-config.json'), 'utf8')).mcpServers[NAME].type,
  ).toBe('local');
  expect(JSON.parse(fs.readFileSync(path.join(tmp, 'opencode.json'), 'utf8')).mcp[NAME].enabled).toBe(true);
  expect(r.stdout).toContain('claude: created');
  expect(init('--client', 'all', '--workspace', tmp).stdout).toContain('claude: unchanged');
});

it('the command init writes starts a server that answers', async () => {
  expect(init('--client', 'claude', '--workspace', tmp).status).toBe(0);
  const { command, args } = JSON.parse(fs.readFileSync(path.join(tmp, '.mcp.json'), 'utf8')).mcpServers[NAME];
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...process.env, XIPE_UIUX_HOME: path.join(tmp, 'xipe-home') },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'cli-init-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    expect(client.getServerVersion()?.name).toBe(NAME);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
});

it('init refuses an unparsable config, exits non-zero and leaves it as it was', () => {
  fs.writeFileSync(path.join(tmp, '.mcp.json'), '{ "mcpServers": ');
  const r = init('--client', 'claude', '--workspace', tmp);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('refused');
  expect(r.stderr).toContain('.mcp.json');
  expect(fs.readFileSync(path.join(tmp, '.mcp.json'), 'utf8')).toBe('{ "mcpServers": ');
});

it('init rejects an unknown client', () => {
  const r = init('--client', 'vim');
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('--client must be one of claude, copilot, opencode');
});

it('init without --client and without a terminal writes the project-level clients only and says what it skipped', () => {
  const r = init('--workspace', tmp);
  expect(r.status, r.stderr).toBe(0);
  expect(fs.existsSync(path.join(tmp, '.mcp.json'))).toBe(true);
  expect(fs.existsSync(path.join(tmp, 'opencode.json'))).toBe(true);
  // The user-level Copilot config (read in every project) is not touched behind the user's back.
  expect(fs.existsSync(path.join(tmp, 'copilot', 'mcp-config.json'))).toBe(false);
  expect(r.stdout).toContain(
    `copilot: skipped (its config ${path.join(tmp, 'copilot', 'mcp-config.json')} is user-level); run \`x-ipe-uiux init --client copilot\` to add it`,
  );
});
