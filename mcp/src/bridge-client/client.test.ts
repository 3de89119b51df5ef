import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_MAX_FRAME_BYTES, PROTOCOL_VERSION } from '#shared/constants.js';
import type { HostInfo, Request } from '#shared/envelopes.js';
import { XipeError } from '#shared/errors.js';
import { HostHandshake } from '#shared/node/bridge/handshake.js';
import { decodePayload, encodeFrame, FrameReader } from '#shared/node/framing.js';
import { runtimeDir } from '#shared/node/paths.js';
import { ensureToken } from '#shared/node/token.js';
import { browserInfo, hostInfo, silentLogger } from '../../test-support/fake-bridge.js';
import { TOOL_COMMANDS } from '../tools/registry.js';
import type { BridgeClient, BridgeEvent } from './bridge.js';
import { createBridgeClient } from './client.js';

/** What a fake host does with a request: answer (a response body), or act on the socket. */
type OnRequest = (
  request: Request,
  socket: net.Socket,
) => { result: unknown } | { error: { code: string; message: string } } | 'silent';

/** A local net server playing a native host: descriptor file, token check, HostHello, requests. */
class FakeHost {
  /** Every handshake message the client sent (hello, then proof). */
  readonly hellos: unknown[] = [];
  readonly requests: Request[] = [];
  readonly sockets = new Set<net.Socket>();
  connections = 0;
  /** Called right after the hello is sent (e.g. to hang up before any request arrives). */
  afterHello: ((socket: net.Socket, connection: number) => void) | null = null;
  private server: net.Server | null = null;

  constructor(
    readonly dir: string,
    readonly pid: number,
    readonly token: string,
    public info: HostInfo,
    public onRequest: OnRequest = () => 'silent',
    readonly helloProtocol = PROTOCOL_VERSION,
  ) {}

  get endpoint(): string {
    return path.join(this.dir, `h-${this.pid}.sock`);
  }

  get descriptorPath(): string {
    return path.join(this.dir, `h-${this.pid}.json`);
  }

  async start(): Promise<this> {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => server.listen(this.endpoint, resolve));
    fs.chmodSync(this.endpoint, 0o600); // as the real host does: clients refuse other modes
    this.server = server;
    fs.writeFileSync(
      this.descriptorPath,
      JSON.stringify({
        pid: this.pid,
        endpoint: this.endpoint,
        protocol: PROTOCOL_VERSION,
        host_version: '0.1.0',
        started_at: 'now',
      }),
      { mode: 0o600 },
    );
    return this;
  }

  send(socket: net.Socket, message: unknown): void {
    socket.write(encodeFrame(message, BRIDGE_MAX_FRAME_BYTES));
  }

  emit(event: string, data: unknown): void {
    for (const socket of this.sockets) this.send(socket, { type: 'event', event, data });
  }

  async stop(): Promise<void> {
    fs.rmSync(this.descriptorPath, { force: true });
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    const reader = new FrameReader(BRIDGE_MAX_FRAME_BYTES);
    let authenticated = false;
    const handshake = new HostHandshake(this.token);
    let proved: 'hello' | 'proof' = 'hello';
    socket.on('data', (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) {
        const value = decodePayload(frame) as Record<string, unknown>;
        if (!authenticated) {
          this.hellos.push(value);
          const answer = proved === 'hello' ? handshake.hello(value) : handshake.proof(value);
          if ('refuse' in answer) {
            this.send(socket, {
              type: 'error',
              error: { code: answer.refuse.code, message: answer.refuse.message },
            });
            socket.end();
            return;
          }
          if ('challenge' in answer) {
            proved = 'proof';
            this.send(socket, answer.challenge);
            continue;
          }
          authenticated = true;
          this.send(socket, { type: 'hello', role: 'host', protocol: this.helloProtocol, host: this.info });
          this.afterHello?.(socket, this.connections);
          if (socket.destroyed) return;
          continue;
        }
        const request = value as unknown as Request;
        this.requests.push(request);
        if (request.command === 'host_status') {
          this.send(socket, { type: 'response', id: request.id, ok: true, result: this.info });
          continue;
        }
        const outcome = this.onRequest(request, socket);
        if (outcome === 'silent') continue;
        this.send(
          socket,
          'result' in outcome
            ? { type: 'response', id: request.id, ok: true, ...outcome }
            : { type: 'response', id: request.id, ok: false, ...outcome },
        );
      }
    });
  }
}

