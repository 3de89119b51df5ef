import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BRIDGE_MAX_FRAME_BYTES, PROTOCOL_VERSION } from '../../constants.js';
import type { HostInfo, Request } from '../../envelopes.js';
import type { EndpointDescriptor } from '../endpoint-descriptor.js';
import { decodePayload, encodeFrame, FrameReader } from '../framing.js';
import { HostHandshake } from './handshake.js';
import { probeHost } from './probe.js';

const TOKEN = 'secret-token';
const info: HostInfo = {
  pid: 4242,
  host_version: '0.1.0',
  protocol: PROTOCOL_VERSION,
  started_at: '2025-01-01T00:00:00.000Z',
  endpoint: '/run/h-4242.sock',
  log_file: '/home/logs/host.log',
  extension_connected: false,
  extension: null,
  origin: null,
};

let dir: string;
let server: net.Server;
let seen: Array<Record<string, unknown>>;
/** What the host answers to a request; null = never. */
let answer: (request: Request) => unknown;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xp-'));
  seen = [];
  answer = (request) => ({ type: 'response', id: request.id, ok: true, result: { echoed: request.params } });
  server = net.createServer((socket) => {
    const reader = new FrameReader(BRIDGE_MAX_FRAME_BYTES);
    const handshake = new HostHandshake(TOKEN);
    let step: 'hello' | 'proof' | 'open' = 'hello';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      for (const frame of reader.push(chunk)) {
        const message = decodePayload(frame) as Record<string, unknown>;
        seen.push(message);
        let reply: unknown;
        if (step === 'open') {
          reply = answer(message as Request);
        } else {
          const outcome = step === 'hello' ? handshake.hello(message) : handshake.proof(message);
          if ('refuse' in outcome)
            reply = { type: 'error', error: { code: outcome.refuse.code, message: outcome.refuse.message } };
          else if ('challenge' in outcome) reply = outcome.challenge;
          else reply = { type: 'hello', role: 'host', protocol: PROTOCOL_VERSION, host: info };
          step = step === 'hello' ? 'proof' : 'open';
        }
        if (reply !== null) socket.write(encodeFrame(reply, BRIDGE_MAX_FRAME_BYTES));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path.join(dir, 'h.sock'), resolve));
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

const descriptor = (): EndpointDescriptor => ({
  pid: 4242,
  endpoint: path.join(dir, 'h.sock'),
  protocol: PROTOCOL_VERSION,
  host_version: '0.1.0',
  started_at: info.started_at,
});

describe('probeHost', () => {
  it("proves the token as the CLI without sending it and returns the host's info", async () => {
    expect(await probeHost(descriptor(), TOKEN)).toEqual({ ok: true, host: info });
    expect(seen[0]).toMatchObject({ type: 'hello', role: 'mcp' });
    expect(seen[1]).toMatchObject({ type: 'proof', client: { name: 'x-ipe-uiux-cli' } });
    expect(JSON.stringify(seen)).not.toContain(TOKEN);
  });

  it('sends one request and returns its result or its error', async () => {
    const request = { command: 'inject_toolbar', params: { url_contains: 'x' }, timeout_ms: 1000 };
    expect(await probeHost(descriptor(), TOKEN, { request })).toEqual({
      ok: true,
      host: info,
      result: { echoed: { url_contains: 'x' } },
    });
    answer = (r) => ({
      type: 'response',
      id: r.id,
      ok: false,
      error: { code: 'TAB_NOT_FOUND', message: 'no tab' },
    });
    expect(await probeHost(descriptor(), TOKEN, { request })).toEqual({
      ok: false,
      error: { code: 'TAB_NOT_FOUND', message: 'no tab' },
    });
  });

  it('never throws: a wrong token, a silent host and a missing endpoint are outcomes', async () => {
    expect(await probeHost(descriptor(), 'nope')).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHORIZED' },
    });
    answer = () => null;
    const started = Date.now();
    const silent = await probeHost(descriptor(), TOKEN, {
      timeoutMs: 300,
      request: { command: 'list_tabs', params: {}, timeout_ms: 5000 },
    });
    expect(silent).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(Date.now() - started).toBeLessThan(2000);
    const gone = await probeHost({ ...descriptor(), endpoint: path.join(dir, 'none.sock') }, TOKEN);
    expect(gone).toMatchObject({ ok: false, error: { code: 'BACKEND_UNREACHABLE' } });
  });
});
