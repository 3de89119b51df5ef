/**
 * The browser's host and the agent's MCP server may see different environments (SSH, sudo, CI):
 * the host chooses the runtime dir from its own (`$XDG_RUNTIME_DIR` first) and records it in the
 * home, so an MCP server started without `$XDG_RUNTIME_DIR` (or with another one) still finds it.
 * Real host and MCP processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListTabsResult } from '#shared/commands/index.js';
import { runtimeDirCandidates, runtimeDirRecordPath } from '#shared/node/paths.js';
import { DEFAULT_EXTENSION_INFO, FakeExtension } from '../helpers/fake-extension.js';
import { McpProcess } from '../helpers/fault-mcp.js';

const TABS: ListTabsResult = {
  browser: DEFAULT_EXTENSION_INFO.browser,
  tabs: [
    { id: 7, window_id: 1, index: 0, url: 'https://a.test/', title: 'A', active: true, focused_window: true },
  ],
};

const made: string[] = [];
const hosts: FakeExtension[] = [];
const servers: McpProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const host of hosts.splice(0)) await host.dispose();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const temp = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};

describe('the runtime dir record', () => {
  it("an MCP server without the browser's $XDG_RUNTIME_DIR finds the host through the record in the home", async () => {
    const home = temp('xipe-rec-h-');
    const xdg = temp('xipe-rec-xdg-');
    fs.chmodSync(xdg, 0o700);
    const ext = await FakeExtension.start({
      home,
      env: { XDG_RUNTIME_DIR: xdg },
      handlers: { list_tabs: () => TABS },
    });
    hosts.push(ext);
    const { endpoint } = await ext.descriptor();
    const chosen = runtimeDirCandidates(home, { XDG_RUNTIME_DIR: xdg })[0] ?? '';
    expect(path.dirname(chosen)).toBe(xdg);
    expect(path.dirname(endpoint)).toBe(chosen);
    expect(JSON.parse(fs.readFileSync(runtimeDirRecordPath(home), 'utf8'))).toEqual({ dir: chosen });

    for (const env of [{ XDG_RUNTIME_DIR: '' }, { XDG_RUNTIME_DIR: temp('xipe-rec-other-') }]) {
      const mcp = await McpProcess.start({ home, workspace: home, env });
      servers.push(mcp);
      const tabs = await mcp.call('list_tabs', {});
      expect(tabs.isError, JSON.stringify(tabs.body)).toBe(false);
      expect(JSON.stringify(tabs.body)).toContain('https://a.test/');
      const status = await mcp.call('bridge_status', {});
      expect(status.body).toMatchObject({ runtime_dir: chosen, runtime_dir_refused: null });
    }
  });
});
