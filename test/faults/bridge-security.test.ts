/**
 * Bridge security against the real host process (Hostile input): every way a client can
 * fail the handshake is refused with the right code and the connection closed, a refused or
 * not-yet-authenticated client never gets an answer or an event, the files that guard the bridge
 * have owner-only modes, an unsafe pre-existing runtime dir is refused, and the token never
 * reaches a log. Complements test/integration/host.test.ts (which covers one wrong token, one
 * silent client, a request before hello, one protocol mismatch and a 0755 runtime dir).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_HELLO_MAX_FRAME_BYTES, BRIDGE_MAX_FRAME_BYTES, PROTOCOL_VERSION } from '#shared/constants.js';
import { endpointPath, logsDir, runtimeDir, runtimeDirRecordPath, tokenPath } from '#shared/node/paths.js';
import {
  type BridgeTestClient,
  DEFAULT_EXTENSION_INFO,
  type FakeExtension,
} from '../helpers/fake-extension.js';
import { frameOf } from '../helpers/fault-frames.js';
import { allHostOutput, HostPool, within } from '../helpers/fault-host.js';
import { McpProcess } from '../helpers/fault-mcp.js';

const pool = new HostPool();
afterEach(async () => {
  expect(await pool.disposeAll()).toEqual([]);
});

const TABS = { browser: DEFAULT_EXTENSION_INFO.browser, tabs: [] };
const mode = (file: string): number => fs.statSync(file).mode & 0o777;

/** Connects without a hello and sends `frames` in one write; returns the client. */
async function rawSend(ext: FakeExtension, ...frames: Buffer[]): Promise<BridgeTestClient> {
  const client = await pool.rawClient(ext, { hello: false });
  client.socket.write(Buffer.concat(frames));
  return client;
}

const json = (value: unknown): Buffer => frameOf(JSON.stringify(value));

const nonce = (): string => randomBytes(32).toString('hex');

function hello(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'hello', role: 'mcp', protocol: PROTOCOL_VERSION, nonce: nonce(), ...overrides };
}

/** HMAC-SHA256 as the protocol defines it, computed here independently of the module. */
const hmac = (token: string, side: string, cn: string, hn: string): string =>
  createHmac('sha256', token)
    .update(`x-ipe-uiux bridge v${PROTOCOL_VERSION} ${side}\n${cn}\n${hn}`)
    .digest('hex');

/** Waits for the host's LinkError and the close that follows; returns the error code. */
async function refusal(client: BridgeTestClient, what: string, before: string[] = []): Promise<string> {
  const error = await client.inbox.waitFor((m) => m.type === 'error', { what: `${what}: link error` });
  await within(client.closed, 5_000, `${what}: close by the host`);
  // Nothing but the handshake's own messages and the refusal reach a client that did not authenticate.
  expect(
    client.inbox.messages.map((m) => m.type),
    what,
  ).toEqual([...before, 'error']);
  return error.type === 'error' ? error.error.code : '';
}

/** Sends a good hello and waits for the challenge; returns the client, its nonce and the challenge. */
async function challenged(
  ext: FakeExtension,
): Promise<{ client: BridgeTestClient; cn: string; hn: string; hostProof: string }> {
  const cn = nonce();
  const client = await rawSend(ext, json(hello({ nonce: cn })));
  const challenge = await client.inbox.waitFor((m) => m.type === 'challenge', { what: 'the challenge' });
  if (challenge.type !== 'challenge') throw new Error('no challenge');
  return { client, cn, hn: challenge.nonce, hostProof: challenge.proof };
}

const CLIENT = { name: 'attacker', pid: 4242 };

