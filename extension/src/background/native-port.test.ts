import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { splitIntoChunks } from '#shared/chunking.js';
import { type ExtensionHello, PROTOCOL_VERSION, type Request, type Response } from '#shared/index.js';
import type { Runtime } from '../platform/browser.js';
import type { RequestScope } from './handlers/types.js';

const runtime: { lastError: { message: string } | undefined } = { lastError: undefined };
// Chrome reports why a port closed in runtime.lastError, read by the seam's disconnectReason.
vi.mock('../platform/browser.js', () => ({
  browser: {},
  disconnectReason: () => runtime.lastError?.message ?? null,
  userScriptsApi: () => null,
}));

const { NativeHostLink, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS } = await import('./native-port.js');

type Listener<T extends unknown[]> = (...args: T) => void;

/** A stand-in for a runtime.Port: records what the worker posts, lets the test play the host. */
class FakePort {
  readonly posted: unknown[] = [];
  private readonly messageListeners: Listener<[unknown]>[] = [];
  private readonly disconnectListeners: Listener<[]>[] = [];
  readonly onMessage = { addListener: (l: Listener<[unknown]>) => this.messageListeners.push(l) };
  readonly onDisconnect = { addListener: (l: Listener<[]>) => this.disconnectListeners.push(l) };
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  fromHost(message: unknown): void {
    for (const l of this.messageListeners) l(message);
  }
  disconnect(error?: string): void {
    runtime.lastError = error === undefined ? undefined : { message: error };
    for (const l of this.disconnectListeners) l();
    runtime.lastError = undefined;
  }
}

const hello: ExtensionHello = {
  type: 'hello',
  role: 'extension',
  protocol: PROTOCOL_VERSION,
  extension: {
    id: 'x',
    version: '0.1.0',
    user_scripts_allowed: true,
    browser: { browser_id: 'chromium-abc', name: 'chromium', version: '156', user_agent: 'ua' },
  },
};
const hostHello = {
  type: 'hello',
  role: 'host',
  protocol: PROTOCOL_VERSION,
  host: {
    pid: 1,
    host_version: '0.1.0',
    protocol: PROTOCOL_VERSION,
    started_at: 'now',
    endpoint: '/tmp/s',
    log_file: '/tmp/l',
    extension_connected: true,
    extension: null,
    origin: null,
  },
};

