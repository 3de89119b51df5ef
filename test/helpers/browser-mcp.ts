/**
 * The real MCP server (`x-ipe-uiux mcp`) driven by the MCP SDK client over stdio, for end-to-end
 * tests. Every tool result is one JSON object (content[0].text, also structuredContent).
 *
 *   const mcp = await McpSession.start({ env: browserEnv.env, workspace: browserEnv.workspace });
 *   const { isError, body } = await mcp.call('inject_script', { file_path });
 *   await mcp.close();
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_BIN, REPO_ROOT } from './fake-extension.js';

export interface ToolOutcome {
  isError: boolean;
  /** The tool's JSON object (parsed from content[0].text). */
  body: Record<string, unknown>;
  structured: Record<string, unknown> | undefined;
  /** MCP image content blocks that followed the JSON (capture_screenshot with return_base64). */
  images: Array<{ data: string; mimeType: string }>;
  /** Length of the whole result as JSON (to check responses stay small). */
  size: number;
}

export class McpSession {
  private constructor(
    private readonly client: Client,
    private readonly transport: StdioClientTransport,
    /** Everything the server wrote to stderr (its logs). */
    readonly stderr: string[],
  ) {}

  static async start(options: { env: NodeJS.ProcessEnv; workspace: string }): Promise<McpSession> {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp', '--workspace', options.workspace],
      env,
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    const client = new Client({ name: 'x-ipe-e2e', version: '0.0.0' });
    await client.connect(transport);
    return new McpSession(client, transport, stderr);
  }

  /** `signal`: aborting it cancels the call (MCP `notifications/cancelled`); the promise then rejects. */
  async call(
    name: string,
    args: Record<string, unknown> = {},
    timeoutMs = 60_000,
    signal?: AbortSignal,
  ): Promise<ToolOutcome> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, {
      timeout: timeoutMs,
      ...(signal !== undefined ? { signal } : {}),
    });
    const content = result.content as
      | Array<{ type: string; text?: string; data?: string; mimeType?: string }>
      | undefined;
    const text = content?.[0]?.text;
    if (typeof text !== 'string')
      throw new Error(`${name} returned no text content: ${JSON.stringify(result)}`);
    return {
      isError: result.isError === true,
      body: JSON.parse(text) as Record<string, unknown>,
      structured: result.structuredContent as Record<string, unknown> | undefined,
      images: (content ?? []).flatMap((c) =>
        c.type === 'image' && c.data !== undefined ? [{ data: c.data, mimeType: c.mimeType ?? '' }] : [],
      ),
      size: JSON.stringify(result).length,
    };
  }

  /** The text of a resource (resources/read). */
  async readResource(uri: string): Promise<string> {
    const { contents } = await this.client.readResource({ uri });
    const first = contents[0];
    if (first === undefined || !('text' in first) || typeof first.text !== 'string')
      throw new Error(`${uri} has no text content`);
    return first.text;
  }

  async listTools(): Promise<string[]> {
    const { tools } = await this.client.listTools();
    return tools.map((t) => t.name);
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}

/** Writes a script file into `dir` and returns its absolute path. */
export function writeScript(dir: string, name: string, code: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name.endsWith('.js') ? name : `${name}.js`);
  fs.writeFileSync(file, code);
  return file;
}
