import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InjectScriptParams, ListTabsResult } from '#shared/commands/index.js';
import { XipeError } from '#shared/errors.js';
import { runtimeDir, tokenPath } from '#shared/node/paths.js';
import { CLI_BIN, DEFAULT_EXTENSION_INFO, FakeExtension } from '../helpers/fake-extension.js';

// `x-ipe-uiux mcp` as a real process, driven by the SDK client over stdio, in front of the real
// `x-ipe-uiux host` (whose extension side is played by FakeExtension), or in front of nothing.

const SECRET = 'SECRET-SCRIPT-BODY-7f3a';
let scratch: string;
let script: string;
const hosts: FakeExtension[] = [];
const clients: Client[] = [];

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-mcp-'));
  script = path.join(scratch, 'probe.js');
  fs.writeFileSync(script, `/* ${SECRET} */ document.title;\n`);
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const ext of hosts.splice(0)) {
    await ext.dispose();
    expect(ext.stdoutProblems).toEqual([]);
  }
});

function freshHome(): string {
  return fs.mkdtempSync(path.join(scratch, 'h-'));
}

async function startHost(
  home: string,
  options: Parameters<typeof FakeExtension.start>[0] = {},
): Promise<FakeExtension> {
  const ext = await FakeExtension.start({ home, ...options });
  hosts.push(ext);
  await ext.descriptor();
  return ext;
}

async function startMcp(home: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', '--workspace', scratch],
    env: { ...(process.env as Record<string, string>), XIPE_UIUX_HOME: home },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => {}); // logs: drained, never interleaved with JSON-RPC
  const client = new Client({ name: 'mcp-integration', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text?: string }>)[0]?.text ?? 'null';
  expect(text).not.toContain(SECRET);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(result.structuredContent).toEqual(body);
  return { isError: result.isError === true, body };
}

const TAB = { id: 41, url: 'https://example.test/page', title: 'Example' };
const TABS: ListTabsResult = {
  browser: DEFAULT_EXTENSION_INFO.browser,
  tabs: [
    {
      id: 42,
      window_id: 2,
      index: 0,
      url: 'https://example.test/other',
      title: 'Other',
      active: true,
      focused_window: false,
    },
    { ...TAB, window_id: 1, index: 0, active: true, focused_window: true },
  ],
};

/** The fake extension's inject_script: records what it got, answers like the real one. */
function injector(received: InjectScriptParams[]) {
  return (params: unknown) => {
    const p = params as InjectScriptParams;
    received.push(p);
    const tab = TABS.tabs.find((t) => t.id === p.target.tab_id) ?? TAB;
    return {
      returnValue: { ran: true, tab: tab.id },
      tab: { id: tab.id, url: tab.url, title: tab.title },
      method: 'userScripts',
    };
  };
}

