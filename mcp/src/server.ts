import { z } from 'zod';
import { MCP_SERVER_NAME } from '../../shared/src/constants.js';
import { validationError } from '../../shared/src/errors.js';
import type { Logger } from '../../shared/src/node/logger.js';
import { PACKAGE_VERSION } from '../../shared/src/node/version.js';
import type { BridgeClient } from './bridge.js';
import { type CallToolResult, McpServer } from './sdk.js';
import { errorResult, successResult } from './tool-result.js';
import type { AnyTool, ToolContext } from './tools/define-tool.js';
import { TOOLS } from './tools/registry.js';

export interface ServerDeps {
  bridge: BridgeClient;
  workspace: string;
  logger: Logger;
  /** Defaults to the registry; tests may pass a subset. */
  tools?: readonly AnyTool[];
}

const INSTRUCTIONS = `Tools of X-IPE UI/UX Reference relay to the user's real browser through the X-IPE extension.
Typical flow: list_tabs → inject_script {file_path, tab_id|url_contains|page_index}. If a call fails, the error message says what to do next; bridge_status reports every link and how to fix it.`;

/**
 * Builds the MCP server and registers every tool (the only place that calls the SDK's register).
 * No I/O: the caller connects a transport.
 */
export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: PACKAGE_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  for (const tool of deps.tools ?? TOOLS) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: advertisedSchema(tool.inputSchema),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      },
      (args: Record<string, unknown>, extra: { signal: AbortSignal }) =>
        runTool(tool, args, {
          bridge: deps.bridge,
          workspace: deps.workspace,
          logger: deps.logger,
          signal: extra.signal,
          toolName: tool.name,
        }),
    );
  }
  return server;
}

/**
 * The SDK would reject invalid arguments itself, with a bare text error that lacks our
 * `{error, message, details, tool_name}` shape. So it gets a schema that accepts any object but
 * advertises (in tools/list) exactly the JSON Schema of the tool's real input schema; the real
 * validation happens in `runTool`.
 */
export function advertisedSchema(schema: z.ZodObject): z.ZodObject {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' });
  return z.looseObject({}).meta(jsonSchema);
}

/** Validates, runs and maps one call. Logs the outcome, never the arguments. */
export async function runTool(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const started = performance.now();
  const parsed = tool.inputSchema.safeParse(rawArgs ?? {});
  let result: CallToolResult;
  if (!parsed.success) {
    result = errorResult(validationError(parsed.error, `arguments for ${tool.name}`), tool.name);
  } else {
    try {
      result = successResult(await tool.handler(parsed.data, ctx));
    } catch (err) {
      result = errorResult(err, tool.name);
      if (!(err instanceof Error && err.name === 'XipeError')) {
        ctx.logger.error('tool failed unexpectedly', {
          tool: tool.name,
          error: String(err),
          stack: (err as Error).stack,
        });
      }
    }
  }
  const outcome = result.isError === true ? (result.structuredContent?.error ?? 'error') : 'success';
  ctx.logger.info('tool call', {
    tool: tool.name,
    outcome,
    duration_ms: Math.round(performance.now() - started),
  });
  return result;
}
