import v8 from 'node:v8';
import vm from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBridge, silentLogger } from '../../test-support/fake-bridge.js';
import { createServer } from '../server.js';
import {
  type HttpServerHandle,
  LOOPBACK_HOST,
  pathSecret,
  refuseRequest,
  type SessionServer,
  startHttpServer,
} from './http-transport.js';

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

  const start = (overrides: Partial<Parameters<typeof startHttpServer>[0]> = {}) =>
    startHttpServer({
      port: 0,
      token: TOKEN,
      logger: silentLogger(),
      maxBodyBytes: 1024 * 1024,
      createSession: () =>
        createServer({ bridge: new FakeBridge([]), workspace: '/ws', logger: silentLogger() }),
      ...overrides,
    });
  const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const initBody = (protocolVersion: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });

  it('sends the SSE priming event with an id and the retry field to 2025-11-25 clients', async () => {
    handle = await start({ retryIntervalMs: 1234 });
    const headers = { ...mcpHeaders, Authorization: `Bearer ${TOKEN}` };
    const modern = await fetch(handle.url, { method: 'POST', headers, body: initBody('2025-11-25') });
    const text = await modern.text();
    expect(modern.headers.get('content-type')).toMatch(/text\/event-stream/);
    // The first event: an id, the retry field and empty data, before the initialize answer.
    expect(text).toMatch(/^id: \S+\nretry: 1234\ndata: \n\n/);
    expect(text).toMatch(/"protocolVersion":"2025-11-25"/);
    // Clients of older versions would choke on an empty event: none for them.
    const older = await (
      await fetch(handle.url, { method: 'POST', headers, body: initBody('2025-06-18') })
    ).text();
    expect(older).not.toMatch(/retry:/);
  });

  it('refuses a JSON-RPC batch in a session whose protocol version dropped batches', async () => {
    handle = await start();
    const headers = { ...mcpHeaders, Authorization: `Bearer ${TOKEN}` };
    const init = await fetch(handle.url, { method: 'POST', headers, body: initBody('2025-06-18') });
    await init.text();
    const session = init.headers.get('mcp-session-id') ?? '';
    const batch = await fetch(handle.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'ping' }]),
    });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/2025-06-18 has no JSON-RPC batches/) },
    });
  });

  it('with tokenInPath serves /<secret>/mcp without a header; the secret is not the token', async () => {
    handle = await start({ tokenInPath: true });
    const secret = pathSecret(TOKEN);
    expect(handle.url).toBe(`http://${LOOPBACK_HOST}:${handle.port}/${secret}/mcp`);
    expect(secret).not.toContain(TOKEN.slice(0, 8));
    const client = new Client({ name: 'no-headers', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    const base = `http://${LOOPBACK_HOST}:${handle.port}`;
    for (const url of [`${base}/mcp`, `${base}/${secret.slice(0, -1)}x/mcp`, `${base}/${TOKEN}/mcp`]) {
      expect(
        (await fetch(url, { method: 'POST', headers: mcpHeaders, body: initBody('2025-06-18') })).status,
      ).toBe(401);
    }
    // Host and Origin checks still apply to the secret path.
    expect(refuseRequest({ host: 'evil.example:1' }, 1, TOKEN, { pathAuthorized: true })?.status).toBe(403);
  });

  it('closes sessions nobody used for idleTimeoutMs and lets their servers be collected', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const servers: Array<WeakRef<SessionServer>> = [];
    handle = await start({
      idleTimeoutMs: 2_000,
      createSession: () => {
        const server = createServer({ bridge: new FakeBridge([]), workspace: '/ws', logger: silentLogger() });
        servers.push(new WeakRef(server));
        return server;
      },
    });
    const headers = { ...mcpHeaders, Authorization: `Bearer ${TOKEN}` };
    // Clients that initialize and walk away without DELETE.
    for (let i = 0; i < 40; i += 1) {
      await (await fetch(handle.url, { method: 'POST', headers, body: initBody('2025-06-18') })).text();
    }
    expect(handle.sessionCount()).toBe(40);
    await expect.poll(() => handle?.sessionCount(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          gc();
          return servers.filter((ref) => ref.deref() !== undefined).length;
        },
        { timeout: 10_000 },
      )
      .toBe(0);
  });

  it('keeps a session whose SSE stream is still open, however long it is quiet', async () => {
    handle = await start({ idleTimeoutMs: 100 });
    const client = new Client({ name: 'listener', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(handle.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    // The SDK client holds a GET stream open for server notifications.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(handle.sessionCount()).toBe(1);
    await client.close();
  });
});
