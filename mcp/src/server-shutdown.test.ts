import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { FakeBridge, silentLogger } from '../test-support/fake-bridge.js';
import { createServer, settleToolCalls } from './server.js';
import { defineTool } from './tools/define-tool.js';

describe('settleToolCalls', () => {
  it('lets calls still running answer before the server closes', async () => {
    let release: () => void = () => {};
    let started = false;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({
      name: 'slow_tool',
      description: 'finishes when the test says so',
      inputSchema: {},
      async handler() {
        started = true;
        await gate;
        return { done: true };
      },
    });
    const server = createServer({
      bridge: new FakeBridge(),
      workspace: '/ws',
      logger: silentLogger(),
      tools: [slow],
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

    const answer = client.callTool({ name: 'slow_tool', arguments: {} });
    await expect.poll(() => started).toBe(true);
    setTimeout(release, 10);
    await settleToolCalls(server, 10_000);
    await server.close();
    expect((await answer).structuredContent).toEqual({ done: true });
  });

  it('returns at once when nothing runs', async () => {
    const server = createServer({
      bridge: new FakeBridge(),
      workspace: '/ws',
      logger: silentLogger(),
      tools: [],
    });
    await settleToolCalls(server, 60_000);
  });
});
