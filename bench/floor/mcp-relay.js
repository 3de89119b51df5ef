// The least an MCP server can do for inject_script: the SDK's stdio server with one tool that
// sends the floor host a line and answers with what comes back, as text and structured content
// (as our tools answer). Beside relay.js it adds what the protocol itself costs on both sides.
import net from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { lineChannel } from './line-channel.js';

const socket = net.connect(process.env.XIPE_BENCH_FLOOR_SOCKET);
const floor = lineChannel((line) => socket.write(line), socket);

const server = new Server({ name: 'bench-floor', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'inject', inputSchema: { type: 'object' } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const result = await floor(request.params.arguments).then(
    (returnValue) => ({ returnValue: returnValue ?? null, error: null }),
    (err) => ({ returnValue: null, error: err.message }),
  );
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
});
await server.connect(new StdioServerTransport());
