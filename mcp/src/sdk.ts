/**
 * The one seam to @modelcontextprotocol/sdk: product code imports the SDK only through this file,
 * so an SDK upgrade (or a v2 API) touches one place. Tests may import the SDK's client directly.
 */
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

/**
 * The Streamable HTTP transport, loaded on demand: it brings a web-server stack that a stdio
 * server (what agents start) would otherwise hold in memory for nothing (several MB of RSS).
 */
export const loadStreamableHttp = (): Promise<
  typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')
> => import('@modelcontextprotocol/sdk/server/streamableHttp.js');
