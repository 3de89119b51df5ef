import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION } from '#shared/constants.js';
import type { Envelope, ExtensionInfo, HostInfo, Request, Response } from '#shared/envelopes.js';
import { XipeError } from '#shared/errors.js';
import { fakeHostInfo, silent } from '../test-support/fakes.js';
import type { HostContextBase, HostHandler } from './handlers/types.js';
import { Router } from './router.js';
import type { ClientPort, RequestContextParts } from './router-ports.js';

const extensionInfo: ExtensionInfo = {
  id: 'ext',
  version: '1',
  user_scripts_allowed: true,
  browser: { browser_id: 'b-1', name: 'Chromium', version: '1', user_agent: 'ua' },
};

class FakeClient implements ClientPort {
  readonly sent: Envelope[] = [];
  label: string;
  constructor(
    readonly id: number,
    readonly workspace: string | undefined = undefined,
  ) {
    this.label = `client-${id}`;
  }
  send(message: Envelope): void {
    this.sent.push(message);
  }
  responses(): Response[] {
    return this.sent.filter((m): m is Response => m.type === 'response');
  }
}

function setup(options: { handlers?: Record<string, HostHandler>; sendThrows?: Error } = {}) {
  const toExtension: Envelope[] = [];
  const contexts: RequestContextParts[] = [];
  const onFatal = vi.fn();
  const hostInfo = (): HostInfo =>
    fakeHostInfo({ extension_connected: router.extensionConnected, extension: router.extensionInfo });
  const router: Router = new Router({
    logger: silent,
    handlers: options.handlers ?? {},
    hostInfo,
    onFatal,
    relayMarginMs: 100,
    defaultTimeoutMs: 5_000,
    extension: {
      send: (message) => {
        if (options.sendThrows) throw options.sendThrows;
        toExtension.push(message);
      },
    },
    context: (parts) => {
      contexts.push(parts);
      return {
        ...parts,
        logger: silent,
        home: '/h',
        env: {},
        config: { workspaces: [], max_payload_bytes: 1 },
        hostInfo,
      } satisfies HostContextBase;
    },
  });
  const hello = (): void =>
    router.handleExtensionEnvelope(
      { type: 'hello', role: 'extension', protocol: PROTOCOL_VERSION, extension: extensionInfo },
      100,
    );
  const relayed = (): Request[] => toExtension.filter((m): m is Request => m.type === 'request');
  return { router, toExtension, contexts, onFatal, hello, relayed };
}

const request = (
  id: string | number,
  command: string,
  params: unknown = {},
  timeout_ms?: number,
): Envelope =>
  timeout_ms === undefined
    ? { type: 'request', id, command, params }
    : { type: 'request', id, command, params, timeout_ms };

