import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN, HOST_TO_EXTENSION_MAX_BYTES, PROTOCOL_VERSION } from '#shared/constants.js';
import type { Request } from '#shared/envelopes.js';
import { XipeError } from '#shared/errors.js';
import { endpointDescriptorPath, endpointPath, runtimeDir } from '#shared/node/paths.js';
import { BridgeTestClient, DEFAULT_EXTENSION_INFO, FakeExtension } from '../helpers/fake-extension.js';

const hosts: FakeExtension[] = [];
const clients: BridgeTestClient[] = [];

async function startHost(options: Parameters<typeof FakeExtension.start>[0] = {}): Promise<FakeExtension> {
  const ext = await FakeExtension.start(options);
  hosts.push(ext);
  return ext;
}

async function connect(ext: FakeExtension, options: Parameters<FakeExtension['connectClient']>[0] = {}) {
  const client = await ext.connectClient(options);
  clients.push(client);
  return client;
}

const TABS = { browser: DEFAULT_EXTENSION_INFO.browser, tabs: [] };

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  for (const ext of hosts.splice(0)) {
    await ext.dispose();
    // stdout is a wire: whatever happened in the test, only valid frames within Chrome's cap.
    expect(ext.stdoutProblems).toEqual([]);
    for (const frame of ext.frames) expect(frame.bytes).toBeLessThanOrEqual(HOST_TO_EXTENSION_MAX_BYTES);
  }
});

