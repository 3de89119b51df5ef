/**
 * The one seam to @modelcontextprotocol/sdk: product code imports the SDK only through this file,
 * so an SDK upgrade (or a v2 API) touches one place. Tests may import the SDK's client directly.
 */
export { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export type { CallToolResult, JSONRPCMessage, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
export {
  ErrorCode as JsonRpcErrorCode,
  isInitializeRequest,
  JSONRPCMessageSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