/** Lets the router's async handlers settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Router: native link handshake', () => {
  it('answers the extension hello with a HostHello carrying the extension info', () => {
    const { router, toExtension, hello } = setup();
    expect(router.extensionConnected).toBe(false);
    hello();
    expect(router.extensionConnected).toBe(true);
    expect(toExtension).toHaveLength(1);
    expect(toExtension[0]).toMatchObject({
      type: 'hello',
      role: 'host',
      protocol: PROTOCOL_VERSION,
      host: { extension_connected: true, extension: extensionInfo },
    });
  });

  it('refuses another protocol version with a PROTOCOL_ERROR link error, then gives up', () => {
    const { router, toExtension, onFatal } = setup();
    router.handleExtensionEnvelope(
      { type: 'hello', role: 'extension', protocol: PROTOCOL_VERSION + 1, extension: extensionInfo },
      1,
    );
    expect(toExtension).toEqual([
      { type: 'error', error: expect.objectContaining({ code: 'PROTOCOL_ERROR' }) },
    ]);
    expect(onFatal).toHaveBeenCalledOnce();
    expect(router.extensionConnected).toBe(false);
  });

  it('refuses a non-extension hello on the native link', () => {
    const { router, toExtension, onFatal } = setup();
    router.handleExtensionEnvelope(
      { type: 'hello', role: 'mcp', protocol: PROTOCOL_VERSION, nonce: 'a'.repeat(64) },
      1,
    );
    expect(toExtension[0]).toMatchObject({ type: 'error', error: { code: 'PROTOCOL_ERROR' } });
    expect(onFatal).toHaveBeenCalledOnce();
  });

  it('answers an extension request sent before its hello with PROTOCOL_ERROR', async () => {
    const { router, toExtension } = setup({ handlers: { host_status: async () => 'ok' } });
    router.handleExtensionEnvelope(request('e1', 'host_status'), 10);
    await settle();
    expect(toExtension).toEqual([
      expect.objectContaining({
        id: 'e1',
        ok: false,
        error: expect.objectContaining({ code: 'PROTOCOL_ERROR' }),
      }),
    ]);
  });
});

describe('Router: relaying', () => {
  it('relays under a fresh host-side id and maps the answer back to the client id', () => {
    const { router, hello, relayed } = setup();
    hello();
    const a = new FakeClient(1);
    const b = new FakeClient(2);
    router.addClient(a);
    router.addClient(b);
    router.handleClientValue(a, request('same', 'list_tabs', {}, 2_000), 50);
    router.handleClientValue(b, request('same', 'list_tabs', {}, 2_000), 50);
    const [ra, rb] = relayed();
    expect(ra?.id).not.toBe(rb?.id);
    expect(ra).toMatchObject({ command: 'list_tabs', params: {}, timeout_ms: 2_000 });
    router.handleExtensionEnvelope({ type: 'response', id: rb?.id ?? 0, ok: true, result: 'for b' }, 10);
    router.handleExtensionEnvelope({ type: 'response', id: ra?.id ?? 0, ok: true, result: 'for a' }, 10);
    expect(a.responses()).toEqual([{ type: 'response', id: 'same', ok: true, result: 'for a' }]);
    expect(b.responses()).toEqual([{ type: 'response', id: 'same', ok: true, result: 'for b' }]);
    expect(router.pendingCount).toBe(0);
  });

  it('fails at once with EXTENSION_NOT_CONNECTED before the hello', () => {
    const { router, relayed } = setup();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, request(1, 'list_tabs'), 10);
    expect(relayed()).toEqual([]);
    expect(client.responses()[0]).toMatchObject({
      id: 1,
      ok: false,
      error: { code: 'EXTENSION_NOT_CONNECTED' },
    });
  });

  it('times out after timeout_ms plus the margin and drops the late reply', () => {
    const { router, hello, relayed } = setup();
    hello();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, request('t', 'list_tabs', {}, 1_000), 10);
    vi.advanceTimersByTime(1_099);
    expect(client.responses()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(client.responses()).toEqual([
      expect.objectContaining({ id: 't', ok: false, error: expect.objectContaining({ code: 'TIMEOUT' }) }),
    ]);
    router.handleExtensionEnvelope(
      { type: 'response', id: relayed()[0]?.id ?? 0, ok: true, result: 'late' },
      10,
    );
    expect(client.responses()).toHaveLength(1);
  });

  it('uses the default timeout when the request has none', () => {
    const { router, hello } = setup();
    hello();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, request('d', 'list_tabs'), 10);
    vi.advanceTimersByTime(4_999);
    expect(client.responses()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(client.responses()[0]).toMatchObject({ error: { code: 'TIMEOUT' } });
  });

  it('drops the pending entries of a client that leaves', () => {
    const { router, hello, relayed } = setup();
    hello();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, request(1, 'list_tabs'), 10);
    expect(router.pendingCount).toBe(1);
    router.removeClient(client);
    expect(router.pendingCount).toBe(0);
    router.handleExtensionEnvelope(
      { type: 'response', id: relayed()[0]?.id ?? 0, ok: true, result: null },
      10,
    );
    vi.runAllTimers();
    expect(client.responses()).toEqual([]);
  });

  it('fails every pending relay with EXTENSION_NOT_CONNECTED when the extension goes away', () => {
    const { router, hello } = setup();
    hello();
    const clients = [new FakeClient(1), new FakeClient(2)];
    for (const client of clients) {
      router.addClient(client);
      router.handleClientValue(client, request('p', 'list_tabs'), 10);
    }
    router.extensionGone('stdin closed');
    expect(router.extensionConnected).toBe(false);
    for (const client of clients) {
      expect(client.responses()).toEqual([
        expect.objectContaining({
          id: 'p',
          ok: false,
          error: expect.objectContaining({ code: 'EXTENSION_NOT_CONNECTED' }),
        }),
      ]);
    }
    expect(router.pendingCount).toBe(0);
  });

  it('answers with the error when the message cannot be relayed (too large)', () => {
    const { router, hello } = setup({ sendThrows: new XipeError('PAYLOAD_TOO_LARGE', 'too big') });
    router.handleExtensionEnvelope(
      { type: 'hello', role: 'extension', protocol: PROTOCOL_VERSION, extension: extensionInfo },
      1,
    );
    hello();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, request(9, 'list_tabs'), 10);
    expect(client.responses()[0]).toMatchObject({ id: 9, ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(router.pendingCount).toBe(0);
  });

  it('rejects unknown commands, prototype names and invalid params with VALIDATION_ERROR', () => {
    const { router, hello, relayed } = setup();
    hello();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, request(1, 'drop_tables'), 10);
    router.handleClientValue(client, request(2, 'constructor'), 10);
    router.handleClientValue(client, request(3, 'inject_script', { code: 1 }), 10);
    router.handleClientValue(client, { type: 'request', id: 4, command: '' }, 10);
    expect(client.responses().map((r) => [r.id, r.ok ? 'ok' : r.error.code])).toEqual([
      [1, 'VALIDATION_ERROR'],
      [2, 'VALIDATION_ERROR'],
      [3, 'VALIDATION_ERROR'],
      [4, 'VALIDATION_ERROR'],
    ]);
    expect(relayed()).toEqual([]);
  });

  it('ignores pings and non-request envelopes from clients', () => {
    const { router, hello } = setup();
    hello();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, { type: 'ping' }, 10);
    router.handleClientValue(client, { type: 'event', event: 'x', data: null }, 10);
    router.handleClientValue(client, 'garbage', 10);
    expect(client.sent).toEqual([]);
  });
});

describe('Router: host handlers', () => {
  it('runs host commands locally with the client workspace and a live signal', async () => {
    const handler = vi.fn<HostHandler>(async (_params, ctx) => ({
      workspace: ctx.workspace,
      source: ctx.source,
    }));
    const { router, relayed, contexts } = setup({ handlers: { host_status: handler } });
    const client = new FakeClient(1, '/ws');
    router.addClient(client);
    router.handleClientValue(client, request('h', 'host_status'), 123);
    await settle();
    expect(relayed()).toEqual([]);
    expect(client.responses()).toEqual([
      { type: 'response', id: 'h', ok: true, result: { workspace: '/ws', source: 'bridge' } },
    ]);
    expect(contexts[0]).toMatchObject({ source: 'bridge', workspace: '/ws', payloadBytes: 123 });
    expect(contexts[0]?.signal.aborted).toBe(false);
    router.removeClient(client);
    expect(contexts[0]?.signal.aborted).toBe(true);
  });

  it('maps handler errors to failure responses (XipeError kept, others INTERNAL_ERROR)', async () => {
    const { router } = setup({
      handlers: {
        host_status: async (params) => {
          if ((params as { kind?: string }).kind === 'x')
            throw new XipeError('IDEA_NOT_FOUND', 'Idea folder not found: a');
          throw new TypeError('bug');
        },
      },
    });
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleClientValue(client, request(1, 'host_status', { kind: 'x' }), 10);
    router.handleClientValue(client, request(2, 'host_status', {}), 10);
    await settle();
    expect(client.responses()).toEqual([
      {
        type: 'response',
        id: 1,
        ok: false,
        error: { code: 'IDEA_NOT_FOUND', message: 'Idea folder not found: a' },
      },
      { type: 'response', id: 2, ok: false, error: { code: 'INTERNAL_ERROR', message: 'bug' } },
    ]);
  });

  it('answers extension requests through the same handlers, on the native link', async () => {
    const { router, hello, toExtension, contexts } = setup({
      handlers: { host_status: async () => undefined },
    });
    hello();
    router.handleExtensionEnvelope(request('e1', 'host_status'), 77);
    router.handleExtensionEnvelope(request('e2', 'list_tabs'), 10);
    await settle();
    const responses = toExtension.filter((m): m is Response => m.type === 'response');
    expect(responses).toEqual([
      expect.objectContaining({
        id: 'e2',
        ok: false,
        error: expect.objectContaining({ code: 'VALIDATION_ERROR' }),
      }),
      // undefined becomes null: the `result` key must exist on the wire
      { type: 'response', id: 'e1', ok: true, result: null },
    ]);
    expect(contexts[0]).toMatchObject({ source: 'extension', workspace: undefined, payloadBytes: 77 });
  });

  it('lets running handlers finish and answer after stop (a save is never cut off)', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { router, hello, toExtension } = setup({
      handlers: {
        host_status: async () => {
          await gate;
          return 'saved';
        },
      },
    });
    hello();
    router.handleExtensionEnvelope(request('s1', 'host_status'), 10);
    router.stop('stdin closed');
    let settled = false;
    const done = router.settled().then(() => {
      settled = true;
    });
    await settle();
    expect(settled).toBe(false);
    release();
    await done;
    expect(toExtension.at(-1)).toEqual({ type: 'response', id: 's1', ok: true, result: 'saved' });
  });

  it('answers an invalid extension request that still has an id', () => {
    const { router, toExtension } = setup();
    router.handleExtensionInvalid({ type: 'request', id: 'bad', command: 5 }, 'command: expected string');
    router.handleExtensionInvalid({ type: 'nonsense' }, 'invalid');
    expect(toExtension).toEqual([expect.objectContaining({ id: 'bad', ok: false })]);
  });
});

describe('Router: events', () => {
  it('broadcasts extension events to every client, and survives a client that cannot take it', () => {
    const { router, hello } = setup();
    hello();
    const good = new FakeClient(1);
    const broken = new FakeClient(2);
    broken.send = () => {
      throw new Error('frame too large');
    };
    const other = new FakeClient(3);
    for (const client of [good, broken, other]) router.addClient(client);
    router.handleExtensionEnvelope({ type: 'event', event: 'captures_changed', data: { n: 1 } }, 10);
    expect(good.sent).toEqual([{ type: 'event', event: 'captures_changed', data: { n: 1 } }]);
    expect(other.sent).toEqual(good.sent);
  });

  it('drops events sent before the hello and ignores pings', () => {
    const { router, toExtension } = setup();
    const client = new FakeClient(1);
    router.addClient(client);
    router.handleExtensionEnvelope({ type: 'event', event: 'early', data: null }, 10);
    router.handleExtensionEnvelope({ type: 'ping' }, 10);
    expect(client.sent).toEqual([]);
    expect(toExtension).toEqual([]);
  });
});
