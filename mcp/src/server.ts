import { z } from 'zod';
import { MCP_SERVER_NAME } from '../../shared/src/constants.js';
import { type ErrorCode, toErrorPayload, validationError, XipeError } from '../../shared/src/errors.js';
import type { Logger } from '../../shared/src/node/logger.js';
import { PACKAGE_VERSION } from '../../shared/src/node/version.js';
import { withTimeout } from '../../shared/src/with-timeout.js';
import { type AuditLog, auditTarget } from './audit-log.js';
import type { BridgeClient } from './bridge.js';
import { LazyJsonSchemaValidator } from './lazy-schema-validator.js';
import type { ResourceChanges } from './resources/ideas-watcher.js';
import {
  RESOURCE_TEMPLATES,
  RESOURCES,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './resources/registry.js';
import {
  type CallToolResult,
  JsonRpcErrorCode,
  McpError,
  McpServer,
  type ReadResourceResult,
  ResourceTemplate,
} from './sdk.js';
import { SentScripts } from './sent-scripts.js';
import { type TimeoutSettings, timeoutSettings, toolTimeoutMs } from './timeouts.js';
import { errorResult, successResult } from './tool-result.js';
import type { AnyTool, ToolContext } from './tools/define-tool.js';
import { TOOLS } from './tools/registry.js';

export interface ServerDeps {
  bridge: BridgeClient;
  workspace: string;
  logger: Logger;
  /** Defaults to the registry; tests may pass a subset. */
  tools?: readonly AnyTool[];
  /** Every tool call is recorded here (target, duration, outcome; never payloads). */
  audit?: AuditLog;
  /** Per-tool time limits; default: 30 s or XIPE_UIUX_TOOL_TIMEOUT_MS. */
  timeouts?: TimeoutSettings;
  /** When it fires, clients are sent notifications/resources/list_changed. */
  resourceChanges?: ResourceChanges;
  /** Default to the resource registry; tests may pass others. */
  resources?: readonly ResourceDefinition[];
  resourceTemplates?: readonly ResourceTemplateDefinition[];
}

const INSTRUCTIONS = `Tools of X-IPE UI/UX Reference relay to the user's real browser through the X-IPE extension.
Typical flow: list_tabs → inject_toolbar → wait_for_captures → capture_screenshot → save_uiux_reference; capture_area {idea_folder, selector|rect} deep-captures an area with an offline clone to rebuild it from; inject_script {file_path, tab_id|url_contains|page_index} runs a local script. Read the resource xipe://guide for the workflow and xipe://ideas for the idea folders. If a call fails, the error message says what to do next; bridge_status reports every link and how to fix it.`;

/**
 * Builds the MCP server and registers every tool and resource (the only place that calls the
 * SDK's register). No I/O: the caller connects a transport.
 */
export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: new LazyJsonSchemaValidator(),
    },
  );
  const timeouts = deps.timeouts ?? timeoutSettings(null);
  const sentScripts = new SentScripts();
  const inFlight = new Set<Promise<unknown>>();
  IN_FLIGHT.set(server, inFlight);
  const track = <T>(call: Promise<T>): Promise<T> => {
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call)).catch(() => {});
    return call;
  };
  for (const tool of deps.tools ?? TOOLS) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: advertisedSchema(tool.inputSchema),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      },
      (args: Record<string, unknown>, extra: { signal: AbortSignal; sessionId?: string }) =>
        track(
          runTool(
            tool,
            args,
            {
              bridge: deps.bridge,
              workspace: deps.workspace,
              logger: deps.logger,
              signal: extra.signal,
              toolName: tool.name,
              sentScripts,
            },
            {
              timeouts,
              ...(deps.audit !== undefined ? { audit: deps.audit } : {}),
              ...(extra.sessionId !== undefined ? { session: extra.sessionId } : {}),
            },
          ),
        ),
    );
  }
  registerResources(server, deps);
  if (deps.resourceChanges !== undefined) {
    const unsubscribe = deps.resourceChanges.subscribe(() => server.sendResourceListChanged());
    server.server.onclose = () => unsubscribe();
  }
  return server;
}

const IN_FLIGHT = new WeakMap<McpServer, Set<Promise<unknown>>>();

/**
 * Waits (at most `maxMs`) for the tool calls still running, so a client that sends its requests
 * and closes stdin still gets every answer before the server closes.
 */
export async function settleToolCalls(server: McpServer, maxMs: number): Promise<void> {
  const calls = [...(IN_FLIGHT.get(server) ?? [])];
  if (calls.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(calls),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    }),
  ]);
  clearTimeout(timer);
  // The SDK sends a response a few promise turns after the tool callback settles: let it.
  await new Promise((resolve) => setImmediate(resolve));
}

