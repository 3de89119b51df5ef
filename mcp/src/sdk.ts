/**
 * The one seam to @modelcontextprotocol/sdk: product code imports the SDK only through this file,
 * so an SDK upgrade (or a v2 API) touches one place. Tests may import the SDK's client directly.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type MessageExtraInfo,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { memoizedSafeParse } from '../../shared/src/parse-memo.js';

export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export type {
  EventStore,
  StreamableHTTPServerTransport,
} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
export { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
export type {
  CallToolResult,
  JSONRPCMessage,
  MessageExtraInfo,
  ReadResourceResult,
  ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
export {
  ErrorCode as JsonRpcErrorCode,
  isInitializeRequest,
  JSONRPCMessageSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
export type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

/**
 * The Streamable HTTP transport, loaded on demand: it brings a web-server stack that a stdio
 * server (what agents start) would otherwise hold in memory for nothing (~6 MB RSS).
 */
export const loadStreamableHttp = (): Promise<
  typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')
> => import('@modelcontextprotocol/sdk/server/streamableHttp.js');

/**
 * Registers the tools/call handler as the SDK's Server does, minus one step: the Server parses
 * every result a handler returns against CallToolResultSchema, a sender checking its own output
 * again (ours are built in one shape by tool-result.ts), and under the server's no-optimizer flags
 * that was the largest single parse of a repeated inject_script. The request is parsed with
 * CallToolRequestSchema as the Server parses it, failing with the Server's own error. (A
 * task-augmented call never gets here: the server declares no task support, so the SDK refuses
 * it first.)
 */
export function setToolsCallHandler<S extends z.ZodObject>(
  server: Server,
  schema: S,
  handler: (
    request: z.output<S>,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ) => ServerResult | Promise<ServerResult>,
): void {
  const checked = (
    request: z.output<S>,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): ServerResult | Promise<ServerResult> => {
    const parsed = memoizedSafeParse(CallToolRequestSchema, request);
    if (!parsed.success) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call request: ${parsed.error.message}`);
    }
    return handler(request, extra);
  };
  Protocol.prototype.setRequestHandler.call(server, schema, checked);
}

/** A transport that can take the requests it knows to be plain (protocol-guard.ts). */
interface RequestRoute extends Transport {
  onrequest?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
}

/**
 * `server.connect(transport)`, then hands the transport the SDK's own request dispatch for the
 * requests it has already checked. The message handler `connect` installs first runs three zod
 * guards on every message (is it a result? an error? a request?), and for a request the first two
 * fail, each building a ZodError with a stack and a JSON message: ~15 µs warm, ~50–80 µs in a
 * server woken once per call (the profile of a repeated inject_script). The dispatch is the
 * Protocol's `_onrequest`, not part of the SDK's typed API: when an upgrade renames it, every
 * message keeps the SDK's path (and protocol-guard.test.ts fails first).
 */
export async function connectServer(server: Pick<Server, 'connect'>, transport: RequestRoute): Promise<void> {
  await server.connect(transport);
  const dispatch = requestDispatch(server);
  if (dispatch !== null) transport.onrequest = dispatch;
}

/** The SDK's request dispatch of `server`, or null when this SDK has none by that name. */
export function requestDispatch(
  server: object,
): ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | null {
  const onrequest: unknown = (server as unknown as { _onrequest?: unknown })._onrequest;
  if (typeof onrequest !== 'function') return null;
  return (message, extra) => onrequest.call(server, message, extra);
}
