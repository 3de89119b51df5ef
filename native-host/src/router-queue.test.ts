import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAPTURE_QUEUE_EVENT } from '#shared/commands/capture-queue.js';
import { PROTOCOL_VERSION } from '#shared/constants.js';
import type { Envelope, Request, Response } from '#shared/envelopes.js';
import { fakeHostInfo, silent } from '../test-support/fakes.js';
import { passOn, requesterOf } from './handlers/queue-progress.js';
import type { HostContextBase, HostHandler } from './handlers/types.js';
import { Router } from './router.js';
import type { ClientPort } from './router-ports.js';

/**
 * The host's part of captures taking turns: the extension's word that a request waits in its
 * capture queue pauses the host's time limit and reaches the client under its own id; a client's
 * cancel reaches the extension under the host's id, for relayed requests and the host's own.
 */

class FakeClient implements ClientPort {
  readonly sent: Envelope[] = [];
  readonly label = 'x-ipe-mcp 42';
  readonly workspace = undefined;
  constructor(readonly id: number) {}
  send(message: Envelope): void {
    this.sent.push(message);
  }
  of<T extends Envelope['type']>(type: T): Extract<Envelope, { type: T }>[] {
    return this.sent.filter((m): m is Extract<Envelope, { type: T }> => m.type === type);
  }
}

function setup(handlers: Record<string, HostHandler> = {}) {
  const toExtension: Envelope[] = [];
  const router: Router = new Router({
    logger: silent,
    handlers,
    hostInfo: () => fakeHostInfo({}),
    onFatal: vi.fn(),
    relayMarginMs: 100,
    defaultTimeoutMs: 5_000,
    extension: { send: (message) => void toExtension.push(message) },
    context: (parts) =>
      ({
        ...parts,
        logger: silent,
        home: '/h',
        env: {},
        config: { workspaces: [], max_payload_bytes: 1 },
        hostInfo: () => fakeHostInfo({}),
      }) satisfies HostContextBase,
  });
  router.handleExtensionEnvelope(
    {
      type: 'hello',
      role: 'extension',
      protocol: PROTOCOL_VERSION,
      extension: {
        id: 'ext',
        version: '1',
        user_scripts_allowed: true,
        browser: { browser_id: 'b-1', name: 'Chromium', version: '1', user_agent: 'ua' },
      },
    },
    100,
  );
  const client = new FakeClient(1);
  router.addClient(client);
  const relayed = (): Request[] => toExtension.filter((m): m is Request => m.type === 'request');
  const responses = (): Response[] => client.of('response');
  return { router, client, toExtension, relayed, responses };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const queued = (id: number, message = 'queued behind 1 capture: capture_area of tab 5 (other)') =>
  ({ type: 'progress', id, state: 'queued', message, queued_ms: 0 }) as const;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Router: captures waiting their turn', () => {
  it('pauses a relayed request while the extension says it is queued, then counts its limit in full', () => {
    const { router, client, relayed, responses } = setup();
    router.handleClientValue(
      client,
      { type: 'request', id: 'c1', command: 'list_tabs', params: {}, timeout_ms: 1_000 },
      10,
    );
    const relayId = relayed()[0]?.id as number;
    vi.advanceTimersByTime(900);
    router.handleExtensionEnvelope(queued(relayId), 10);
    expect(client.of('progress')).toEqual([{ ...queued(relayId), id: 'c1' }]);
    vi.advanceTimersByTime(60_000);
    expect(responses()).toEqual([]);
    router.handleExtensionEnvelope(
      { type: 'progress', id: relayId, state: 'started', message: 'started', queued_ms: 60_000 },
      10,
    );
    vi.advanceTimersByTime(1_099);
    expect(responses()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(responses()[0]).toMatchObject({ id: 'c1', ok: false, error: { code: 'TIMEOUT' } });
  });

  it("passes a client's cancel of a relayed request on to the extension and answers it as cancelled", () => {
    const { router, client, relayed, toExtension, responses } = setup();
    router.handleClientValue(client, { type: 'request', id: 7, command: 'list_tabs', params: {} }, 10);
    const relayId = relayed()[0]?.id as number;
    router.handleClientValue(client, { type: 'cancel', id: 7 }, 10);
    expect(toExtension.at(-1)).toEqual({ type: 'cancel', id: relayId });
    expect(responses()).toEqual([
      expect.objectContaining({ id: 7, ok: false, error: expect.objectContaining({ code: 'TIMEOUT' }) }),
    ]);
    expect(router.pendingCount).toBe(0);
  });

  it('cancels in the extension what a client that left was waiting for', () => {
    const { router, client, relayed, toExtension } = setup();
    router.handleClientValue(client, { type: 'request', id: 7, command: 'list_tabs', params: {} }, 10);
    router.removeClient(client);
    expect(toExtension.at(-1)).toEqual({ type: 'cancel', id: relayed()[0]?.id });
  });

  it("tells the client where the host's own capture waits, names it to the extension, and cancels it with the call", async () => {
    let signal: AbortSignal | null = null;
    const handler: HostHandler = (_params, ctx) => {
      signal = ctx.signal;
      return ctx.extension.request(
        'capture_screenshot',
        { mode: 'viewport', ...requesterOf(ctx) },
        { timeoutMs: 1_000, signal: ctx.signal, onProgress: passOn(ctx) },
      );
    };
    const { router, client, relayed, toExtension, responses } = setup({ save_screenshot: handler });
    router.handleClientValue(
      client,
      { type: 'request', id: 'shot', command: 'save_screenshot', params: {} },
      10,
    );
    await settle();
    const asked = relayed()[0];
    expect(asked?.params).toEqual({ mode: 'viewport', client: 'x-ipe-mcp 42 #1' });
    router.handleExtensionEnvelope(queued(asked?.id as number), 10);
    expect(client.of('progress')).toEqual([{ ...queued(0), id: 'shot' }]);
    vi.advanceTimersByTime(30_000); // paused: no TIMEOUT while queued
    expect(responses()).toEqual([]);
    router.handleClientValue(client, { type: 'cancel', id: 'shot' }, 10);
    await settle();
    expect((signal as AbortSignal | null)?.aborted).toBe(true);
    expect(toExtension.at(-1)).toEqual({ type: 'cancel', id: asked?.id });
    expect(responses()[0]).toMatchObject({ id: 'shot', ok: false, error: { code: 'TIMEOUT' } });
  });

  it('keeps the capture queue the extension reports for host_status, without passing it to clients', () => {
    const { router, client } = setup();
    const jobs = [
      { window_id: 1, tab_id: 5, label: 'capture_area', client: 'a', state: 'running', for_ms: 40 },
      { window_id: 1, tab_id: 6, label: 'toolbar crop', client: 'toolbar', state: 'waiting', for_ms: 10 },
    ];
    expect(router.captureQueue).toBeNull();
    router.handleExtensionEnvelope({ type: 'event', event: CAPTURE_QUEUE_EVENT, data: { jobs } }, 10);
    expect(router.captureQueue).toEqual(jobs);
    expect(client.of('event')).toEqual([]);
    router.extensionGone('test');
    expect(router.captureQueue).toBeNull();
  });
});