const tabsResult = (browser: string) => ({
  browser: browserInfo(browser),
  tabs: [
    { id: 1, window_id: 1, index: 0, url: 'https://x.test/', title: 'x', active: true, focused_window: true },
  ],
});

let home: string;
let dir: string;
let token: string;
const alive = new Set<number>();
const hosts: FakeHost[] = [];
const clients: BridgeClient[] = [];

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xb-'));
  dir = runtimeDir(home);
  token = ensureToken(home);
  alive.clear();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const host of hosts.splice(0)) await host.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

function client(options: { helloTimeoutMs?: number; timeoutMarginMs?: number } = {}): BridgeClient {
  const bridge = createBridgeClient({
    home,
    workspace: '/ws',
    logger: silentLogger(),
    isPidAlive: (pid) => alive.has(pid),
    retryDelayMs: 10,
    ...options,
  });
  clients.push(bridge);
  return bridge;
}

async function host(
  pid: number,
  browser: string | null,
  onRequest?: OnRequest,
  extra: { token?: string; protocol?: number } = {},
): Promise<FakeHost> {
  alive.add(pid);
  const fake = new FakeHost(
    dir,
    pid,
    extra.token ?? token,
    hostInfo(pid, browser),
    onRequest ?? (() => ({ result: tabsResult(browser ?? 'none') })),
    extra.protocol,
  );
  hosts.push(fake);
  return fake.start();
}

