import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { FakeBridge, silentLogger } from '../test-support/fake-bridge.js';
import { createServer } from './server.js';
import { defineTool } from './tools/define-tool.js';
import { ProtocolGuard } from './transport/protocol-guard.js';

describe('ProtocolGuard.settled', () => {
  it('lets requests still running answer before the server closes (the SDK would drop them)', async () => {
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
    const guard = new ProtocolGuard(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await Promise.all([server.connect(guard), client.connect(clientSide)]);

    const answer = client.callTool({ name: 'slow_tool', arguments: {} });
    await expect.poll(() => started).toBe(true);
    setTimeout(release, 10);
    await guard.settled(10_000);
    await server.close();
    expect((await answer).structuredContent).toEqual({ status: 'success', done: true });
  });

  it('returns at once when nothing runs', async () => {
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    const started = performance.now();
    await new ProtocolGuard(serverSide).settled(60_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
