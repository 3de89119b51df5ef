import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '#shared/node/logger.js';
import { FakeBridge, silentLogger } from '../../test-support/fake-bridge.js';
import type { JSONRPCMessage } from '../sdk.js';
import { createServer } from '../server.js';
import { type BatchTransport, classify, normaliseOutgoing, ProtocolGuard } from './protocol-guard.js';

/** The wire side of a session: what the client would send and everything the server wrote. */
class WireTransport implements BatchTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  onbatch?: (items: unknown[]) => void;
  readonly written: unknown[] = [];
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.written.push(message);
  }
  async sendBatch(messages: JSONRPCMessage[]): Promise<void> {
    this.written.push(messages);
  }
  /** Sends a line's worth: an object goes to onmessage, an array to onbatch. */
  deliver(value: unknown): void {
    if (Array.isArray(value)) this.onbatch?.(value);
    else this.onmessage?.(value as JSONRPCMessage);
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

async function session(logger = silentLogger()) {
  const wire = new WireTransport();
  const server = createServer({ bridge: new FakeBridge([]), workspace: '/ws', logger });
  const guard = new ProtocolGuard(wire);
  await server.connect(guard);
  closers.push(() => server.close());
  /** The answer to request `id` (or the batch answer holding it). */
  const answer = (id: number | string | null) =>
    wire.written.find((m) => !Array.isArray(m) && (m as { id?: unknown }).id === id) as
      | { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } }
      | undefined;
  return { wire, guard, answer };
}

const initialize = (id: number, protocolVersion = '2025-06-18') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

describe('ProtocolGuard with the real server', () => {
  it('refuses requests before initialize (ping excepted) and serves requests sent right behind it', async () => {
    const { wire, answer } = await session();
    wire.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    wire.deliver({ jsonrpc: '2.0', id: 2, method: 'ping' });
    wire.deliver(initialize(3));
    wire.deliver({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
    await settle();
    expect(answer(1)?.error).toEqual({
      code: -32600,
      message: 'Invalid Request: the session is not initialized; send initialize before tools/list',
    });
    expect(answer(2)?.result).toEqual({});
    expect(answer(3)?.result?.capabilities).toEqual({
      tools: { listChanged: true },
      resources: { listChanged: true },
      prompts: {},
      logging: {},
    });
    expect(answer(4)?.result?.tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'list_tabs' })]),
    );
  });

  it('answers the spec codes with readable texts, prefixed never', async () => {
    const { wire, answer } = await session();
    wire.deliver(initialize(1));
    wire.deliver({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    wire.deliver({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } });
    wire.deliver({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'xipe://nope' } });
    wire.deliver({ jsonrpc: '2.0', id: 5 });
    wire.deliver({ jsonrpc: '2.0', id: 6, method: 'no/such/method' });
    wire.deliver({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 'loud' } });
    wire.deliver({ jsonrpc: '2.0', id: 8, method: 'resources/read', params: {} });
    await settle();
    expect(answer(2)?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown tool: nope\. Tools: /),
    });
    expect(answer(3)?.error).toEqual({
      code: -32602,
      message: 'Invalid tools/call request: params.name: Invalid input: expected string, received undefined',
    });
    expect(answer(4)?.error).toMatchObject({ code: -32002, data: { uri: 'xipe://nope' } });
    expect(answer(5)?.error).toMatchObject({ code: -32600 });
    expect(answer(6)?.error).toEqual({ code: -32601, message: 'Method not found' });
    expect(answer(7)?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\.level, one of debug/),
    });
    expect(answer(8)?.error?.code).toBe(-32602);
    for (const m of wire.written) expect(JSON.stringify(m)).not.toMatch(/MCP error/);
  });

  it('refuses batches on 2025-06-18 and answers one array on 2025-03-26', async () => {
    const modern = await session();
    modern.wire.deliver(initialize(1));
    await settle();
    modern.wire.deliver([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    await settle();
    expect(modern.wire.written.at(-1)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message:
            'Invalid Request: a batch: protocol version 2025-06-18 has no JSON-RPC batches; send one message per line',
        },
      },
    ]);

    const legacy = await session();
    legacy.wire.deliver(initialize(1, '2025-03-26'));
    await settle();
    legacy.wire.deliver([
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { jsonrpc: '2.0', id: 4 },
    ]);
    await settle();
    const batch = legacy.wire.written.at(-1) as Array<{
      id: unknown;
      result?: unknown;
      error?: { code: number };
    }>;
    expect(Array.isArray(batch)).toBe(true);
    expect(batch.map((m) => m.id).sort()).toEqual([2, 3, 4]);
    expect(batch.find((m) => m.id === 4)?.error?.code).toBe(-32600);
  });

  it('sends the server log as notifications/message only after logging/setLevel, from that level up', async () => {
    const logger = createLogger({ component: 'mcp', stderr: null, level: 'error' });
    const { wire } = await session(logger);
    wire.deliver(initialize(1));
    await settle();
    logger.info('before any level');
    wire.deliver({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'warning' } });
    await settle();
    logger.info('below the level');
    logger.warn('a warning', { detail: 'x' });
    await settle();
    const notes = wire.written.filter((m) => (m as { method?: string }).method === 'notifications/message');
    expect(notes).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', logger: 'mcp', data: { message: 'a warning', detail: 'x' } },
      },
    ]);
  });
});

describe('classify and normaliseOutgoing', () => {
  it.each([
    [null, 'invalid'],
    [[], 'invalid'],
    [{ id: 1, method: 'x' }, 'invalid'],
    [{ jsonrpc: '2.0', id: 1, method: 2 }, 'invalid'],
    [{ jsonrpc: '2.0', id: {}, method: 'x' }, 'invalid'],
    [{ jsonrpc: '2.0', id: 1, method: 'x' }, 'request'],
    [{ jsonrpc: '2.0', method: 'x' }, 'notification'],
    [{ jsonrpc: '2.0', id: 1, result: {} }, 'response'],
    [{ jsonrpc: '2.0', id: 1 }, 'invalid'],
  ])('%j is %s', (value, kind) => {
    expect(classify(value).kind).toBe(kind);
  });

  it('strips the SDK prefix once and leaves other messages alone', () => {
    const error = {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32002, message: 'MCP error -32002: gone' },
    } as const;
    expect(normaliseOutgoing(error)).toEqual({ ...error, error: { code: -32002, message: 'gone' } });
    const ok = { jsonrpc: '2.0', id: 1, result: {} } as const;
    expect(normaliseOutgoing(ok)).toBe(ok);
  });
});