describe('x-ipe-uiux mcp without any host', () => {
  it('bridge_status works and says no host was found, with the fix', async () => {
    const home = freshHome();
    const client = await startMcp(home);
    const { isError, body } = await call(client, 'bridge_status', {});
    expect(isError).toBe(false);
    expect(body).toMatchObject({
      hosts: [],
      home,
      runtime_dir: runtimeDir(home),
      workspace: { path: scratch },
    });
    expect(body.summary).toMatch(/No browser is connected/);
    expect((body.next_steps as string[]).join(' ')).toMatch(/x-ipe-uiux start/);
  });

  it('inject_script answers BACKEND_UNREACHABLE naming the runtime dir; FILE_NOT_FOUND for a missing file', async () => {
    const home = freshHome();
    const client = await startMcp(home);
    const unreachable = await call(client, 'inject_script', { file_path: script });
    expect(unreachable.isError).toBe(true);
    expect(unreachable.body).toMatchObject({ error: 'BACKEND_UNREACHABLE', tool_name: 'inject_script' });
    expect(unreachable.body.message).toContain(runtimeDir(home));
    const missing = path.join(scratch, 'nope.js');
    const notFound = await call(client, 'inject_script', { file_path: missing });
    expect(notFound.body).toMatchObject({ error: 'FILE_NOT_FOUND', details: { file_path: missing } });
    const invalid = await call(client, 'inject_script', { file_path: 'probe.js' });
    expect(invalid.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(invalid.body.message).toMatch(/file_path/);
  });
});

describe('x-ipe-uiux mcp in front of a real host', () => {
  it('relays list_tabs and inject_script end to end (page_index, tab_id, url_contains)', async () => {
    const home = freshHome();
    const received: InjectScriptParams[] = [];
    await startHost(home, { handlers: { list_tabs: () => TABS, inject_script: injector(received) } });
    const client = await startMcp(home);

    const listed = await call(client, 'list_tabs', {});
    expect(listed.body.tabs).toEqual([
      {
        page_index: 0,
        browser_id: 'chromium-fake',
        browser: 'Chromium',
        profile: 'fake',
        window_id: 1,
        tab_id: 41,
        index: 0,
        url: TAB.url,
        title: TAB.title,
        active: true,
      },
      {
        page_index: 1,
        browser_id: 'chromium-fake',
        browser: 'Chromium',
        profile: 'fake',
        window_id: 2,
        tab_id: 42,
        index: 0,
        url: 'https://example.test/other',
        title: 'Other',
        active: true,
      },
    ]);

    const injected = await call(client, 'inject_script', {
      file_path: script,
      tab_id: 41,
      world: 'isolated',
      cleanup_before: true,
    });
    expect(injected.body).toEqual({
      status: 'success',
      success: true,
      returnValue: { ran: true, tab: 41 },
      tab: TAB,
      method: 'userScripts',
      bytes: fs.statSync(script).size,
      elapsed_ms: expect.any(Number),
    });
    const code = fs.readFileSync(script, 'utf8');
    const codeSha256 = createHash('sha256').update(code, 'utf8').digest('hex');
    expect(received[0]).toEqual({
      code,
      code_sha256: codeSha256,
      world: 'isolated',
      cleanup_before: true,
      target: { tab_id: 41 },
      timeout_ms: 30_000,
    });

    const byIndex = await call(client, 'inject_script', { file_path: script, page_index: 1 });
    expect(byIndex.body).toMatchObject({ success: true, tab: { id: 42 } });
    expect(received[1]?.target).toEqual({ tab_id: 42 });
    // The same script again goes to that browser by its hash only (the extension kept it).
    expect(received[1]).toMatchObject({ code_sha256: codeSha256 });
    expect(received[1]?.code).toBeUndefined();

    await call(client, 'inject_script', { file_path: script, url_contains: 'example.test/page' });
    expect(received[2]?.target).toEqual({ url_contains: 'example.test/page' });
  });

  it('passes the extension’s errors on, and EXTENSION_NOT_CONNECTED when no extension is attached', async () => {
    const home = freshHome();
    const ext = await startHost(home, {
      handlers: {
        inject_script: () => {
          throw new XipeError('SCRIPT_ERROR', 'ReferenceError: nope is not defined (probe.js:1:5)', {
            line: 1,
          });
        },
      },
    });
    const client = await startMcp(home);
    const failed = await call(client, 'inject_script', { file_path: script });
    expect(failed.body).toEqual({
      error: 'SCRIPT_ERROR',
      message: 'ReferenceError: nope is not defined (probe.js:1:5)',
      details: { line: 1 },
      tool_name: 'inject_script',
    });

    const bare = await startHost(freshHome(), { hello: false });
    const lonely = await startMcp(bare.home);
    const notConnected = await call(lonely, 'inject_script', { file_path: script });
    expect(notConnected.body).toMatchObject({ error: 'EXTENSION_NOT_CONNECTED' });
    expect(notConnected.body.message).toMatch(/x-ipe-uiux/);
    const status = await call(lonely, 'bridge_status', {});
    expect(status.body.summary).toMatch(/no extension is connected/);
    expect(ext.hasExited).toBe(false);
  });

  it('reports a wrong token as UNAUTHORIZED', async () => {
    const home = freshHome();
    await startHost(home, { handlers: { list_tabs: () => TABS } });
    fs.writeFileSync(tokenPath(home), 'not-the-token-the-host-knows\n');
    const client = await startMcp(home);
    const { body } = await call(client, 'list_tabs', {});
    expect(body).toMatchObject({ error: 'UNAUTHORIZED', tool_name: 'list_tabs' });
    const status = await call(client, 'bridge_status', {});
    expect(status.body.hosts).toEqual([
      expect.objectContaining({ reachable: false, error: expect.objectContaining({ code: 'UNAUTHORIZED' }) }),
    ]);
  });

  it('keeps working when the host is killed and another one starts, without restarting the MCP server', async () => {
    const home = freshHome();
    const received: InjectScriptParams[] = [];
    const first = await startHost(home, { handlers: { inject_script: injector(received) } });
    const client = await startMcp(home);
    expect((await call(client, 'inject_script', { file_path: script, tab_id: 41 })).body).toMatchObject({
      success: true,
    });

    first.child.kill('SIGKILL'); // no cleanup: its descriptor stays behind, stale
    await first.exited;
    const second = await startHost(home, { handlers: { inject_script: injector(received) } });
    expect(second.pid).not.toBe(first.pid);
    expect((await call(client, 'inject_script', { file_path: script, tab_id: 41 })).body).toMatchObject({
      success: true,
    });
    expect(received).toHaveLength(2);

    await second.close(); // graceful this time
    const third = await startHost(home, { handlers: { inject_script: injector(received) } });
    expect((await call(client, 'inject_script', { file_path: script, tab_id: 41 })).body).toMatchObject({
      success: true,
    });
    expect(received).toHaveLength(3);
    const status = await call(client, 'bridge_status', {});
    expect(status.body.hosts).toEqual([expect.objectContaining({ pid: third.pid, reachable: true })]);
  });

  it('writes nothing but JSON-RPC 2.0 lines to stdout, and exits 0 when stdin closes', async () => {
    const home = freshHome();
    await startHost(home, { handlers: { list_tabs: () => TABS, inject_script: injector([]) } });
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--workspace', scratch], {
      env: { ...process.env, XIPE_UIUX_HOME: home, XIPE_UIUX_LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '0' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'bridge_status', arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_tabs', arguments: {} } },
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'inject_script', arguments: { file_path: script } },
      },
      {
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'inject_script', arguments: { file_path: 42 } },
      },
    ];
    for (const request of requests) child.stdin.write(`${JSON.stringify(request)}\n`);
    await expect
      .poll(() => stdout.split('\n').filter((l) => l.includes('"id":6')).length, { timeout: 20_000 })
      .toBe(1);
    child.stdin.end();
    expect(await exited).toBe(0);

    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBe(6); // one response per request with an id
    for (const line of lines) {
      const message = JSON.parse(line) as { jsonrpc?: unknown };
      expect(message.jsonrpc).toBe('2.0');
    }
    expect(stdout).not.toContain(SECRET);
    expect(stderr).toContain('"component":"mcp"'); // the logs went to stderr
    expect(stderr).not.toContain(SECRET);
  });
});