describe('x-ipe-uiux host (real process)', () => {
  it('answers the extension hello with its HostInfo and publishes a descriptor', async () => {
    const ext = await startHost();
    const info = ext.hostInfo;
    expect(info).not.toBeNull();
    expect(info?.pid).toBe(ext.pid);
    expect(info?.protocol).toBe(PROTOCOL_VERSION);
    expect(info?.extension_connected).toBe(true);
    expect(info?.extension?.id).toBe(DEFAULT_EXTENSION_INFO.id);
    expect(info?.origin).toBe(EXTENSION_ORIGIN);
    expect(info?.log_file).toBe(ext.logFile());
    const descriptor = await ext.descriptor();
    expect(descriptor).toMatchObject({
      pid: ext.pid,
      endpoint: endpointPath(ext.home, ext.pid),
      protocol: PROTOCOL_VERSION,
    });
    expect(info?.endpoint).toBe(descriptor.endpoint);
  });

  it('keeps the runtime dir 0700 and the socket and descriptor 0600', async () => {
    const ext = await startHost();
    const { endpoint } = await ext.descriptor();
    const mode = (file: string) => fs.statSync(file).mode & 0o777;
    expect(mode(runtimeDir(ext.home))).toBe(0o700);
    expect(fs.statSync(endpoint).isSocket()).toBe(true);
    expect(mode(endpoint)).toBe(0o600);
    expect(mode(endpointDescriptorPath(ext.home, ext.pid))).toBe(0o600);
  });

  it('relays a request to the extension under its own id and maps the response back', async () => {
    const seen: Request[] = [];
    const ext = await startHost({
      handlers: {
        list_tabs: (_params, request) => {
          seen.push(request);
          return TABS;
        },
      },
    });
    const client = await connect(ext);
    expect(client.authenticated).toBe(true);
    expect(client.hostInfo?.extension_connected).toBe(true);
    const response = await client.request('list_tabs', {}, { id: 'my-id-1', timeout_ms: 5_000 });
    expect(response).toEqual({ type: 'response', id: 'my-id-1', ok: true, result: TABS });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.id).not.toBe('my-id-1');
    expect(seen[0]).toMatchObject({ command: 'list_tabs', params: {}, timeout_ms: 5_000 });
  });

  it('chunks a 5 MiB request into frames of at most 1 MiB that reassemble exactly', async () => {
    // Mixed widths: ASCII, 3-byte BMP characters, surrogate pairs, quotes and escapes.
    const unit = 'let x = "é€𝄞\\n\\"";/* 😀 */\n';
    const code = unit.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(unit)));
    let received: unknown;
    const ext = await startHost({
      handlers: {
        inject_script: (params) => {
          received = params;
          return {
            returnValue: 1,
            tab: { id: 1, url: 'https://example.test/', title: 't' },
            method: 'userScripts',
          };
        },
      },
    });
    const client = await connect(ext);
    const response = await client.request('inject_script', { code }, { timeout_ms: 30_000 });
    expect(response.ok).toBe(true);
    expect(received).toEqual({ code });
    const chunkFrames = ext.frames.filter((f) => (f.value as { type?: string }).type === 'chunk');
    expect(chunkFrames.length).toBeGreaterThan(5);
    for (const frame of chunkFrames) expect(frame.bytes).toBeLessThanOrEqual(HOST_TO_EXTENSION_MAX_BYTES);
  });

  it('rejects a client proving another token, a missing hello and a silent client, logs it, and keeps good clients working', async () => {
    const ext = await startHost({
      env: { XIPE_UIUX_HELLO_TIMEOUT_MS: '300' },
      handlers: { list_tabs: () => TABS },
    });
    const good = await connect(ext);
    const { endpoint } = await ext.descriptor();

    const wrongToken = 'f'.repeat(64);
    const intruder = await BridgeTestClient.connect(endpoint, { token: wrongToken });
    clients.push(intruder);
    expect(intruder.authenticated).toBe(false);
    expect(intruder.rejection).toMatchObject({ type: 'error', error: { code: 'UNAUTHORIZED' } });
    expect(intruder.rejection?.error.message).toContain(path.join(ext.home, 'token'));
    await intruder.closed;

    const noHello = await BridgeTestClient.connect(endpoint, { hello: false });
    clients.push(noHello);
    noHello.send({ type: 'request', id: 1, command: 'list_tabs', params: {} });
    expect(await noHello.inbox.waitFor((m) => m.type === 'error')).toMatchObject({
      error: { code: 'UNAUTHORIZED' },
    });
    await noHello.closed;

    const silent = await BridgeTestClient.connect(endpoint, { hello: false });
    clients.push(silent);
    expect(await silent.inbox.waitFor((m) => m.type === 'error')).toMatchObject({
      error: { code: 'UNAUTHORIZED' },
    });
    await silent.closed;

    expect((await good.request('list_tabs', {})).ok).toBe(true);
    const rejections = ext
      .logEntries()
      .filter((e) => e.level === 'warn' && String(e.msg).includes('rejected'));
    expect(rejections.map((e) => e.reason ?? e.msg)).toEqual(
      expect.arrayContaining(['wrong proof', 'no client hello', 'bridge client rejected: no hello in time']),
    );
    const log = fs.readFileSync(ext.logFile(), 'utf8') + ext.stderr;
    expect(log).not.toContain(wrongToken);
    expect(log).not.toContain(ext.token());
  });

  it('rejects a client speaking another protocol version', async () => {
    const ext = await startHost();
    const client = await connect(ext, { helloOverrides: { protocol: PROTOCOL_VERSION + 1 } });
    expect(client.authenticated).toBe(false);
    expect(client.rejection).toMatchObject({ error: { code: 'PROTOCOL_ERROR' } });
    await client.closed;
  });

  it('serves several clients at once, each getting its own answers under its own ids', async () => {
    const ext = await startHost({
      handlers: {
        inject_script: (params) => ({
          returnValue: (params as { code: string }).code,
          tab: { id: 1, url: 'u', title: 't' },
          method: 'scripting',
        }),
      },
    });
    const all = await Promise.all([connect(ext), connect(ext), connect(ext)]);
    const responses = await Promise.all(
      all.flatMap((client, c) =>
        [0, 1, 2].map((r) =>
          client.request('inject_script', { code: `client ${c} request ${r}` }, { id: r }),
        ),
      ),
    );
    responses.forEach((response, index) => {
      const c = Math.floor(index / 3);
      const r = index % 3;
      expect(response).toMatchObject({
        id: r,
        ok: true,
        result: { returnValue: `client ${c} request ${r}` },
      });
    });
  });

  it('fails relayed commands with EXTENSION_NOT_CONNECTED before the extension hello, but answers host_status', async () => {
    const ext = await startHost({ hello: false });
    const client = await connect(ext);
    expect(client.hostInfo?.extension_connected).toBe(false);
    const response = await client.request('list_tabs', {});
    expect(response).toMatchObject({ ok: false, error: { code: 'EXTENSION_NOT_CONNECTED' } });
    expect(response.ok === false && response.error.message).toContain('x-ipe-uiux doctor');
    const status = await client.request('host_status', {});
    expect(status).toMatchObject({
      ok: true,
      result: { pid: ext.pid, extension_connected: false, extension: null },
    });
  });

  it('answers TIMEOUT when the extension never replies, and drops the late reply', async () => {
    const ext = await startHost();
    const client = await connect(ext);
    const pending = client.request('list_tabs', {}, { id: 'slow', timeout_ms: 50 });
    const relayed = await ext.nextRequest('list_tabs');
    const response = await pending;
    expect(response).toMatchObject({ id: 'slow', ok: false, error: { code: 'TIMEOUT' } });
    ext.respond(relayed.id, { result: TABS });
    // The next answer on this connection is the host_status one: the late reply went nowhere.
    expect((await client.request('host_status', {})).ok).toBe(true);
    expect(client.inbox.messages.filter((m) => m.type === 'response' && m.id === 'slow')).toHaveLength(1);
  });

  it('rejects unknown commands and invalid params with VALIDATION_ERROR', async () => {
    const ext = await startHost();
    const client = await connect(ext);
    const unknown = await client.request('format_disk', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    expect(unknown.ok === false && unknown.error.message).toMatch(/unknown command/i);
    const invalid = await client.request('inject_script', { code: 42 });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('broadcasts extension events to every authenticated client', async () => {
    const ext = await startHost();
    const [a, b] = await Promise.all([connect(ext), connect(ext)]);
    ext.emit('captures_changed', { count: 2 });
    for (const client of [a, b]) {
      expect(await client?.nextEvent('captures_changed')).toEqual({
        type: 'event',
        event: 'captures_changed',
        data: { count: 2 },
      });
    }
  });

  it('answers requests from the extension itself on the native link', async () => {
    const ext = await startHost();
    expect(await ext.request('host_status', {})).toMatchObject({
      ok: true,
      result: { pid: ext.pid, extension_connected: true },
    });
    expect(await ext.request('list_tabs', {})).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
    ext.send({ type: 'ping' });
    expect(await ext.request('nope', {})).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('exits 0 when stdin closes, failing pending requests and removing socket and descriptor', async () => {
    const ext = await startHost();
    const client = await connect(ext);
    const { endpoint } = await ext.descriptor();
    const pending = client.request('list_tabs', {}, { timeout_ms: 30_000 });
    await ext.nextRequest('list_tabs');
    const exit = await ext.close();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'EXTENSION_NOT_CONNECTED' } });
    await client.closed;
    expect(fs.existsSync(endpoint)).toBe(false);
    expect(fs.existsSync(ext.descriptorPath())).toBe(false);
  });

  it('cleans up on SIGTERM too', async () => {
    const ext = await startHost();
    const { endpoint } = await ext.descriptor();
    ext.child.kill('SIGTERM');
    expect((await ext.waitForExit()).code).toBe(0);
    expect(fs.existsSync(endpoint)).toBe(false);
    expect(fs.existsSync(ext.descriptorPath())).toBe(false);
  });

  it('refuses a hello with another protocol version and exits non-zero', async () => {
    const ext = await startHost({ hello: false });
    await expect(ext.hello({}, PROTOCOL_VERSION + 1)).rejects.toThrow(/PROTOCOL_ERROR/);
    const exit = await ext.waitForExit();
    expect(exit.code).not.toBe(0);
    expect(fs.existsSync(ext.descriptorPath())).toBe(false);
  });

  it('stops at a garbage frame length and exits non-zero', async () => {
    const ext = await startHost();
    const header = Buffer.alloc(4);
    header.writeUInt32LE(0xffffffff, 0);
    ext.sendRaw(Buffer.concat([header, Buffer.from('garbage')]));
    const exit = await ext.waitForExit();
    expect(exit.code).toBe(1);
    expect(fs.existsSync(ext.descriptorPath())).toBe(false);
    expect(
      ext.logEntries().some((e) => e.level === 'error' && String(e.msg).includes('unreadable frame')),
    ).toBe(true);
  });

  it('removes the endpoint files of dead hosts at start', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
    try {
      const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
      const dir = runtimeDir(home);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o700);
      const staleJson = endpointDescriptorPath(home, dead);
      fs.writeFileSync(staleJson, '{}', { mode: 0o600 });
      fs.writeFileSync(path.join(dir, `h-${dead}.sock`), '', { mode: 0o600 });
      const ext = await startHost({ home });
      await ext.descriptor();
      expect(fs.readdirSync(dir).sort()).toEqual([`h-${ext.pid}.json`, `h-${ext.pid}.sock`]);
      await ext.dispose();
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses a runtime dir others can enter, yet keeps serving the extension', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
    try {
      fs.mkdirSync(runtimeDir(home), { recursive: true });
      fs.chmodSync(runtimeDir(home), 0o755);
      const ext = await startHost({ home });
      expect(ext.hostInfo?.endpoint).toBe('');
      expect(fs.readdirSync(runtimeDir(home))).toEqual([]);
      expect(await ext.request('host_status', {})).toMatchObject({ ok: true, result: { endpoint: '' } });
      expect(ext.logEntries().some((e) => e.level === 'error' && String(e.error).includes('chmod 700'))).toBe(
        true,
      );
      await ext.dispose();
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('lets a handler error reach the client as a failure response', async () => {
    const ext = await startHost({
      handlers: {
        inject_script: () => {
          throw new XipeError('SCRIPT_ERROR', 'boom at line 1');
        },
      },
    });
    const client = await connect(ext);
    expect(await client.request('inject_script', { code: 'throw 1' })).toMatchObject({
      ok: false,
      error: { code: 'SCRIPT_ERROR', message: 'boom at line 1' },
    });
  });
});