function registerResources(server: McpServer, deps: ServerDeps): void {
  const ctx = { workspace: deps.workspace };
  for (const resource of deps.resources ?? RESOURCES) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      (uri) => readResource(uri.href, resource.mimeType, () => resource.read(ctx), deps.logger),
    );
  }
  for (const template of deps.resourceTemplates ?? RESOURCE_TEMPLATES) {
    const sdkTemplate = new ResourceTemplate(template.uriTemplate, {
      list: async () => ({
        resources: (await template.list(ctx)).map((r) => ({ ...r, mimeType: template.mimeType })),
      }),
    });
    server.registerResource(
      template.name,
      sdkTemplate,
      { title: template.title, description: template.description, mimeType: template.mimeType },
      (uri, variables) => {
        const flat: Record<string, string> = {};
        for (const [key, value] of Object.entries(variables)) {
          flat[key] = Array.isArray(value) ? value.join(',') : value;
        }
        return readResource(uri.href, template.mimeType, () => template.read(ctx, flat), deps.logger);
      },
    );
  }
}

/** MCP's "resource not found" code (spec: resources, error handling). */
const RESOURCE_NOT_FOUND = -32002;

const RESOURCE_ERROR_CODES: Partial<Record<ErrorCode, number>> = {
  IDEA_NOT_FOUND: RESOURCE_NOT_FOUND,
  FILE_NOT_FOUND: RESOURCE_NOT_FOUND,
  VALIDATION_ERROR: JsonRpcErrorCode.InvalidParams,
};

/**
 * Runs one resource read. A failure becomes a JSON-RPC error whose message says what to do and
 * whose `data` is our `{error, message, details}` object, like a tool's.
 */
export async function readResource(
  uri: string,
  mimeType: string,
  read: () => Promise<string>,
  logger: Logger,
): Promise<ReadResourceResult> {
  try {
    const text = await read();
    logger.debug('resource read', { uri, bytes: Buffer.byteLength(text) });
    return { contents: [{ uri, mimeType, text }] };
  } catch (err) {
    const payload = toErrorPayload(err);
    if (!(err instanceof XipeError)) {
      logger.error('resource read failed unexpectedly', { uri, error: String(err) });
    } else {
      logger.info('resource read failed', { uri, error: payload.code });
    }
    throw new McpError(
      RESOURCE_ERROR_CODES[payload.code] ?? JsonRpcErrorCode.InternalError,
      payload.message,
      {
        error: payload.code,
        message: payload.message,
        details: payload.details ?? {},
        uri,
      },
    );
  }
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

export interface RunOptions {
  /** Time limits; without them, 30 s (or XIPE_UIUX_TOOL_TIMEOUT_MS). */
  timeouts?: TimeoutSettings;
  audit?: AuditLog;
  /** MCP session id (Streamable HTTP), recorded in the audit log. */
  session?: string;
}

/**
 * The single place every tool call goes through: validates, runs under a time limit, maps the
 * outcome, and writes the log line and the audit entry (never the arguments themselves).
 */
export async function runTool(
  tool: AnyTool,
  rawArgs: unknown,
  ctx: ToolContext,
  options: RunOptions = {},
): Promise<CallToolResult> {
  const started = performance.now();
  const parsed = tool.inputSchema.safeParse(rawArgs ?? {});
  let result: CallToolResult;
  if (!parsed.success) {
    result = errorResult(
      validationError(parsed.error, `arguments for ${tool.name}`, rawArgs ?? {}),
      tool.name,
    );
  } else {
    const limitMs = toolTimeoutMs(options.timeouts ?? timeoutSettings(null), tool, parsed.data);
    try {
      result = successResult(await runWithLimit(tool, parsed.data, ctx, limitMs));
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
  const durationMs = Math.round(performance.now() - started);
  const errorCode =
    result.isError === true ? String(result.structuredContent?.error ?? 'INTERNAL_ERROR') : null;
  ctx.logger.info('tool call', {
    tool: tool.name,
    outcome: errorCode ?? 'success',
    duration_ms: durationMs,
  });
  options.audit?.record({
    time: new Date().toISOString(),
    tool: tool.name,
    target: auditTarget(parsed.success ? parsed.data : rawArgs),
    duration_ms: durationMs,
    outcome: errorCode === null ? 'ok' : 'error',
    ...(errorCode !== null ? { error_code: errorCode } : {}),
    ...(options.session !== undefined ? { session: options.session } : {}),
  });
  return result;
}

/**
 * Runs the handler with a signal that aborts when the client cancels or the limit passes. At the
 * limit the call answers TIMEOUT at once, whatever the handler is waiting for.
 */
async function runWithLimit(
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  limitMs: number,
): Promise<Record<string, unknown>> {
  const controller = new AbortController();
  const forward = (): void => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) forward();
  else ctx.signal.addEventListener('abort', forward, { once: true });
  try {
    return await withTimeout(tool.handler(args, { ...ctx, signal: controller.signal }), limitMs, () => {
      const err = new XipeError(
        'TIMEOUT',
        `${tool.name} did not finish within ${limitMs} ms and was abandoned (the browser may still complete it). ` +
          'Call bridge_status to check the links, then retry; for a longer limit pass `timeout_ms` where the tool ' +
          `has it, or set tool_timeouts.${tool.name} (ms) in config.json or XIPE_UIUX_TOOL_TIMEOUT_MS.`,
        { timeout_ms: limitMs },
      );
      controller.abort(err);
      throw err;
    });
  } finally {
    ctx.signal.removeEventListener('abort', forward);
  }
}