describe('bridge handshake refusals', () => {
  it('proves itself to a client, and the token never crosses the link either way', async () => {
    const ext = await pool.start({ handlers: { list_tabs: () => TABS } });
    const token = ext.token();
    const { client, cn, hn, hostProof } = await challenged(ext);
    expect(hostProof).toBe(hmac(token, 'host', cn, hn));
    client.send({ type: 'proof', proof: hmac(token, 'client', cn, hn), client: CLIENT });
    expect(await client.inbox.waitFor((m) => m.type === 'hello')).toMatchObject({ role: 'host' });
    expect((await client.request('list_tabs', {})).ok).toBe(true);
    const seen = JSON.stringify(client.inbox.messages);
    expect(seen).not.toContain(token);
    expect(allHostOutput(ext)).not.toContain(token);
  });

  it('refuses every wrong proof (other tokens, reflected, replayed, the token itself, malformed) and every non-hello', async () => {
    const ext = await pool.start({ handlers: { list_tabs: () => TABS } });
    const good = await pool.client(ext);
    const token = ext.token();
    const flipped = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const proofs: Array<[string, (cn: string, hn: string, hostProof: string) => unknown]> = [
      ['a token with one char changed', (cn, hn) => hmac(flipped, 'client', cn, hn)],
      ['the token in upper case', (cn, hn) => hmac(token.toUpperCase(), 'client', cn, hn)],
      ['the token with a trailing newline', (cn, hn) => hmac(`${token}\n`, 'client', cn, hn)],
      ['half of the token', (cn, hn) => hmac(token.slice(0, 32), 'client', cn, hn)],
      ["the host's own proof reflected", (_cn, _hn, hostProof) => hostProof],
      ['a proof for another host nonce (replayed)', (cn) => hmac(token, 'client', cn, nonce())],
      ['a proof for another client nonce', (_cn, hn) => hmac(token, 'client', nonce(), hn)],
      ['the host label', (cn, hn) => hmac(token, 'host', cn, hn)],
      ['the token itself as the proof', () => token],
      ['all zeros', () => '0'.repeat(64)],
      ['a number', () => 12345],
      ['upper-case hex of the right proof', (cn, hn) => hmac(token, 'client', cn, hn).toUpperCase()],
    ];
    const attempts = await Promise.all(proofs.map(() => challenged(ext)));
    for (const [i, [what, proofOf]] of proofs.entries()) {
      const attempt = attempts[i];
      if (attempt === undefined) continue;
      attempt.client.send({
        type: 'proof',
        proof: proofOf(attempt.cn, attempt.hn, attempt.hostProof),
        client: CLIENT,
      });
      expect(await refusal(attempt.client, what, ['challenge']), what).toBe('UNAUTHORIZED');
    }
    const right = await challenged(ext);
    right.client.send({
      type: 'proof',
      proof: hmac(token, 'client', right.cn, right.hn),
      client: { name: 'n'.repeat(201), pid: 1 },
    });
    expect(await refusal(right.client, 'client name too long', ['challenge'])).toBe('UNAUTHORIZED');
    const notHellos: Array<[string, Record<string, unknown>]> = [
      ['a request, not a hello', { type: 'request', id: 1, command: 'list_tabs', params: {} }],
      ['a proof before any hello', { type: 'proof', proof: '0'.repeat(64), client: CLIENT }],
      [
        'an extension hello',
        { type: 'hello', role: 'extension', protocol: PROTOCOL_VERSION, extension: DEFAULT_EXTENSION_INFO },
      ],
      ['a host hello', hello({ role: 'host' })],
    ];
    const clients = await Promise.all(notHellos.map(([, frame]) => rawSend(ext, json(frame))));
    for (const [i, [what]] of notHellos.entries()) {
      const client = clients[i];
      if (client !== undefined) expect(await refusal(client, what), what).toBe('UNAUTHORIZED');
    }
    expect((await good.request('list_tabs', {})).ok).toBe(true);
    const reasons = ext
      .logEntries()
      .filter((e) => e.msg === 'bridge client rejected: unauthorized')
      .map((e) => e.reason);
    expect(reasons).toHaveLength(proofs.length + 1 + notHellos.length);
    expect(JSON.stringify(ext.logEntries())).not.toContain(token);
  });

  it('refuses another protocol version and an invalid hello, and an old hello that carries the token', async () => {
    const ext = await pool.start();
    const token = ext.token();
    const cases: Array<[string, Record<string, unknown>]> = [
      ['protocol + 1', hello({ protocol: PROTOCOL_VERSION + 1 })],
      ['protocol 0', hello({ protocol: 0 })],
      ['protocol as a string', hello({ protocol: String(PROTOCOL_VERSION) })],
      ['protocol missing', { type: 'hello', role: 'mcp', nonce: nonce() }],
      ['no nonce', { type: 'hello', role: 'mcp', protocol: PROTOCOL_VERSION }],
      ['a short nonce', hello({ nonce: 'ab' })],
      ['protocol 1, with the token', { type: 'hello', role: 'mcp', protocol: 1, token, client: CLIENT }],
    ];
    const clients = await Promise.all(cases.map(([, frame]) => rawSend(ext, json(frame))));
    for (const [i, [what]] of cases.entries()) {
      const client = clients[i];
      if (client !== undefined) expect(await refusal(client, what), what).toBe('PROTOCOL_ERROR');
    }
    expect(JSON.stringify(ext.logEntries())).not.toContain(token);
  });

  it('never answers a request pipelined behind a refused hello or proof, nor forwards events to it', async () => {
    const ext = await pool.start({ handlers: { list_tabs: () => TABS } });
    const good = await pool.client(ext);
    const request = (id: string) => json({ type: 'request', id, command: 'list_tabs', params: {} });
    const wrong = await challenged(ext);
    wrong.client.socket.write(
      Buffer.concat([
        json({ type: 'proof', proof: '0'.repeat(64), client: CLIENT }),
        request('w1'),
        request('w2'),
      ]),
    );
    const unproven = await rawSend(ext, json(hello()), request('u1'), request('u2'));
    const wrongProtocol = await rawSend(ext, json(hello({ protocol: 99 })), request('p1'), request('p2'));
    expect(await refusal(wrong.client, 'wrong proof + requests', ['challenge'])).toBe('UNAUTHORIZED');
    expect(await refusal(unproven, 'requests instead of a proof', ['challenge'])).toBe('UNAUTHORIZED');
    expect(await refusal(wrongProtocol, 'wrong protocol + requests')).toBe('PROTOCOL_ERROR');

    // A client still in its hello window, or between challenge and proof, gets no events either.
    const waiting = await pool.rawClient(ext, { hello: false });
    const half = await challenged(ext);
    ext.emit('captures_changed', { secret: 'capture data' });
    expect(await good.nextEvent('captures_changed')).toMatchObject({ data: { secret: 'capture data' } });
    expect((await good.request('host_status', {})).ok).toBe(true); // ordering barrier
    expect(waiting.inbox.messages).toEqual([]);
    expect(half.client.inbox.messages.map((m) => m.type)).toEqual(['challenge']);
  });

  it('refuses an oversized frame before and after the hello, and keeps serving others', async () => {
    const ext = await pool.start({ handlers: { list_tabs: () => TABS } });
    const good = await pool.client(ext);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(BRIDGE_MAX_FRAME_BYTES + 1, 0);

    const anonymous = await rawSend(ext, header, Buffer.from('x'.repeat(64)));
    expect(await refusal(anonymous, 'oversized first frame')).toBe('PAYLOAD_TOO_LARGE');

    const authenticated = await pool.rawClient(ext, { hello: true });
    expect(authenticated.authenticated).toBe(true);
    authenticated.socket.write(Buffer.concat([header, Buffer.from('{"type":"request"')]));
    const error = await authenticated.inbox.waitFor((m) => m.type === 'error');
    expect(error).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    await within(authenticated.closed, 5_000, 'close after an oversized frame');

    expect((await good.request('list_tabs', {})).ok).toBe(true);
    expect(ext.hasExited).toBe(false);
  });

  it('caps frames before the handshake ends at 64 KiB, and lifts the cap for the frames after it', async () => {
    // A long hello timeout: the refusals below must come from the cap, not from the timer.
    const ext = await pool.start({
      env: { XIPE_UIUX_HELLO_TIMEOUT_MS: '60000' },
      handlers: { list_tabs: () => TABS },
    });
    const good = await pool.client(ext);
    const token = ext.token();
    const headerOf = (length: number): Buffer => {
      const header = Buffer.alloc(4);
      header.writeUInt32LE(length, 0);
      return header;
    };
    const cases: Array<[string, Buffer[]]> = [
      ['one byte over 64 KiB, header only', [headerOf(BRIDGE_HELLO_MAX_FRAME_BYTES + 1)]],
      ['50 MiB announced, 60 KiB of it sent', [headerOf(50 * 1024 * 1024), Buffer.alloc(60 * 1024, 0x20)]],
      ['a 1 MiB hello', [json(hello({ pad: 'x'.repeat(1 << 20) }))]],
    ];
    const clients = await Promise.all(cases.map(([, frames]) => rawSend(ext, ...frames)));
    for (const [i, [what]] of cases.entries()) {
      const client = clients[i];
      if (client === undefined) continue;
      const error = await client.inbox.waitFor((m) => m.type === 'error', { what: `${what}: link error` });
      expect(error, what).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
      const message = error.type === 'error' ? error.error.message : '';
      expect(message, what).toMatch(/before the hello/);
      expect(message, what).toContain(String(BRIDGE_HELLO_MAX_FRAME_BYTES));
      await within(client.closed, 5_000, `${what}: close by the host`);
      expect(client.inbox.messages, what).toHaveLength(1);
    }
    // A 1 MiB proof (padded) is refused by the cap too: the proof is still before the end.
    const padded = await challenged(ext);
    padded.client.send({
      type: 'proof',
      proof: hmac(token, 'client', padded.cn, padded.hn),
      client: CLIENT,
      pad: 'x'.repeat(1 << 20),
    });
    expect(await refusal(padded.client, 'a 1 MiB proof', ['challenge'])).toBe('PAYLOAD_TOO_LARGE');
    const unreadable = ext.logEntries().filter((e) => e.msg === 'bridge client sent an unreadable frame');
    expect(unreadable.map((e) => e.authenticated)).toEqual([...cases.map(() => false), false]);
    expect(ext.logEntries().filter((e) => e.msg === 'bridge client rejected: no hello in time')).toEqual([]);

    // A hello of exactly 64 KiB is accepted (padding is JSON whitespace).
    const cn = nonce();
    const exact = Buffer.from(JSON.stringify(hello({ nonce: cn })));
    const atCap = await rawSend(
      ext,
      frameOf(Buffer.concat([exact, Buffer.alloc(BRIDGE_HELLO_MAX_FRAME_BYTES - exact.length, 0x20)])),
    );
    const challenge = await atCap.inbox.waitFor((m) => m.type === 'challenge');
    const hn = challenge.type === 'challenge' ? challenge.nonce : '';
    const big = json({
      type: 'request',
      id: 'big',
      command: 'list_tabs',
      params: {},
      pad: 'x'.repeat(1 << 20),
    });
    // After the proof, a 1 MiB frame is fine: pipelined in the same write as the proof, and on its own.
    atCap.socket.write(
      Buffer.concat([json({ type: 'proof', proof: hmac(token, 'client', cn, hn), client: CLIENT }), big]),
    );
    const later = await pool.rawClient(ext, { hello: true });
    later.socket.write(big);
    for (const [what, client] of [
      ['pipelined with the proof', atCap],
      ['after the handshake', later],
    ] as Array<[string, BridgeTestClient]>) {
      const answer = await client.inbox.waitFor((m) => m.type === 'response' && m.id === 'big', { what });
      expect(answer, what).toMatchObject({ ok: true });
    }
    expect((await good.request('list_tabs', {})).ok).toBe(true);
    expect(ext.hasExited).toBe(false);
  });

  it('times out silent clients, half-sent hellos, missing proofs and a crowd of idle connections; good clients unaffected', async () => {
    const ext = await pool.start({
      env: { XIPE_UIUX_HELLO_TIMEOUT_MS: '300' },
      handlers: { list_tabs: () => TABS },
    });
    const good = await pool.client(ext);
    const silent = await pool.rawClient(ext, { hello: false });
    // Slowloris: a valid hello frame cut after 10 bytes, the rest never sent.
    const partial = await rawSend(ext, json(hello()).subarray(0, 10));
    // A frame header announcing the most a client may send before its hello, and nothing after it.
    const bigHeader = Buffer.alloc(4);
    bigHeader.writeUInt32LE(BRIDGE_HELLO_MAX_FRAME_BYTES, 0);
    const hoarder = await rawSend(ext, bigHeader, Buffer.alloc(1024, 0x20));
    const crowd = await Promise.all(Array.from({ length: 30 }, () => pool.rawClient(ext, { hello: false })));
    const noProof = await challenged(ext);

    for (const [what, client] of [
      ['silent', silent],
      ['half hello', partial],
      ['64 KiB header', hoarder],
      ...crowd.map((c, i): [string, BridgeTestClient] => [`idle #${i}`, c]),
    ] as Array<[string, BridgeTestClient]>) {
      expect(await refusal(client, what), what).toBe('UNAUTHORIZED');
    }
    expect(await refusal(noProof.client, 'no proof', ['challenge'])).toBe('UNAUTHORIZED');
    expect((await good.request('list_tabs', {})).ok).toBe(true);
    const timeouts = ext.logEntries().filter((e) => e.msg === 'bridge client rejected: no hello in time');
    expect(timeouts).toHaveLength(34);
  });

  it('ignores a second hello or proof after authentication (no re-auth, no crash, still served)', async () => {
    const ext = await pool.start({ handlers: { list_tabs: () => TABS } });
    const client = await pool.client(ext);
    client.send(hello());
    client.send(hello({ protocol: 99 }));
    client.send({ type: 'proof', proof: '0'.repeat(64), client: CLIENT });
    expect((await client.request('list_tabs', {})).ok).toBe(true);
    expect(client.inbox.messages.filter((m) => m.type === 'error')).toEqual([]);
    // Its own handshake's challenge only: a hello after it started no second handshake.
    expect(client.inbox.messages.filter((m) => m.type === 'challenge')).toHaveLength(1);
  });
});

