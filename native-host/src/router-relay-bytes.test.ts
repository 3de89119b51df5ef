import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../shared/src/constants.js';
import type { Envelope, HostInfo, RequestId } from '../../shared/src/envelopes.js';
import { fakeHostInfo, silent } from '../test-support/fakes.js';
import { withId } from './relay-frames.js';
import { Router } from './router.js';
import type { ClientPort } from './router-ports.js';

// The host relays a client's request and the extension's success as the bytes they came in, with
// only the id replaced (relay-frames.ts); anything it cannot relay that way goes as before.

/** A port that takes relayed bytes (when `accepts`) and records what it got either way. */
class BytePort {
  readonly messages: Envelope[] = [];
  readonly frames: unknown[] = [];
  send(message: Envelope): void {
    this.messages.push(message);
  }
  requests(): Envelope[] {
    return this.messages.filter((m) => m.type === 'request');
  }
  constructor(
    private readonly accepts = true,
    /** What it relays came from a bridge client (the extension's port) or the extension (a client's). */
    private readonly untrusted = true,
  ) {}
  relay(payload: Buffer, id: RequestId): boolean {
    if (!this.accepts) return false;
    const body = withId(payload, id, this.untrusted);
    if (body === null) return false;
    this.frames.push(JSON.parse(body.toString('utf8')));
    return true;
  }
}

class Client extends BytePort implements ClientPort {
  constructor() {
    super(true, false);
  }
  readonly id = 1;
  readonly label = 'client-1';
  readonly workspace = undefined;
}

function setup(extension: BytePort, client: Client) {
  const hostInfo = (): HostInfo => fakeHostInfo();
  const router = new Router({
    logger: silent,
    handlers: {},
    hostInfo,
    onFatal: () => {},
    extension,
    context: () => {
      throw new Error('no host handler runs here');
    },
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
  router.addClient(client);
  /** A frame from the client, as the bridge hands it over: parsed value, size and bytes. */
  const fromClient = (value: unknown): void => {
    const payload = Buffer.from(JSON.stringify(value));
    router.handleClientValue(client, value, payload.length, payload);
  };
  const fromExtension = (value: Envelope): void => {
    const payload = Buffer.from(JSON.stringify(value));
    router.handleExtensionEnvelope(value, payload.length, payload);
  };
  /** A frame the bridge offers from its bytes first (envelope-memo.ts); true when the router took it. */
  const frameFromClient = (value: unknown): boolean =>
    router.handleClientFrame(client, Buffer.from(JSON.stringify(value)));
  return { fromClient, fromExtension, frameFromClient };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const params = { code_sha256: 'a'.repeat(64), target: { url_contains: '/x' }, world: 'isolated' };

describe('the host relays envelopes as bytes', () => {
  it('passes a request on under a relay id and the success back under the client id, bytes intact', async () => {
    const extension = new BytePort();
    const client = new Client();
    const { fromClient, fromExtension } = setup(extension, client);
    fromClient({ type: 'request', id: 'c-7', command: 'inject_script', params, timeout_ms: 500 });
    await settle();
    expect(extension.requests()).toEqual([]);
    const [forwarded] = extension.frames as Array<{ id: number }>;
    expect(forwarded).toEqual({
      type: 'request',
      id: expect.any(Number),
      command: 'inject_script',
      params,
      timeout_ms: 500,
    });
    const result = {
      returnValue: { nested: ['é', 1] },
      tab: { id: 1, url: 'u', title: 't' },
      method: 'userScripts',
    };
    fromExtension({ type: 'response', id: forwarded?.id ?? -1, ok: true, result });
    expect(client.messages).toEqual([]);
    expect(client.frames).toEqual([{ type: 'response', id: 'c-7', ok: true, result }]);
  });

  it('still checks the request it relays: invalid params are refused, nothing reaches the extension', async () => {
    const extension = new BytePort();
    const client = new Client();
    const { fromClient } = setup(extension, client);
    fromClient({ type: 'request', id: 2, command: 'inject_script', params: { code: 42 } });
    await settle();
    expect(extension.frames).toEqual([]);
    expect(client.messages).toMatchObject([
      { type: 'response', id: 2, ok: false, error: { code: 'VALIDATION_ERROR' } },
    ]);
  });

  it('sends failures and what a port cannot take as parsed envelopes, as before', async () => {
    const extension = new BytePort(false);
    const client = new Client();
    const { fromClient, fromExtension } = setup(extension, client);
    fromClient({ type: 'request', id: 3, command: 'inject_script', params });
    fromClient({ type: 'request', id: 4, command: 'inject_script', params });
    await settle();
    const [a, b] = extension.requests() as Array<{ id: number }>;
    expect(extension.requests()).toMatchObject([
      { type: 'request', command: 'inject_script', params },
      { type: 'request', command: 'inject_script', params },
    ]);
    fromExtension({
      type: 'response',
      id: a?.id ?? -1,
      ok: false,
      error: { code: 'SCRIPT_ERROR', message: 'boom' },
    });
    fromExtension({ type: 'response', id: b?.id ?? -1, ok: true, result: { returnValue: 1 } });
    expect(client.messages).toMatchObject([
      { type: 'response', id: 3, ok: false, error: { code: 'SCRIPT_ERROR', message: 'boom' } },
    ]);
    expect(client.frames).toEqual([{ type: 'response', id: 4, ok: true, result: { returnValue: 1 } }]);
  });

  it('relays a repeated request from its bytes under its new id; one it refused is checked again', async () => {
    const extension = new BytePort();
    const client = new Client();
    const { fromClient, fromExtension, frameFromClient } = setup(extension, client);
    const request = (id: number, p: unknown = params) => ({
      type: 'request',
      id,
      command: 'inject_script',
      params: p,
    });
    expect(frameFromClient(request(1))).toBe(false); // never parsed: decoded as usual
    fromClient(request(1));
    expect(frameFromClient(request(2))).toBe(true);
    expect(frameFromClient(request(3, { ...params, world: 'main' }))).toBe(false);
    const bad = { code: 42 };
    fromClient(request(4, bad));
    expect(frameFromClient(request(5, bad))).toBe(false);
    fromClient(request(5, bad));
    await settle();
    const frames = extension.frames as Array<{ id: number }>;
    expect(frames).toHaveLength(2);
    expect(new Set(frames.map((f) => f.id)).size).toBe(2);
    fromExtension({ type: 'response', id: frames[1]?.id ?? -1, ok: true, result: { returnValue: 2 } });
    expect(client.frames).toEqual([{ type: 'response', id: 2, ok: true, result: { returnValue: 2 } }]);
    expect(client.messages).toMatchObject([
      { type: 'response', id: 4, ok: false, error: { code: 'VALIDATION_ERROR' } },
      { type: 'response', id: 5, ok: false, error: { code: 'VALIDATION_ERROR' } },
    ]);
  });
});
