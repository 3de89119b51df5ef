import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/fake-extension.js';

// `x-ipe-uiux mcp` over stdio as a client nobody here wrote would drive it: raw JSON-RPC lines,
// including the malformed ones, and a stock SDK client for how error texts arrive.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-proto-'));
  dirs.push(dir);
  return dir;
}

/** Writes the lines, closes stdin, and returns every stdout line parsed (the server exits). */
function exchange(lines: readonly string[]): Promise<unknown[]> {
  const dir = home();
  const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--workspace', dir], {
    env: { ...process.env, XIPE_UIUX_HOME: dir },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stdin.end(`${lines.join('\n')}\n`);
  return new Promise((resolve, reject) =>
    child.once('close', () => {
      try {
        resolve(
          out
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as unknown),
        );
      } catch (err) {
        reject(new Error(`stdout is not JSON lines: ${(err as Error).message}\n${out}`));
      }
    }),
  );
}

const initialize = (protocolVersion = '2025-06-18') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });

const byId = (messages: unknown[], id: unknown) =>
  messages.find((m) => !Array.isArray(m) && (m as { id?: unknown }).id === id) as
    | { result?: unknown; error?: { code: number; message: string } }
    | undefined;

describe('x-ipe-uiux mcp speaks JSON-RPC as the spec says, to raw clients', () => {
  it('answers every request, with the code the spec names for each mistake', async () => {
    const messages = await exchange([
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      initialize(),
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}',
      '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"xipe://nothing"}}',
      '{"jsonrpc":"2.0","id":5}',
      '{"jsonrpc":"2.0","id":6,"method":',
      '[{"jsonrpc":"2.0","id":7,"method":"ping"}]',
      '{"jsonrpc":"2.0","id":8,"method":"logging/setLevel","params":{"level":"error"}}',
      '{"jsonrpc":"2.0","id":9,"method":"ping"}',
    ]);
    expect(byId(messages, 1)?.error?.code).toBe(-32600); // before initialize
    expect(byId(messages, 'init')?.result).toMatchObject({ capabilities: { logging: {} } });
    expect(byId(messages, 2)?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown tool/),
    });
    expect(byId(messages, 3)?.error).toEqual({
      code: -32602,
      message: 'Invalid tools/call request: params.name: Invalid input: expected string, received undefined',
    });
    expect(byId(messages, 4)?.error?.code).toBe(-32002);
    expect(byId(messages, 5)?.error?.code).toBe(-32600);
    expect(byId(messages, null)?.error?.code).toBe(-32700);
    expect(messages.find(Array.isArray)).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
    expect(byId(messages, 8)?.result).toEqual({});
    expect(byId(messages, 9)?.result).toEqual({});
    for (const m of messages) expect(JSON.stringify(m)).not.toContain('MCP error');
  });

  it('answers everything asked even when the client closes stdin right after asking', async () => {
    for (let i = 0; i < 5; i += 1) {
      const messages = await exchange([
        initialize(),
        '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"xipe://guide"}}',
        '{"jsonrpc":"2.0","id":3,"method":"prompts/list"}',
      ]);
      expect(messages.map((m) => (m as { id: unknown }).id)).toEqual(['init', 1, 2, 3]);
    }
  });

  it('serves a 2025-03-26 batch with one array answer', async () => {
    const messages = await exchange([
      initialize('2025-03-26'),
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"prompts/list"}]',
    ]);
    const batch = messages.find(Array.isArray) as Array<{ id: number; result: unknown }>;
    expect(batch.map((m) => m.id).sort()).toEqual([1, 2]);
    expect(batch.find((m) => m.id === 2)?.result).toMatchObject({
      prompts: [
        expect.objectContaining({ name: 'collect_uiux_references' }),
        expect.objectContaining({ name: 'rebuild_and_verify' }),
      ],
    });
  });

  it('gives a stock SDK client errors with their prefix once', async () => {
    const dir = home();
    const client = new Client({ name: 'sdk', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_BIN, 'mcp', '--workspace', dir],
        env: { ...(process.env as Record<string, string>), XIPE_UIUX_HOME: dir },
        stderr: 'ignore',
      }),
    );
    try {
      const error = await client
        .readResource({ uri: 'xipe://ideas/nope/reference-data' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32002);
      expect((error as McpError).message).toMatch(/^MCP error -32002: Idea folder not found: nope/);
      const unknown = await client.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
      expect((unknown as McpError).message).toMatch(/^MCP error -32602: Unknown tool: nope\./);
    } finally {
      await client.close();
    }
  });
});