describe('bridge files and runtime dir', () => {
  it('creates home files owner-only: runtime dir 0700, socket, descriptor, token and log 0600', async () => {
    const ext = await pool.start();
    const { endpoint } = await ext.descriptor();
    expect(mode(runtimeDir(ext.home))).toBe(0o700);
    expect(fs.statSync(endpoint).isSocket()).toBe(true);
    expect(mode(endpoint)).toBe(0o600);
    expect(mode(ext.descriptorPath())).toBe(0o600);
    expect(mode(tokenPath(ext.home))).toBe(0o600);
    expect(mode(logsDir(ext.home))).toBe(0o700);
    expect(mode(ext.logFile())).toBe(0o600);
  });

  it('makes a fresh private /tmp folder for a long home path, records it, and keeps the modes', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-long-'));
    const home = path.join(base, 'a-rather-long-directory-name-'.repeat(4));
    fs.mkdirSync(home, { recursive: true });
    let dir = '';
    try {
      const ext = await pool.start({ home });
      const { endpoint } = await ext.descriptor();
      dir = runtimeDir(home);
      expect(dir).toMatch(/^\/tmp\/xipe-\d+-\w{6}$/);
      expect(JSON.parse(fs.readFileSync(runtimeDirRecordPath(home), 'utf8'))).toEqual({ dir });
      expect(mode(runtimeDirRecordPath(home))).toBe(0o600);
      expect(endpoint).toBe(endpointPath(home, ext.pid));
      expect(mode(dir)).toBe(0o700);
      expect(mode(endpoint)).toBe(0o600);
      expect(mode(ext.descriptorPath())).toBe(0o600);
      const client = await pool.client(ext);
      expect(client.authenticated).toBe(true);
      await ext.dispose();
    } finally {
      if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('ignores a planted copy of the old predictable /tmp folder, and moves away from a recorded folder that is not ours alone', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-long-'));
    const home = path.join(base, 'another-long-directory-name-to-force-tmp-'.repeat(3));
    fs.mkdirSync(home, { recursive: true });
    const uid = process.getuid?.() ?? 0;
    const predictable = path.join(
      '/tmp',
      `xipe-${uid}-${createHash('sha256').update(home).digest('hex').slice(0, 12)}`,
    );
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-target-'));
    const planted = fs.mkdtempSync(path.join('/tmp', 'xipe-planted-'));
    const chosen: string[] = [];
    try {
      fs.symlinkSync(target, predictable);
      let ext = await pool.start({ home });
      chosen.push(runtimeDir(home));
      expect(chosen[0]).not.toBe(predictable);
      expect((await ext.descriptor()).endpoint.startsWith(`${chosen[0]}/`)).toBe(true);
      expect(fs.readdirSync(target)).toEqual([]);
      await ext.dispose();

      // A record pointing at a folder others can write: the host refuses it and records a new one.
      fs.chmodSync(planted, 0o1777);
      fs.writeFileSync(runtimeDirRecordPath(home), JSON.stringify({ dir: planted }), { mode: 0o600 });
      ext = await pool.start({ home });
      chosen.push(runtimeDir(home));
      expect(chosen[1]).not.toBe(planted);
      expect(fs.readdirSync(planted)).toEqual([]);
      expect((await pool.client(ext)).authenticated).toBe(true);
      const warned = ext.logEntries().filter((e) => e.msg === 'recorded runtime dir not used');
      expect(String(warned[0]?.error)).toMatch(/accessible by other users/);
      await ext.dispose();
    } finally {
      for (const dir of [...chosen, predictable, planted, target, base])
        fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Starts a host on `home` whose runtime dir was prepared by `plant`; the bridge must be refused. */
  async function expectRefusedRuntimeDir(home: string, why: RegExp): Promise<void> {
    const ext = await pool.start({ home });
    expect(ext.hostInfo?.endpoint).toBe('');
    // The extension is still served: the toolbar can save without the bridge.
    expect(await ext.request('host_status', {})).toMatchObject({ ok: true, result: { endpoint: '' } });
    const logged = ext
      .logEntries()
      .filter((e) => e.level === 'error' && String(e.msg).includes('bridge endpoint could not be opened'));
    expect(logged.map((e) => String(e.error)).join('\n')).toMatch(why);
    await ext.dispose();
  }

  it('refuses a runtime dir that is a symlink, even to a private dir, and writes nothing through it', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-target-'));
    try {
      fs.chmodSync(target, 0o700);
      fs.symlinkSync(target, runtimeDir(home));
      await expectRefusedRuntimeDir(home, /not a real directory/);
      expect(fs.readdirSync(target)).toEqual([]);
      expect(fs.lstatSync(runtimeDir(home)).isSymbolicLink()).toBe(true);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('refuses group- or world-accessible modes and a dir owned by another user', async () => {
    for (const bits of [0o710, 0o705, 0o777]) {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
      try {
        fs.mkdirSync(runtimeDir(home));
        fs.chmodSync(runtimeDir(home), bits);
        await expectRefusedRuntimeDir(home, /accessible by other users/);
        expect(fs.readdirSync(runtimeDir(home))).toEqual([]);
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    }
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
    try {
      fs.mkdirSync(runtimeDir(home), { mode: 0o700 });
      fs.chownSync(runtimeDir(home), 4321, 4321);
      await expectRefusedRuntimeDir(home, /owned by uid 4321/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses a runtime dir that is a regular file', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
    try {
      fs.writeFileSync(runtimeDir(home), 'not a dir');
      const ext = await pool.start({ home });
      expect(ext.hostInfo?.endpoint).toBe('');
      await ext.dispose();
      expect(fs.readFileSync(runtimeDir(home), 'utf8')).toBe('not a dir');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('the token file: owner and mode', () => {
  const TOKEN = 'f'.repeat(64);
  const isRoot = process.getuid?.() === 0;
  const temp = (prefix: string): string => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

  it('host and MCP server tighten a token file other users could read to 0600, warn, and keep working', async () => {
    const home = temp('xipe-h-');
    const workspace = temp('xipe-ws-');
    try {
      fs.writeFileSync(tokenPath(home), `${TOKEN}\n`, { mode: 0o600 });
      fs.chmodSync(tokenPath(home), 0o644);
      const ext = await pool.start({ home, handlers: { list_tabs: () => TABS } });
      expect(mode(tokenPath(home))).toBe(0o600);
      const repaired = ext.logEntries().filter((e) => e.msg === 'token file permissions repaired');
      expect(repaired).toHaveLength(1);
      expect(String(repaired[0]?.detail)).toMatch(/had mode 0644 .* set to 0600/);
      expect(repaired[0]?.level).toBe('warn');
      expect(ext.token()).toBe(TOKEN); // the same token is kept
      expect((await pool.client(ext)).authenticated).toBe(true);

      fs.chmodSync(tokenPath(home), 0o660);
      const mcp = await McpProcess.start({ home, workspace });
      try {
        const { isError } = await mcp.call('list_tabs', {});
        expect(isError).toBe(false);
        expect(mode(tokenPath(home))).toBe(0o600);
        expect(mcp.stderr).toMatch(/token file permissions repaired.*had mode 0660/);
      } finally {
        await mcp.close();
      }
      await ext.dispose();
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it.runIf(isRoot)(
    'host and MCP server refuse a token file owned by another user and say how to fix it',
    async () => {
      const home = temp('xipe-h-');
      try {
        fs.writeFileSync(tokenPath(home), `${TOKEN}\n`, { mode: 0o600 });
        fs.chownSync(tokenPath(home), 4321, 4321);
        const ext = await pool.start({ home, hello: false });
        expect(await ext.waitForExit(15_000)).toEqual({ code: 1, signal: null });
        const errors = ext.logEntries().filter((e) => e.msg === 'cannot read or create the token file');
        expect(errors).toHaveLength(1);
        expect(String(errors[0]?.error)).toMatch(
          /owned by uid 4321, not by you \(uid 0\).*x-ipe-uiux install/,
        );
        // Nothing was rewritten, and the token never reached the log.
        expect(fs.statSync(tokenPath(home)).uid).toBe(4321);
        expect(fs.readFileSync(tokenPath(home), 'utf8')).toBe(`${TOKEN}\n`);
        expect(allHostOutput(ext)).not.toContain(TOKEN);
        await ext.dispose();
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }

      // The MCP server: a host is up (with its own token), then the file changes hands.
      const ext = await pool.start({ handlers: { list_tabs: () => TABS } });
      const workspace = temp('xipe-ws-');
      const mcp = await McpProcess.start({ home: ext.home, workspace });
      try {
        fs.chownSync(tokenPath(ext.home), 4321, 4321);
        const { isError, body } = await mcp.call('list_tabs', {});
        expect(isError).toBe(true);
        expect(JSON.stringify(body)).toMatch(/owned by uid 4321, not by you \(uid 0\).*x-ipe-uiux install/);
      } finally {
        await mcp.close();
        fs.rmSync(workspace, { recursive: true, force: true });
      }
    },
  );
});

describe('the token stays secret', () => {
  it('never appears in the log file or stderr, whatever clients send (debug level)', async () => {
    const ext = await pool.start({
      env: { XIPE_UIUX_LOG_LEVEL: 'debug', XIPE_UIUX_HELLO_TIMEOUT_MS: '300' },
      handlers: { list_tabs: () => TABS },
    });
    const token = ext.token();
    const good = await pool.client(ext);
    const attempts = [
      hello({ token: token.slice(0, 32) }),
      hello({ token: `${token}x` }),
      hello({ token: token.toUpperCase() }),
      hello({ token, protocol: 99 }),
      hello({ token, client: { name: token, pid: 'not a pid' } }),
      hello({ token, role: 'extension' }),
      { type: 'request', id: token, command: 'list_tabs', params: { token } },
    ];
    const clients = await Promise.all(attempts.map((a) => rawSend(ext, json(a))));
    for (const client of clients) await within(client.closed, 5_000, 'refused client close');
    // A request whose params carry the token text is refused without logging them.
    await good.request('list_tabs', { token });
    // A malformed hello that carries the real token (a buggy client): the parse error must not echo it.
    const garbage = await rawSend(ext, frameOf(`{"type":"hello","role":"mcp","token":"${token}",}`));
    await within(garbage.closed, 5_000, 'garbage client close');
    await ext.close();
    const output = allHostOutput(ext);
    expect(output.length).toBeGreaterThan(0);
    expect(output).not.toContain(token);
    expect(output).not.toContain(token.slice(0, 32));
    expect(output).not.toContain(token.slice(32));
    expect(output.toLowerCase()).not.toContain(token.toLowerCase());
  });
});

describe('the socket itself', () => {
  it('refuses connections once the host is gone (no stale endpoint left to impersonate)', async () => {
    const ext = await pool.start();
    const { endpoint } = await ext.descriptor();
    await ext.close();
    expect(fs.existsSync(endpoint)).toBe(false);
    await expect(
      new Promise<void>((resolve, reject) => {
        const socket = net.connect(endpoint, () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      }),
    ).rejects.toThrow(/ENOENT|ECONNREFUSED/);
  });
});
