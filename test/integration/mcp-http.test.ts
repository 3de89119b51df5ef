import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { readToken } from '#shared/node/token.js';
import { startHttpMcp as start } from '../helpers/http-mcp.js';

// `x-ipe-uiux mcp --http 0` as a real process: loopback only, bearer token before anything else,
// Host/Origin checked, and a real SDK client over Streamable HTTP.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const startHttpMcp = (args: readonly string[] = []) => start(cleanups, args);

/** A raw request with full control of the headers (fetch will not send a foreign Host). */
function rawPost(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('x-ipe-uiux mcp --http', () => {
  it('listens on 127.0.0.1 only and refuses requests without the right token or from a foreign host', async () => {
    const server = await startHttpMcp();
    expect(server.url.hostname).toBe('127.0.0.1');
    expect(server.url.pathname).toBe('/mcp');
    const token = readToken(server.home);
    expect(token).not.toBeNull();

    const none = await rawPost(server.url, {});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ error: 'UNAUTHORIZED' });
    expect(none.body).not.toContain(token ?? '');
    const wrong = await rawPost(server.url, { Authorization: `Bearer ${'0'.repeat(64)}` });
    expect(wrong.status).toBe(401);

    const rebound = await rawPost(server.url, {
      Authorization: `Bearer ${token}`,
      Host: `attacker.example:${server.url.port}`,
    });
    expect(rebound.status).toBe(403);
    const foreignPage = await rawPost(server.url, {
      Authorization: `Bearer ${token}`,
      Origin: 'https://attacker.example',
    });
    expect(foreignPage.status).toBe(403);

    // Nothing reached MCP: no session was opened and nothing was audited.
    expect(fs.existsSync(path.join(server.home, 'logs', 'audit.log'))).toBe(true);
    expect(fs.readFileSync(path.join(server.home, 'logs', 'audit.log'), 'utf8')).toBe('');
  });

  it('serves an SDK client that sends the token: tools, bridge_status, resources; exits 0 on SIGTERM', async () => {
    const server = await startHttpMcp();
    const token = readToken(server.home) ?? '';
    const transport = new StreamableHTTPClientTransport(server.url, {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'http-integration', version: '0' });
    await client.connect(transport);
    cleanups.push(() => client.close().catch(() => undefined));
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['bridge_status', 'list_tabs', 'inject_script']),
    );
    const status = await client.callTool({ name: 'bridge_status', arguments: {} });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ workspace: { path: server.workspace }, hosts: [] });
    const ideas = await client.readResource({ uri: 'xipe://ideas' });
    expect(JSON.stringify(ideas.contents[0])).toContain('018. Feature-UIUX Reference');

    // Audit lines are written in batches, shortly after the answers.
    const auditFile = path.join(server.home, 'logs', 'audit.log');
    await expect.poll(() => fs.readFileSync(auditFile, 'utf8')).not.toBe('');
    const audit = fs.readFileSync(auditFile, 'utf8').trim().split('\n');
    expect(audit.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ tool: 'bridge_status', outcome: 'ok', session: transport.sessionId }),
    ]);

    await client.close();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toBe(''); // HTTP mode writes nothing to stdout
  });
});