describe('NativeHostLink', () => {
  let ports: FakePort[];
  let requests: Request[];
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };

  const makeLink = () =>
    new NativeHostLink({
      hostName: 'com.xipe.uiux_reference',
      hello: async () => hello,
      onRequest: async (request): Promise<Response> => {
        requests.push(request);
        return { type: 'response', id: request.id, ok: true, result: { echoed: request.params } };
      },
      log: quiet,
      connectNative: () => {
        const port = new FakePort();
        ports.push(port);
        return port as unknown as Runtime.Port;
      },
    });

  beforeEach(() => {
    vi.useFakeTimers();
    ports = [];
    requests = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says hello on connect and is connected after the host hello', async () => {
    const link = makeLink();
    link.ensureConnected('test');
    await vi.advanceTimersByTimeAsync(0);
    expect(ports[0]?.posted).toEqual([hello]);
    expect(link.state).toBe('connecting');
    ports[0]?.fromHost(hostHello);
    expect(link.state).toBe('connected');
    link.ensureConnected('again');
    expect(ports).toHaveLength(1);
  });

  it('reconnects with exponential back-off capped at 30 s, never in a tight loop', async () => {
    const link = makeLink();
    link.ensureConnected('test');
    const delays: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const port = ports.at(-1);
      port?.disconnect('Specified native messaging host not found.');
      expect(link.state).toBe('waiting');
      // A burst of tab events while waiting must not connect early.
      for (let i = 0; i < 50; i += 1) link.ensureConnected('tab updated');
      const before = ports.length;
      let waited = 0;
      while (ports.length === before) {
        await vi.advanceTimersByTimeAsync(50);
        waited += 50;
      }
      delays.push(waited);
    }
    expect(delays[0]).toBe(INITIAL_BACKOFF_MS);
    expect(delays[1]).toBe(INITIAL_BACKOFF_MS * 2);
    expect(delays.at(-1)).toBe(MAX_BACKOFF_MS);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
  });

  it('resets the back-off after a successful hello', async () => {
    const link = makeLink();
    link.ensureConnected('test');
    for (let i = 0; i < 4; i += 1) {
      ports.at(-1)?.disconnect('host exited');
      await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS);
    }
    ports.at(-1)?.fromHost(hostHello);
    const count = ports.length;
    ports.at(-1)?.disconnect();
    await vi.advanceTimersByTimeAsync(INITIAL_BACKOFF_MS);
    expect(ports.length).toBe(count + 1);
  });

  it('answers requests, including one reassembled from chunks', async () => {
    const link = makeLink();
    link.ensureConnected('test');
    await vi.advanceTimersByTimeAsync(0);
    const port = ports[0];
    port?.fromHost(hostHello);
    port?.fromHost({ type: 'request', id: 1, command: 'list_tabs', params: {} });
    const big: Request = {
      type: 'request',
      id: 'r2',
      command: 'inject_script',
      params: { code: 'x'.repeat(10_000) },
    };
    for (const chunk of splitIntoChunks(JSON.stringify(big), 's1', 3_000)) port?.fromHost(chunk);
    port?.fromHost({ type: 'nonsense' });
    await vi.advanceTimersByTimeAsync(0);
    expect(requests.map((r) => r.id)).toEqual([1, 'r2']);
    expect(requests[1]).toEqual(big);
    expect(port?.posted.slice(1)).toEqual([
      { type: 'response', id: 1, ok: true, result: { echoed: {} } },
      { type: 'response', id: 'r2', ok: true, result: { echoed: big.params } },
    ]);
    expect(link.state).toBe('connected');
  });

  it("gives each request the host's cancel and a way to say it waits its turn", async () => {
    const scopes: RequestScope[] = [];
    const link = new NativeHostLink({
      hostName: 'com.xipe.uiux_reference',
      hello: async () => hello,
      onRequest: (request, scope) => {
        scopes.push(scope);
        scope.progress?.({ state: 'queued', message: 'queued behind 1 capture', queued_ms: 0 });
        // Answers once the host gives up on it.
        return new Promise((resolve) =>
          scope.signal?.addEventListener('abort', () =>
            resolve({
              type: 'response',
              id: request.id,
              ok: false,
              error: { code: 'TIMEOUT', message: 'cancelled' },
            }),
          ),
        );
      },
      log: quiet,
      connectNative: () => {
        const port = new FakePort();
        ports.push(port);
        return port as unknown as Runtime.Port;
      },
    });
    link.ensureConnected('test');
    await vi.advanceTimersByTimeAsync(0);
    const port = ports[0];
    port?.fromHost(hostHello);
    port?.fromHost({ type: 'request', id: 7, command: 'capture_screenshot', params: {} });
    port?.fromHost({ type: 'request', id: 8, command: 'capture_screenshot', params: {} });
    expect(port?.posted.slice(1)).toEqual([
      { type: 'progress', id: 7, state: 'queued', message: 'queued behind 1 capture', queued_ms: 0 },
      { type: 'progress', id: 8, state: 'queued', message: 'queued behind 1 capture', queued_ms: 0 },
    ]);
    port?.fromHost({ type: 'cancel', id: 8 });
    expect(scopes.map((s) => s.signal?.aborted)).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(0);
    expect(port?.posted.at(-1)).toMatchObject({ type: 'response', id: 8, ok: false });
    // The link going away cancels what is still running.
    port?.disconnect();
    expect(scopes[0]?.signal?.aborted).toBe(true);
  });
});
