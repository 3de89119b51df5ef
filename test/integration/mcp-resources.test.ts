import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN, FakeExtension } from '../helpers/fake-extension.js';
import { IDEA, makeWorkspace, referenceData, type TempWorkspace } from '../helpers/store-fixtures.js';

// Resources, the audit log and tool time limits of the real `x-ipe-uiux mcp` process over stdio,
// in front of nothing or of the real `x-ipe-uiux host` (extension side faked).

const SCRIPT_SECRET = 'AUDIT-SCRIPT-BODY-SECRET-5d1e';
const COMMENT_SECRET = 'AUDIT-DESIGNER-COMMENT-SECRET-a93f';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(): { home: string; ws: TempWorkspace } {
  const ws = makeWorkspace([IDEA, '019. Empty']);
  const home = path.join(ws.root, 'home');
  fs.mkdirSync(home);
  cleanups.push(() => ws.cleanup());
  return { home, ws };
}

async function startMcp(home: string, workspace: string, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', '--workspace', workspace],
    env: { ...(process.env as Record<string, string>), XIPE_UIUX_HOME: home, ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-resources-test', version: '0' });
  await client.connect(transport);
  cleanups.push(() => client.close().catch(() => undefined));
  return client;
}

async function startHost(home: string): Promise<FakeExtension> {
  const ext = await FakeExtension.start({ home });
  cleanups.push(() => ext.dispose());
  await ext.descriptor();
  return ext;
}

const textOf = (result: Awaited<ReturnType<Client['readResource']>>): string => {
  const first = result.contents[0];
  return first !== undefined && 'text' in first ? first.text : '';
};

describe('MCP resources of the real server', () => {
  it('lists and reads the ideas, an idea’s reference data and the guide; a missing one is a clear error', async () => {
    const { home, ws } = setup();
    const merged = { version: '1.0', idea_folder: IDEA, colors: [{ id: 'color-001' }] };
    fs.mkdirSync(ws.refsDir(), { recursive: true });
    fs.writeFileSync(path.join(ws.refsDir(), 'reference-data.json'), JSON.stringify(merged));
    const client = await startMcp(home, ws.workspace);

    const { resources } = await client.listResources();
    const dataUri = `xipe://ideas/${encodeURIComponent(IDEA)}/reference-data`;
    expect(resources.map((r) => r.uri)).toEqual(['xipe://ideas', 'xipe://guide', dataUri]);

    const ideas = JSON.parse(textOf(await client.readResource({ uri: 'xipe://ideas' })));
    expect(ideas).toMatchObject({
      workspace: ws.workspace,
      ideas: [
        { name: IDEA, has_references: true, session_count: 0, reference_data: dataUri },
        { name: '019. Empty', has_references: false, session_count: 0, reference_data: null },
      ],
    });
    expect(JSON.parse(textOf(await client.readResource({ uri: dataUri })))).toEqual(merged);
    expect(textOf(await client.readResource({ uri: 'xipe://guide' }))).toMatch(
      /inject_toolbar[\s\S]*wait_for_captures[\s\S]*save_uiux_reference/,
    );

    const missing = await client
      .readResource({ uri: 'xipe://ideas/404.%20Gone/reference-data' })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(McpError);
    expect(missing).toMatchObject({ code: -32002, data: { error: 'IDEA_NOT_FOUND' } });
    const traversal = await client
      .readResource({ uri: 'xipe://ideas/..%2F..%2F..%2Fhome/reference-data' })
      .catch((e: unknown) => e);
    expect(traversal).toMatchObject({ data: { error: 'VALIDATION_ERROR' } });
  });

  it('sends resources/list_changed when an idea folder is added, and lists it', async () => {
    const { home, ws } = setup();
    const client = await startMcp(home, ws.workspace);
    let notified = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      notified += 1;
    });
    // The watcher arms right after start; make sure it has looked before changing anything.
    await client.readResource({ uri: 'xipe://ideas' });
    fs.mkdirSync(path.join(ws.ideasDir, '020. Added Later'));
    await expect.poll(() => notified, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const ideas = JSON.parse(textOf(await client.readResource({ uri: 'xipe://ideas' })));
    expect(ideas.ideas.map((i: { name: string }) => i.name)).toContain('020. Added Later');
  });
});

