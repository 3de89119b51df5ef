/**
 * Fault-test helper: a real `x-ipe-uiux mcp` process driven by the SDK client over stdio, with
 * the server's pid (to kill it) and its stderr kept, and tool calls returning the parsed body.
 *
 *   const mcp = await McpProcess.start({ home, workspace });
 *   const { isError, body } = await mcp.call('list_tabs', {});
 *   await mcp.close();
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_BIN } from './fake-extension.js';

export interface ToolOutcome {
  isError: boolean;
  body: Record<string, unknown>;
}

export class McpProcess {
  private stderrText = '';

  private constructor(
    readonly client: Client,
    readonly transport: StdioClientTransport,
  ) {
    transport.stderr?.on('data', (chunk: Buffer) => {
      if (this.stderrText.length < 1024 * 1024) this.stderrText += chunk.toString('utf8');
    });
  }

  static async start(options: {
    home: string;
    workspace: string;
    env?: Record<string, string>;
  }): Promise<McpProcess> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp', '--workspace', options.workspace],
      env: { ...(process.env as Record<string, string>), XIPE_UIUX_HOME: options.home, ...options.env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'faults', version: '0.0.0' });
    const mcp = new McpProcess(client, transport);
    await client.connect(transport);
    return mcp;
  }

  get pid(): number | null {
    return this.transport.pid;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Calls a tool; the body is the JSON object of the first content item (docs/architecture.md, Commands and tools). */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: { timeoutMs?: number } = {},
  ): Promise<ToolOutcome> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, {
      timeout: options.timeoutMs ?? 60_000,
    });
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? 'null';
    return { isError: result.isError === true, body: JSON.parse(text) as Record<string, unknown> };
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
