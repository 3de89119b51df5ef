import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

/** No browser, no host: the MCP server answers at once with BACKEND_UNREACHABLE, never a hang. */
describe('inject_script with no host running', () => {
  let root: string;
  let mcp: McpSession;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'xe2e-nohost-'));
    fs.mkdirSync(path.join(root, 'ws', 'x-ipe-docs', 'ideas'), { recursive: true });
    const env = { ...process.env, XIPE_UIUX_HOME: path.join(root, 'home'), HOME: root };
    mcp = await McpSession.start({ env, workspace: path.join(root, 'ws') });
  });
  afterAll(async () => {
    await mcp?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('gives BACKEND_UNREACHABLE saying where it looked and how to fix it', async () => {
    const file = writeScript(root, 'a.js', '1');
    const { isError, body } = await mcp.call('inject_script', { file_path: file });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'BACKEND_UNREACHABLE', tool_name: 'inject_script' });
    expect(body.message).toContain(path.join(root, 'home'));
  });
});
