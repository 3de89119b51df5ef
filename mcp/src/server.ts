import { z } from 'zod';
import { MCP_SERVER_NAME } from '#shared/constants.js';
import type { Logger } from '#shared/node/logger.js';
import { PACKAGE_VERSION } from '#shared/node/version.js';
import type { AuditLog } from './audit-log.js';
import type { BridgeClient } from './bridge-client/bridge.js';
import { forwardLogs, isMcpLogLevel, MCP_LOG_LEVELS } from './log-forwarding.js';
import { progressNotifier } from './progress-notifier.js';
import { getPrompt, listPrompts, PROMPTS } from './prompts.js';
import { listResources, listResourceTemplates, readResource } from './resources/handlers.js';
import type { ResourceChanges } from './resources/ideas-watcher.js';
import {
  RESOURCE_TEMPLATES,
  RESOURCES,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './resources/registry.js';
import { JsonRpcErrorCode, McpError, Server } from './sdk.js';
import { runTool, writeCallRecords } from './tools/call/run-tool.js';
import { SentScripts } from './tools/call/sent-scripts.js';
import { type TimeoutSettings, timeoutSettings } from './tools/call/timeouts.js';
import { toolInputJsonSchema } from './tools/call/tool-json-schema.js';
import type { AnyTool } from './tools/define-tool.js';
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
 * Request schemas that only pin the method: the params are checked below, so a bad request gets
 * -32602 with a message naming what is missing instead of the SDK's -32603 with a schema dump.
 */
const request = <M extends string>(method: M) =>
  z.object({ method: z.literal(method), params: z.looseObject({}).optional() });

const invalidParams = (message: string): McpError => new McpError(JsonRpcErrorCode.InvalidParams, message);

/**
 * Builds the MCP server (the SDK's low-level Server: every handler is ours, so every error code
 * is the spec's) and registers the tools, resources and logging. No I/O: the caller connects a
 * transport, wrapped in a ProtocolGuard.
 */
export function createServer(deps: ServerDeps): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: PACKAGE_VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: {},
        logging: {},
      },
      instructions: INSTRUCTIONS,
    },
  );
  const tools = deps.tools ?? TOOLS;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const resources = {
    resources: deps.resources ?? RESOURCES,
    templates: deps.resourceTemplates ?? RESOURCE_TEMPLATES,
  };
  const resourceCtx = { workspace: deps.workspace };
  const timeouts = deps.timeouts ?? timeoutSettings(null);
  const sentScripts = new SentScripts();

  server.setRequestHandler(request('tools/list'), () => ({ tools: tools.map(listedTool) }));
  server.setRequestHandler(request('tools/call'), (req, extra) => {
    const { name, arguments: args } = req.params ?? {};
    if (typeof name !== 'string' || name === '') {
      throw invalidParams('tools/call needs params.name, the name of a tool from tools/list.');
    }
    const tool = byName.get(name);
    if (tool === undefined) {
      throw invalidParams(`Unknown tool: ${name}. Tools: ${[...byName.keys()].join(', ')}.`);
    }
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw invalidParams('tools/call params.arguments must be an object.');
    }
    return runTool(
      tool,
      args ?? {},
      {
        bridge: deps.bridge,
        workspace: deps.workspace,
        logger: deps.logger,
        signal: extra.signal,
        toolName: name,
        sentScripts,
        progress: progressNotifier(
          (req.params as { _meta?: { progressToken?: unknown } })._meta?.progressToken,
          extra,
        ),
      },
      {
        timeouts,
        ...(deps.audit !== undefined ? { audit: deps.audit } : {}),
        ...(extra.sessionId !== undefined ? { session: extra.sessionId } : {}),
      },
    );
  });

  server.setRequestHandler(request('resources/list'), () => listResources(resources, resourceCtx));
  server.setRequestHandler(request('resources/templates/list'), () => listResourceTemplates(resources));
  server.setRequestHandler(request('resources/read'), (req) => {
    const uri = req.params?.uri;
    if (typeof uri !== 'string' || uri === '')
      throw invalidParams('resources/read needs params.uri (see resources/list).');
    return readResource(resources, uri, resourceCtx, deps.logger);
  });

  server.setRequestHandler(request('prompts/list'), () => listPrompts(PROMPTS));
  server.setRequestHandler(request('prompts/get'), (req) =>
    getPrompt(PROMPTS, req.params?.name, req.params?.arguments),
  );

  const logs = forwardLogs(deps.logger, (params) =>
    server.notification({ method: 'notifications/message', params }),
  );
  server.setRequestHandler(request('logging/setLevel'), (req) => {
    const level = req.params?.level;
    if (!isMcpLogLevel(level))
      throw invalidParams(`logging/setLevel needs params.level, one of ${MCP_LOG_LEVELS.join(', ')}.`);
    logs.setLevel(level);
    return {};
  });

  const unsubscribe = deps.resourceChanges?.subscribe(() => {
    void server.sendResourceListChanged().catch(() => {});
  });
  server.onclose = () => {
    unsubscribe?.();
    logs.close();
    writeCallRecords();
  };
  return server;
}

/** A tool as tools/list shows it: its input schema as clients read it (tool-json-schema.ts), the title from its annotations. */
function listedTool(tool: AnyTool) {
  return {
    name: tool.name,
    ...(tool.annotations?.title !== undefined ? { title: tool.annotations.title } : {}),
    description: tool.description,
    inputSchema: toolInputJsonSchema(tool),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}
