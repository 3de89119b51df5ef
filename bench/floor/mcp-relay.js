// The least an MCP server can do for inject_script: the SDK's stdio server with one tool that
// sends the floor host a line and answers with what comes back, as text and structured content
// (as our tools answer). Beside relay.js it adds what the protocol itself costs on both sides.
import net from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const socket = net.connect(process.env.XIPE_BENCH_FLOOR_SOCKET);
const waiting = new Map();
let buffered = '';
let lastId = 0;
socket.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
    const msg = JSON.parse(buffered.slice(0, nl));
    buffered = buffered.slice(nl + 1);
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
  }
});

const server = new Server({ name: 'bench-floor', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'inject', inputSchema: { type: 'object' } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  lastId += 1;
  const id = lastId;
  const reply = await new Promise((resolve) => {
    waiting.set(id, resolve);
    socket.write(`${JSON.stringify({ ...request.params.arguments, id })}\n`);
  });
  const result = { returnValue: reply.result ?? null, error: reply.error ?? null };
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
});
await server.connect(new StdioServerTransport());
