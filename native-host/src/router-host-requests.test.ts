import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '#shared/constants.js';
import type { Envelope, ExtensionInfo, Request } from '#shared/envelopes.js';
import { fakeHostInfo, silent } from '../test-support/fakes.js';
import type { HostHandler, HostHandlerContext } from './handlers/types.js';
import { Router } from './router.js';
import type { ClientPort } from './router-ports.js';

/**
 * The router's additions for the host's own requests to the extension (ctx.extension,
 * used by save_screenshot), and capture events numbered, kept and broadcast (ctx.events).
 */
const extensionInfo: ExtensionInfo = {
  id: 'ext',
  version: '1',
  user_scripts_allowed: true,
  browser: { browser_id: 'chromium-1', name: 'chromium', version: '1', user_agent: 'ua' },
};

function setup(handlers: Record<string, HostHandler> = {}) {
  const toExtension: Envelope[] = [];
  let captured: HostHandlerContext | null = null;
  const router = new Router({
    logger: silent,
    handlers: {
      grab: async (_params, ctx) => {
        captured = ctx;
        return ctx.extension.request('capture_screenshot', { mode: 'viewport' }, { timeoutMs: 50 });
      },
      ...handlers,
    },
    hostInfo: () => fakeHostInfo({ extension: extensionInfo }),
    onFatal: () => {},
    relayMarginMs: 10,
    extension: { send: (m) => toExtension.push(m) },
    context: (parts) => ({
      ...parts,
      logger: silent,
      home: '/h',
      env: {},
      config: { workspaces: [], max_payload_bytes: 1 },
      hostInfo: () => {
        throw new Error('unused');
      },
    }),
    commands: {
      grab: {
        handledBy: 'host',
        params: { safeParse: () => ({ success: true }) } as never,
        result: {} as never,
      },
    },
  });
  const client = {
    id: 1,
    label: 'c',
    workspace: '/ws',
    sent: [] as Envelope[],
    send(m: Envelope) {
      this.sent.push(m);
    },
  };
  router.addClient(client satisfies ClientPort);
  const hello = () =>
    router.handleExtensionEnvelope(
      { type: 'hello', role: 'extension', protocol: PROTOCOL_VERSION, extension: extensionInfo },
      10,
    );
  return { router, toExtension, client, hello, context: () => captured };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const grab: Envelope = { type: 'request', id: 'r1', command: 'grab', params: {} };

describe('Router: requests of the host itself to the extension', () => {
  it('sends them under a relay id and resolves with the extension’s answer', async () => {
    const { router, toExtension, client, hello } = setup();
    hello();
    router.handleClientValue(client, grab, 10);
    await settle();
    const sent = toExtension.find((m): m is Request => m.type === 'request');
    expect(sent).toMatchObject({
      command: 'capture_screenshot',
      params: { mode: 'viewport' },
      timeout_ms: 50,
    });
    router.handleExtensionEnvelope(
      { type: 'response', id: sent?.id ?? 0, ok: true, result: { png: 'x' } },
      10,
    );
    await settle();
    expect(client.sent).toEqual([{ type: 'response', id: 'r1', ok: true, result: { png: 'x' } }]);
  });

  it('passes the extension’s error, a timeout, and a lost extension on as errors', async () => {
    const { router, toExtension, client, hello } = setup();
    hello();
    router.handleClientValue(client, grab, 10);
    await settle();
    const first = toExtension.filter((m): m is Request => m.type === 'request')[0];
    router.handleExtensionEnvelope(
      { type: 'response', id: first?.id ?? 0, ok: false, error: { code: 'TAB_NOT_FOUND', message: 'gone' } },
      10,
    );
    await settle();
    expect(client.sent.at(-1)).toMatchObject({ ok: false, error: { code: 'TAB_NOT_FOUND' } });

    router.handleClientValue(client, { ...grab, id: 'r2' }, 10);
    await new Promise((r) => setTimeout(r, 120));
    expect(client.sent.at(-1)).toMatchObject({ id: 'r2', ok: false, error: { code: 'TIMEOUT' } });

    router.handleClientValue(client, { ...grab, id: 'r3' }, 10);
    await settle();
    router.extensionGone('port closed');
    await settle();
    expect(client.sent.at(-1)).toMatchObject({
      id: 'r3',
      ok: false,
      error: { code: 'EXTENSION_NOT_CONNECTED' },
    });
    router.handleClientValue(client, { ...grab, id: 'r4' }, 10);
    await settle();
    expect(client.sent.at(-1)).toMatchObject({
      id: 'r4',
      ok: false,
      error: { code: 'EXTENSION_NOT_CONNECTED' },
    });
  });
});

describe('Router: capture events', () => {
  const picked = {
    tab_id: 4,
    page_url: 'https://x.test/',
    at: '2025-01-01T00:00:00.000Z',
    key: 'k',
    kind: 'element',
    selector: 'h1',
    tag: 'h1',
    bounding_box: { x: 0, y: 0, width: 1, height: 1 },
    crop: null,
    png: 'bytes that must not travel',
  };

  it('numbers, keeps and broadcasts valid capture events without extra keys; other events pass as they are', async () => {
    const { router, client, hello } = setup();
    hello();
    router.handleExtensionEnvelope({ type: 'event', event: 'element_picked', data: picked }, 10);
    router.handleExtensionEnvelope({ type: 'event', event: 'color_picked', data: { nope: true } }, 10);
    router.handleExtensionEnvelope({ type: 'event', event: 'custom', data: { any: 1 } }, 10);
    expect(client.sent).toHaveLength(2);
    expect(client.sent[0]).toMatchObject({
      type: 'event',
      event: 'element_picked',
      seq: 1,
      data: { seq: 1, browser_id: 'chromium-1', tab: { id: 4 }, data: { selector: 'h1' } },
    });
    expect(JSON.stringify(client.sent[0])).not.toContain('must not travel');
    expect(client.sent[1]).toEqual({ type: 'event', event: 'custom', data: { any: 1 } });
    expect(router.events.since(0).events).toHaveLength(1);
  });

  it('gives handlers the buffer through ctx.events', async () => {
    const { router, client, hello, context } = setup();
    hello();
    router.handleExtensionEnvelope({ type: 'event', event: 'element_picked', data: picked }, 10);
    router.handleClientValue(client, grab, 10);
    await settle();
    expect(context()?.events.since(0).last_seq).toBe(1);
  });
});
