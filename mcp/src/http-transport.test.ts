import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBridge, silentLogger } from '../test-support/fake-bridge.js';
import { type HttpServerHandle, LOOPBACK_HOST, refuseRequest, startHttpServer } from './http-transport.js';
import { createServer } from './server.js';

const TOKEN = 'a'.repeat(64);
const PORT = 4321;
const ok = { host: `127.0.0.1:${PORT}`, authorization: `Bearer ${TOKEN}` };

describe('refuseRequest', () => {
  it('lets a loopback request with the token through', () => {
    expect(refuseRequest(ok, PORT, TOKEN)).toBeNull();
    expect(refuseRequest({ ...ok, host: `localhost:${PORT}` }, PORT, TOKEN)).toBeNull();
    expect(refuseRequest({ ...ok, origin: `http://localhost:${PORT}` }, PORT, TOKEN)).toBeNull();
    expect(refuseRequest({ ...ok, authorization: `bearer ${TOKEN}` }, PORT, TOKEN)).toBeNull();
  });

  it.each([
    ['no token', { host: ok.host }],
    ['an empty bearer', { ...ok, authorization: 'Bearer ' }],
    ['a wrong token', { ...ok, authorization: `Bearer ${'b'.repeat(64)}` }],
    ['a prefix of the token', { ...ok, authorization: `Bearer ${TOKEN.slice(0, 10)}` }],
    ['the token plus more', { ...ok, authorization: `Bearer ${TOKEN}x` }],
    ['basic auth', { ...ok, authorization: `Basic ${TOKEN}` }],
  ])('answers 401 for %s', (_what, headers) => {
    expect(refuseRequest(headers, PORT, TOKEN)?.status).toBe(401);
  });

  it.each([
    ['no Host', { authorization: ok.authorization }],
    ['a rebound DNS name', { ...ok, host: `evil.example:${PORT}` }],
    ['another port', { ...ok, host: '127.0.0.1:1' }],
    ['0.0.0.0', { ...ok, host: `0.0.0.0:${PORT}` }],
    ['a web page origin', { ...ok, origin: 'https://evil.example' }],
    ['a loopback origin on another port', { ...ok, origin: 'http://127.0.0.1:1' }],
  ])('answers 403 for %s, before looking at the token', (_what, headers) => {
    expect(refuseRequest(headers, PORT, TOKEN)?.status).toBe(403);
  });
});

describe('startHttpServer', () => {
  let handle: HttpServerHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('binds loopback only and serves an SDK client that sends the token, in its own session', async () => {
    handle = await startHttpServer({
      port: 0,
      token: TOKEN,
      logger: silentLogger(),
      maxBodyBytes: 1024 * 1024,
      createSession: () =>
        createServer({ bridge: new FakeBridge([]), workspace: '/ws', logger: silentLogger() }),
    });
    expect(handle.url).toBe(`http://${LOOPBACK_HOST}:${handle.port}/mcp`);

    const refused = await fetch(handle.url, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const clients = await Promise.all(
      [0, 1].map(async () => {
        const client = new Client({ name: 'http-test', version: '0' });
        const transport = new StreamableHTTPClientTransport(new URL(handle?.url ?? ''), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        });
        await client.connect(transport);
        return { client, transport };
      }),
    );
    expect(clients[0]?.transport.sessionId).not.toBe(clients[1]?.transport.sessionId);
    for (const { client } of clients) {
      const status = await client.callTool({ name: 'bridge_status', arguments: {} });
      expect(status.structuredContent).toMatchObject({ hosts: [], workspace: { path: '/ws' } });
    }
    await Promise.all(clients.map(({ client }) => client.close()));
  });

  it('refuses an oversized body with 413 and an unknown session with 404', async () => {
    handle = await startHttpServer({
      port: 0,
      token: TOKEN,
      logger: silentLogger(),
      maxBodyBytes: 100,
      createSession: () =>
        createServer({ bridge: new FakeBridge([]), workspace: '/ws', logger: silentLogger() }),
    });
    const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
    const big = await fetch(handle.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ x: 'y'.repeat(500) }),
    });
    expect(big.status).toBe(413);
    const lost = await fetch(handle.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'nope', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(lost.status).toBe(404);
    const noSession = await fetch(handle.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
  });
});