describe('audit log and time limits of the real server', () => {
  it('audits every call in <home>/logs/audit.log without script bodies, paths or reference data', async () => {
    const { home, ws } = setup();
    await startHost(home);
    const script = path.join(ws.root, 'probe.js');
    fs.writeFileSync(script, `/* ${SCRIPT_SECRET} */ 1;\n`);
    const client = await startMcp(home, ws.workspace);

    const data = referenceData();
    const [element] = data.elements as Array<Record<string, unknown>>;
    data.elements = [{ ...element, comment: COMMENT_SECRET }];
    const saved = await client.callTool({ name: 'save_uiux_reference', arguments: data }, undefined, {
      timeout: 60_000,
    });
    expect(saved.isError).toBeFalsy();
    // The fake extension never answers inject_script: a TIMEOUT after its own timeout_ms.
    const injected = await client.callTool({
      name: 'inject_script',
      arguments: { file_path: script, url_contains: 'example.test', timeout_ms: 500 },
    });
    expect(injected.structuredContent).toMatchObject({ error: 'TIMEOUT' });
    await client.callTool({ name: 'inject_script', arguments: { file_path: 7, code: SCRIPT_SECRET } });

    const file = path.join(home, 'logs', 'audit.log');
    await expect
      .poll(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8').split('\n').length > 3)
      .toBe(true);
    const raw = fs.readFileSync(file, 'utf8');
    for (const secret of [SCRIPT_SECRET, COMMENT_SECRET, script, 'sticky header', '#1a73e8']) {
      expect(raw).not.toContain(secret);
    }
    const entries = raw
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toEqual([
      expect.objectContaining({ tool: 'save_uiux_reference', target: { idea_folder: IDEA }, outcome: 'ok' }),
      expect.objectContaining({
        tool: 'inject_script',
        target: { url_contains: 'example.test' },
        outcome: 'error',
        error_code: 'TIMEOUT',
      }),
      expect.objectContaining({ tool: 'inject_script', target: {}, error_code: 'VALIDATION_ERROR' }),
    ]);
    for (const entry of entries) {
      expect(entry).toEqual(
        expect.objectContaining({ time: expect.any(String), duration_ms: expect.any(Number) }),
      );
    }
    const mcpLog = fs.readFileSync(path.join(home, 'logs', 'mcp.log'), 'utf8');
    expect(mcpLog).not.toContain(SCRIPT_SECRET);
    expect(mcpLog).not.toContain(COMMENT_SECRET);
  });

  it('leaves every call in the audit log when the agent stops the server right after a burst', async () => {
    const { home, ws } = setup();
    await startHost(home);
    const client = await startMcp(home, ws.workspace);
    for (let i = 0; i < 5; i += 1) await client.callTool({ name: 'bridge_status', arguments: {} });
    await client.close(); // ends stdin and waits for the process to close, as agents do
    const entries = fs
      .readFileSync(path.join(home, 'logs', 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toEqual(Array(5).fill(expect.objectContaining({ tool: 'bridge_status', outcome: 'ok' })));
    const mcpLog = fs.readFileSync(path.join(home, 'logs', 'mcp.log'), 'utf8');
    expect(mcpLog.split('\n').filter((l) => l.includes('"tool call"'))).toHaveLength(5);
  });

  it('answers TIMEOUT instead of hanging when a tool outlives XIPE_UIUX_TOOL_TIMEOUT_MS', async () => {
    const { home, ws } = setup();
    await startHost(home); // answers host_status itself; list_tabs is never answered by the fake extension
    const client = await startMcp(home, ws.workspace, { XIPE_UIUX_TOOL_TIMEOUT_MS: '1000' });
    const result = await client.callTool({ name: 'list_tabs', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: 'TIMEOUT',
      tool_name: 'list_tabs',
      details: { timeout_ms: 1000 },
    });
    expect(JSON.stringify(result.structuredContent)).toMatch(/bridge_status/);
    // The server is still usable afterwards.
    const status = await client.callTool({ name: 'bridge_status', arguments: {} });
    expect(status.isError).toBeFalsy();
  });
});