async function rejection(promise: Promise<unknown>): Promise<XipeError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof XipeError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('bridge client discovery', () => {
  it('says where it looked and how to fix it when no host exists', async () => {
    const err = await rejection(client().request('list_tabs', {}));
    expect(err.code).toBe('BACKEND_UNREACHABLE');
    expect(err.message).toContain(dir);
    expect(err.message).toContain(`XIPE_UIUX_HOME=${home}`);
    expect(err.message).toMatch(/x-ipe-uiux start.*x-ipe-uiux doctor/);
  });

  it('ignores and removes the descriptor of a dead host (real pid check)', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stale = path.join(dir, `h-${dead}.json`);
    fs.writeFileSync(
      stale,
      JSON.stringify({
        pid: dead,
        endpoint: path.join(dir, `h-${dead}.sock`),
        protocol: 1,
        host_version: '0',
        started_at: 'x',
      }),
    );
    const bridge = createBridgeClient({ home, workspace: '/ws', logger: silentLogger(), retryDelayMs: 10 });
    clients.push(bridge);
    const err = await rejection(bridge.request('list_tabs', {}));
    expect(err.code).toBe('BACKEND_UNREACHABLE');
    expect(err.message).toMatch(/stale descriptor of dead host pid/i);
    await expect.poll(() => fs.existsSync(stale)).toBe(false);
  });

  it('proves the token without sending it, says its name, pid and workspace, then reuses the connection', async () => {
    const fake = await host(101, 'chromium-a');
    const bridge = client();
    expect(await bridge.request('list_tabs', {})).toEqual(tabsResult('chromium-a'));
    expect(await bridge.request('list_tabs', {})).toEqual(tabsResult('chromium-a'));
    expect(fake.connections).toBe(1);
    expect(fake.hellos).toEqual([
      {
        type: 'hello',
        role: 'mcp',
        protocol: PROTOCOL_VERSION,
        nonce: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      {
        type: 'proof',
        proof: expect.stringMatching(/^[0-9a-f]{64}$/),
        client: { name: 'x-ipe-uiux-mcp', pid: process.pid, workspace: '/ws' },
      },
    ]);
    expect(JSON.stringify(fake.hellos)).not.toContain(token);
    expect(fake.requests.map((r) => [r.id, r.command, r.timeout_ms])).toEqual([
      [1, 'list_tabs', 30_000],
      [2, 'list_tabs', 30_000],
    ]);
  });

  it('refuses a host that cannot prove the token (UNAUTHORIZED) and sends it no proof', async () => {
    const fake = await host(102, 'chromium-a', undefined, { token: 'another-token' });
    const err = await rejection(client().request('list_tabs', {}));
    expect(err.code).toBe('UNAUTHORIZED');
    expect(err.message).toMatch(/could not prove it holds the bridge token/);
    expect(fake.hellos.map((m) => (m as { type: string }).type)).not.toContain('proof');
  });

  it('refuses a host speaking another protocol with PROTOCOL_ERROR', async () => {
    await host(103, 'chromium-a', undefined, { protocol: PROTOCOL_VERSION + 1 });
    const err = await rejection(client().request('list_tabs', {}));
    expect(err.code).toBe('PROTOCOL_ERROR');
    expect(err.message).toMatch(/same x-ipe-uiux version/);
  });

  it('gives up with TIMEOUT when the host never answers, and keeps working afterwards', async () => {
    let answer = false;
    await host(104, 'chromium-a', () => (answer ? { result: tabsResult('chromium-a') } : 'silent'));
    const bridge = client({ timeoutMarginMs: 10 });
    const err = await rejection(bridge.request('list_tabs', {}, { timeoutMs: 30 }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/retry/);
    answer = true;
    expect(await bridge.request('list_tabs', {})).toEqual(tabsResult('chromium-a'));
  });

  it('never repeats a request the host may have received (it could inject or save twice)', async () => {
    let calls = 0;
    const fake = await host(105, 'chromium-a', (_request, socket) => {
      calls += 1;
      socket.destroy();
      return 'silent';
    });
    const err = await rejection(client().request('inject_script', { code: '1' }));
    expect(err.code).toBe('BACKEND_UNREACHABLE');
    expect(err.message).toMatch(/closed before it answered.*may have run; it was not repeated/);
    expect(err.details).toMatchObject({ command: 'inject_script', maybe_delivered: true });
    expect(calls).toBe(1);
    expect(fake.connections).toBe(1);
  });

  it('retries once when the link closed before the request was written', async () => {
    const fake = await host(106, 'chromium-a');
    fake.afterHello = (socket, n) => {
      if (n === 1) socket.destroy();
    };
    expect(await client().request('list_tabs', {})).toEqual(tabsResult('chromium-a'));
    expect(fake.requests.filter((r) => r.command === 'list_tabs')).toHaveLength(1);
    expect(fake.connections).toBe(2);
  });

  it('does not retry more than once', async () => {
    const fake = await host(110, 'chromium-a');
    fake.afterHello = (socket) => socket.destroy();
    const err = await rejection(client().request('list_tabs', {}));
    expect(err.code).toBe('BACKEND_UNREACHABLE');
    expect(fake.requests).toHaveLength(0);
    expect(fake.connections).toBe(2);
  });

  it('in requestEach, asks again only the hosts whose request never left', async () => {
    const a = await host(111, 'chromium-a');
    const b = await host(112, 'chromium-b', (_request, socket) => {
      socket.destroy();
      return 'silent';
    });
    const outcomes = await client().requestEach('list_tabs', {});
    expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
    expect(a.requests.filter((r) => r.command === 'list_tabs')).toHaveLength(1);
    expect(b.requests.filter((r) => r.command === 'list_tabs')).toHaveLength(1);
  });

  it('finds a restarted host on its new socket without a new client', async () => {
    const first = await host(107, 'chromium-a');
    const bridge = client();
    await bridge.request('list_tabs', {});
    await first.stop();
    alive.delete(107);
    const second = await host(108, 'chromium-a');
    expect(await bridge.request('list_tabs', {})).toEqual(tabsResult('chromium-a'));
    expect(second.connections).toBe(1);
  });

  it('lists the runtime dir again only once it changed, and then finds a host started since', async () => {
    const first = await host(114, 'chromium-a');
    const bridge = client();
    const listed = vi.spyOn(fs, 'readdirSync');
    const listings = (): number => listed.mock.calls.filter(([where]) => where === dir).length;
    try {
      await bridge.request('list_tabs', {});
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = listings();
      await bridge.request('list_tabs', {});
      await bridge.hosts();
      expect(listings() - before).toBe(process.platform === 'linux' ? 0 : 2);
      await host(115, 'chromium-b');
      await expect.poll(async () => (await bridge.hosts()).map((h) => h.pid)).toEqual([114, 115]);
      expect(listings()).toBeGreaterThan(before);
      await first.stop();
      await expect.poll(async () => (await bridge.hosts()).map((h) => h.pid)).toEqual([115]);
    } finally {
      listed.mockRestore();
    }
  });

  it('reports a live pid whose endpoint is gone as unreachable (after one retry)', async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    alive.add(109);
    fs.writeFileSync(
      path.join(dir, 'h-109.json'),
      JSON.stringify({
        pid: 109,
        endpoint: path.join(dir, 'h-109.sock'),
        protocol: 1,
        host_version: '0',
        started_at: 'x',
      }),
      { mode: 0o600 },
    );
    const err = await rejection(client().request('list_tabs', {}));
    expect(err.code).toBe('BACKEND_UNREACHABLE');
    expect(err.message).toMatch(/h-109\.json: Host pid 109 has no socket at .*h-109\.sock/);
  });

  it('relays a host error and marks the extension as gone', async () => {
    await host(110, 'chromium-a', () => ({
      error: { code: 'EXTENSION_NOT_CONNECTED', message: 'No browser extension is connected to this host.' },
    }));
    const bridge = client();
    const err = await rejection(bridge.request('list_tabs', {}));
    expect(err.code).toBe('EXTENSION_NOT_CONNECTED');
    const [summary] = await bridge.hosts();
    expect(summary?.info.extension).toBeNull();
  });

  it('refuses a result that does not match the command schema', async () => {
    await host(111, 'chromium-a', () => ({ result: { tabs: 'nope' } }));
    const err = await rejection(client().request('list_tabs', {}));
    expect(err.code).toBe('PROTOCOL_ERROR');
  });

  it('settles an answer that arrived in the same read as an oversized header, then drops the link', async () => {
    const tooBig = Buffer.alloc(4);
    tooBig.writeUInt32LE(BRIDGE_MAX_FRAME_BYTES + 1, 0);
    const fake = await host(113, 'chromium-a', (request, socket) => {
      const answer = { type: 'response', id: request.id, ok: true, result: tabsResult('chromium-a') };
      socket.write(Buffer.concat([encodeFrame(answer, BRIDGE_MAX_FRAME_BYTES), tooBig]));
      return 'silent';
    });
    const bridge = client();
    expect(await bridge.request('list_tabs', {})).toEqual(tabsResult('chromium-a'));
    // The link is gone after the bad header; the next call opens a new one.
    expect(await bridge.request('list_tabs', {})).toEqual(tabsResult('chromium-a'));
    expect(fake.connections).toBe(2);
  });

  it('passes host events to onEvent listeners with the host they came from', async () => {
    const fake = await host(112, 'chromium-a');
    const bridge = client();
    const events: BridgeEvent[] = [];
    bridge.onEvent((event) => events.push(event));
    await bridge.hosts();
    fake.emit('capture', { n: 1 });
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toMatchObject({
      event: 'capture',
      data: { n: 1 },
      host: { pid: 112, key: 'h-112.json' },
    });
  });
});

