import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMMANDS } from '#shared/commands/index.js';
import { MCP_SERVER_NAME } from '#shared/constants.js';
import { XipeError } from '#shared/errors.js';
import { FakeBridge, hostInfo, silentLogger } from '../test-support/fake-bridge.js';
import { createServer } from './server.js';
import { toolInputJsonSchema } from './tools/call/tool-json-schema.js';
import { defineTool } from './tools/define-tool.js';
import { TOOL_COMMANDS, TOOLS } from './tools/registry.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connect(tools = TOOLS, bridge = new FakeBridge([])) {
  const server = createServer({ bridge, workspace: '/ws', logger: silentLogger(), tools });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

describe('tool registry conventions', () => {
  it('registers every tool file of mcp/src/tools', async () => {
    const files = fs
      .readdirSync(path.join(here, 'tools'))
      .filter(
        (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'define-tool.ts' && f !== 'registry.ts',
      );
    const fileToolNames = files.map((f) => f.replace(/\.ts$/, '').replaceAll('-', '_')).sort();
    expect(TOOLS.map((t) => t.name).sort()).toEqual(fileToolNames);
  });

  it('names the bridge command of every tool, in registry order, from the commands that exist', () => {
    expect(Object.keys(TOOL_COMMANDS)).toEqual(TOOLS.map((t) => t.name));
    for (const command of Object.values(TOOL_COMMANDS)) expect(Object.hasOwn(COMMANDS, command)).toBe(true);
  });

  it('has a test file for every tool file', () => {
    const dir = path.join(here, 'tools');
    for (const tool of TOOLS) {
      expect(
        fs.existsSync(path.join(dir, `${tool.name.replaceAll('_', '-')}.test.ts`)),
        `${tool.name} has no test`,
      ).toBe(true);
    }
  });

  it('has unique, snake_case names and a description that says what to do', () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of TOOLS) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.description.length).toBeGreaterThan(40);
    }
  });

  it('lets only sdk.ts import the MCP SDK, and no other process folder', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          const text = fs.readFileSync(file, 'utf8');
          if (entry.name !== 'sdk.ts' && text.includes('@modelcontextprotocol/sdk'))
            offenders.push(`${file}: SDK import`);
          if (/from '(\.\.\/)+(native-host|cli|extension)\//.test(text))
            offenders.push(`${file}: imports another process`);
        }
      }
    };
    walk(here);
    expect(offenders).toEqual([]);
  });
});

describe('the MCP server over an in-memory transport', () => {
  it('announces its name and lists exactly the registry, each input schema derived from the tool’s own', async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe(MCP_SERVER_NAME);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const tool of TOOLS) {
      const listed = tools.find((t) => t.name === tool.name);
      const { properties, required } = z.toJSONSchema(tool.inputSchema, { io: 'input', target: 'draft-7' });
      // Same arguments, same required ones (tool-json-schema.test.ts checks the shaping).
      expect(Object.keys(listed?.inputSchema.properties ?? {})).toEqual(Object.keys(properties ?? {}));
      expect(listed?.inputSchema.required).toEqual(required);
      expect(listed?.inputSchema).toEqual(toolInputJsonSchema(tool));
    }
  });

  it('answers invalid arguments with our VALIDATION_ERROR object, not the SDK’s text', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'inject_script',
      arguments: { file_path: 42, world: 'nowhere' },
    });
    expect(result.isError).toBe(true);
    const body = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '');
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'inject_script' });
    expect(body.message).toMatch(/file_path/);
    expect(body.details.issues.map((i: { field: string }) => i.field)).toEqual(['file_path', 'world']);
    expect(result.structuredContent).toEqual(body);
  });

  it('maps thrown errors and returns success objects as text and structuredContent', async () => {
    const tools = [
      defineTool({
        name: 'echo_thing',
        description: 'test tool',
        inputSchema: { value: z.number() },
        async handler(args, ctx) {
          if (args.value < 0)
            throw new XipeError('TAB_NOT_FOUND', 'negative. Call list_tabs.', { value: args.value });
          if (args.value === 0) throw new Error('kaboom');
          return { doubled: args.value * 2, workspace: ctx.workspace, tool: ctx.toolName };
        },
      }),
    ];
    const client = await connect(tools, new FakeBridge([{ info: hostInfo(1, 'b'), answer: () => null }]));
    const ok = await client.callTool({ name: 'echo_thing', arguments: { value: 2 } });
    expect(ok.structuredContent).toEqual({
      status: 'success',
      doubled: 4,
      workspace: '/ws',
      tool: 'echo_thing',
    });
    expect(JSON.parse((ok.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual(ok.structuredContent);
    const failed = await client.callTool({ name: 'echo_thing', arguments: { value: -1 } });
    expect(failed.structuredContent).toEqual({
      error: 'TAB_NOT_FOUND',
      message: 'negative. Call list_tabs.',
      details: { value: -1 },
      tool_name: 'echo_thing',
    });
    const bug = await client.callTool({ name: 'echo_thing', arguments: { value: 0 } });
    expect(bug.structuredContent).toMatchObject({ error: 'INTERNAL_ERROR', tool_name: 'echo_thing' });
  });

  it('runs bridge_status with no host and reports it', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'bridge_status', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ hosts: [], workspace: { path: '/ws' } });
  });
});