describe('bridge client with several hosts', () => {
  it('routes by browser, asks for one when ambiguous, and asks every host in requestEach', async () => {
    const a = await host(201, 'chromium-a');
    const b = await host(202, 'chromium-b');
    const bridge = client();
    expect(await bridge.request('list_tabs', {}, { browser: 'chromium-b' })).toEqual(
      tabsResult('chromium-b'),
    );
    expect(b.requests.filter((r) => r.command === 'list_tabs')).toHaveLength(1);
    expect(a.requests.filter((r) => r.command === 'list_tabs')).toHaveLength(0);

    const ambiguous = await rejection(bridge.request('list_tabs', {}));
    expect(ambiguous).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'browser', connected_browsers: ['chromium-a', 'chromium-b'] },
    });
    const unknown = await rejection(bridge.request('list_tabs', {}, { browser: 'chromium-z' }));
    expect(unknown).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'browser' } });

    const outcomes = await bridge.requestEach('list_tabs', {});
    expect(outcomes.map((o) => (o.ok ? o.result.browser.browser_id : o.error.code)).sort()).toEqual([
      'chromium-a',
      'chromium-b',
    ]);
  });

  it('refreshes host info when an extension connected after the hello', async () => {
    const late = await host(203, null, () => ({ result: tabsResult('chromium-late') }));
    await host(204, 'chromium-b');
    const bridge = client();
    await bridge.hosts(); // both connected; 203 without an extension
    late.info = hostInfo(203, 'chromium-late');
    expect(await bridge.request('list_tabs', {}, { browser: 'chromium-late' })).toEqual(
      tabsResult('chromium-late'),
    );
  });

  it('reports every link in status(), reachable or not, and never throws', async () => {
    await host(205, 'chromium-a');
    alive.add(206);
    fs.writeFileSync(
      path.join(dir, 'h-206.json'),
      JSON.stringify({
        pid: 206,
        endpoint: path.join(dir, 'h-206.sock'),
        protocol: 1,
        host_version: '0',
        started_at: 'x',
      }),
      { mode: 0o600 },
    );
    fs.writeFileSync(path.join(dir, 'h-207.json'), '{not json');
    const report = await client().status();
    expect(report).toMatchObject({ home, runtime_dir: dir, token_present: true });
    const byPath = Object.fromEntries(report.hosts.map((h) => [path.basename(h.descriptor_path), h]));
    expect(byPath['h-205.json']).toMatchObject({
      pid: 205,
      reachable: true,
      error: null,
      host: { pid: 205 },
    });
    expect(byPath['h-206.json']).toMatchObject({
      pid: 206,
      pid_alive: true,
      reachable: false,
      error: { code: 'BACKEND_UNREACHABLE' },
    });
    expect(byPath['h-207.json']).toMatchObject({ reachable: false, error: { code: 'PROTOCOL_ERROR' } });
    expect(hosts[0]?.requests.map((r) => r.command)).toContain(TOOL_COMMANDS.bridge_status);
  });

  it("waits for captures by asking each host's buffer (wait_for_captures' command)", async () => {
    const event = {
      seq: 1,
      type: 'element_picked',
      time: '2025-01-01T00:00:00Z',
      browser_id: 'chromium-a',
      tab: { id: 1, url: 'https://x.test/' },
      data: {},
    };
    const fake = await host(208, 'chromium-a', (request) =>
      request.command === TOOL_COMMANDS.wait_for_captures
        ? { result: { events: [event], dropped: 0, last_seq: 1 } }
        : { result: tabsResult('chromium-a') },
    );
    const batch = await client().waitForCaptures({ timeoutMs: 1_000 });
    expect(batch.events).toEqual([event]);
    expect(fake.requests.map((r) => r.command)).toContain(TOOL_COMMANDS.wait_for_captures);
  });
});
