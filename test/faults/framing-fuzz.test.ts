/**
 * Framing fuzz against the real host process (Hostile input): random bytes, lengths over
 * the cap, truncated frames, invalid UTF-8, valid frames with invalid envelopes and interleavings of
 * all of those with good traffic, on both the native link (host stdin) and the bridge socket.
 *
 * Each run's expected behaviour comes from a model built on the pure codec (fault-frames.ts): which
 * requests must be answered exactly once, and whether the host must stop reading. The real process
 * must match it, never write a non-frame to stdout, and never die without a logged reason.
 */
import fs from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BRIDGE_HELLO_MAX_FRAME_BYTES,
  BRIDGE_MAX_FRAME_BYTES,
  EXTENSION_TO_HOST_MAX_BYTES,
} from '#shared/constants.js';
import type { Envelope } from '#shared/envelopes.js';
import type { ErrorCode } from '#shared/errors.js';
import type { BridgeTestClient, FakeExtension } from '../helpers/fake-extension.js';
import { DEFAULT_EXTENSION_INFO } from '../helpers/fake-extension.js';
import {
  buildStream,
  linkStream,
  type Prediction,
  predict,
  type StopKind,
  splitAt,
} from '../helpers/fault-frames.js';
import { HostPool, tick, within } from '../helpers/fault-host.js';

const SEED = 0x7e57;
const NATIVE_RUNS = Number(process.env.XIPE_FUZZ_NATIVE_RUNS ?? 10);
const BRIDGE_RUNS = Number(process.env.XIPE_FUZZ_BRIDGE_RUNS ?? 40);

const pool = new HostPool();
afterEach(async () => {
  expect(await pool.disposeAll()).toEqual([]);
});

const TABS = { browser: DEFAULT_EXTENSION_INFO.browser, tabs: [] };
const handlers = {
  list_tabs: () => TABS,
  inject_script: () => ({
    returnValue: 2,
    tab: { id: 1, url: 'https://a.test/', title: 'a' },
    method: 'userScripts',
  }),
};

/** Response ids (as strings) and how often each came. */
function responseCounts(messages: readonly Envelope[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of messages) {
    if (m.type !== 'response') continue;
    const id = String(m.id);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Every id in `must` answered exactly once; nothing else answered but ids from `may`, at most once. */
function expectAnswers(
  counts: Map<string, number>,
  must: ReadonlySet<string>,
  may: ReadonlySet<string>,
  context: string,
): void {
  for (const id of must) expect(counts.get(id), `${context}: answers to ${id}`).toBe(1);
  for (const [id, n] of counts) {
    expect(must.has(id) || may.has(id), `${context}: unexpected answer to ${id}`).toBe(true);
    expect(n, `${context}: answers to ${id}`).toBeLessThanOrEqual(1);
  }
}

const LINK_ERROR_OF: Record<StopKind, ErrorCode> = {
  'too-large': 'PAYLOAD_TOO_LARGE',
  undecodable: 'PROTOCOL_ERROR',
  'fatal-hello': 'PROTOCOL_ERROR',
};

/**
 * The code an unauthenticated client gets: its first frame is taken as the hello, and until the
 * hello succeeds frames are capped at BRIDGE_HELLO_MAX_FRAME_BYTES (`model` must be predicted with
 * that cap).
 */
function anonymousRejection(model: Prediction): ErrorCode {
  if (model.firstFrame === 'undecodable') return 'PROTOCOL_ERROR';
  // A first header over the cap is refused at once, before the body is buffered.
  if (model.firstFrame === 'none' && model.stops.has('too-large')) return 'PAYLOAD_TOO_LARGE';
  // A client hello of another protocol, or without a valid nonce, is a protocol mismatch (it
  // proves nothing either way: the handshake has not started).
  const first = model.values[0] as { type?: unknown; role?: unknown } | null | undefined;
  if (model.firstFrame === 'value' && first?.type === 'hello' && first.role === 'mcp')
    return 'PROTOCOL_ERROR';
  // Any other decodable first frame is not a hello; no frame at all runs into the hello timeout.
  return 'UNAUTHORIZED';
}

async function writeTorn(write: (b: Buffer) => void, bytes: Buffer, cuts: readonly number[]): Promise<void> {
  for (const part of splitAt(bytes, cuts)) {
    write(part);
    await tick();
  }
}

describe('native link fuzz (host stdin)', () => {
  it('answers every request before a bad frame exactly once, then exits 0 on EOF or 1 with a logged reason', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        linkStream('native'),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        async (sayHello, pieces, cuts) => {
          run += 1;
          const ext = await pool.start({ hello: sayHello });
          const { endpoint } = await ext.descriptor();
          const stream = buildStream(pieces, `n${run}`);
          const model = predict(stream.bytes, EXTENSION_TO_HOST_MAX_BYTES, { nativeLink: true });
          await writeTorn((b) => ext.sendRaw(b), stream.bytes, cuts);
          ext.child.stdin?.end();
          const exit = await ext.waitForExit(15_000);
          const context = `run ${run} (${pieces.map((p) => p.kind).join(',')})`;

          expect(ext.stdoutProblems, context).toEqual([]);
          expectAnswers(responseCounts(ext.inbox.messages), model.mustAnswer, model.mayAnswer, context);
          const entries = ext.logEntries();
          expect(
            entries.filter((e) => e.msg === 'host crashed'),
            context,
          ).toEqual([]);
          if (model.stops.size === 0) {
            expect(exit, context).toEqual({ code: 0, signal: null });
          } else {
            expect(exit, context).toEqual({ code: 1, signal: null });
            const errors = entries.filter((e) => e.level === 'error').map((e) => String(e.msg));
            const handshake = errors.some((m) => m.includes('native link handshake failed'));
            const unreadable = errors.some((m) => m.includes('unreadable frame on the native link'));
            expect(handshake || unreadable, `${context}: logged why it stopped (${errors.join('; ')})`).toBe(
              true,
            );
            if (handshake) {
              expect(model.stops.has('fatal-hello'), context).toBe(true);
              // The extension is told why before the host goes.
              expect(
                ext.inbox.messages.some((m) => m.type === 'error' && m.error.code === 'PROTOCOL_ERROR'),
                context,
              ).toBe(true);
            }
            if (unreadable)
              expect(model.stops.has('too-large') || model.stops.has('undecodable'), context).toBe(true);
          }
          // Whatever the reason, the endpoint is gone with the process.
          expect(fs.existsSync(endpoint), context).toBe(false);
          expect(fs.existsSync(ext.descriptorPath()), context).toBe(false);
          expect(await pool.disposeAll(), context).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: NATIVE_RUNS, endOnFailure: true },
    );
  });

  it('survives a valid frame written one byte at a time, then a frame header split from its body', async () => {
    const ext = await pool.start();
    const frame = buildStream(
      [{ kind: 'request', command: 'host_status', params: {}, timeout: 'none' }],
      'bytewise',
    ).bytes;
    for (const byte of frame) {
      ext.sendRaw(Buffer.from([byte]));
      await tick();
    }
    expect(await ext.inbox.waitFor((m) => m.type === 'response' && m.id === 'bytewise-0')).toMatchObject({
      ok: true,
    });
    const second = buildStream(
      [{ kind: 'request', command: 'host_status', params: {}, timeout: 'none' }],
      'split',
    ).bytes;
    ext.sendRaw(second.subarray(0, 4));
    await tick();
    ext.sendRaw(second.subarray(4));
    expect(await ext.inbox.waitFor((m) => m.type === 'response' && m.id === 'split-0')).toMatchObject({
      ok: true,
    });
    expect((await ext.close()).code).toBe(0);
  });
});

describe('bridge socket fuzz', () => {
  let shared: { ext: FakeExtension; good: BridgeTestClient } | null = null;

  async function sharedHost(): Promise<{ ext: FakeExtension; good: BridgeTestClient }> {
    if (shared !== null && !shared.ext.hasExited) return shared;
    // A short hello timeout so unauthenticated fuzz connections that never complete a frame end fast.
    const ext = await pool.start({ env: { XIPE_UIUX_HELLO_TIMEOUT_MS: '400' }, handlers });
    const good = await pool.client(ext);
    shared = { ext, good };
    return shared;
  }

  it('answers or rejects each hostile client as the model says, while a good client keeps working', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            authenticated: fc.boolean(),
            pieces: linkStream('bridge', 10),
            cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        async (attackers) => {
          run += 1;
          const { ext, good } = await sharedHost();
          const context = `run ${run}`;
          const clients = await Promise.all(
            attackers.map((a) => pool.rawClient(ext, { hello: a.authenticated })),
          );
          for (const [i, client] of clients.entries()) {
            expect(client.authenticated, `${context} attacker ${i} hello`).toBe(attackers[i]?.authenticated);
          }
          const streams = attackers.map((a, i) => buildStream(a.pieces, `b${run}.${i}`));
          // Interleave: each attacker's torn writes and a good request between them.
          const goodCalls = attackers.map((_, i) =>
            good.request('host_status', {}, { id: `good-${run}-${i}` }),
          );
          await Promise.all(
            attackers.map((a, i) =>
              writeTorn((b) => clients[i]?.socket.write(b), streams[i]?.bytes ?? Buffer.alloc(0), a.cuts),
            ),
          );
          for (const [i, attacker] of attackers.entries()) {
            const client = clients[i];
            const stream = streams[i];
            if (client === undefined || stream === undefined) continue;
            const who = `${context} attacker ${i} (${attacker.authenticated ? 'auth' : 'anon'}: ${attacker.pieces
              .map((p) => p.kind)
              .join(',')})`;
            const model = predict(stream.bytes, BRIDGE_MAX_FRAME_BYTES, { nativeLink: false });
            if (!attacker.authenticated) {
              // The first frame is taken as the hello: garbage, a bad hello, or nothing in time.
              const error = await client.inbox.waitFor((m) => m.type === 'error', {
                what: `${who} link error`,
              });
              const code = error.type === 'error' ? error.error.code : null;
              const beforeHello = predict(stream.bytes, BRIDGE_HELLO_MAX_FRAME_BYTES, { nativeLink: false });
              expect(code, who).toBe(anonymousRejection(beforeHello));
              await within(client.closed, 5_000, `${who} close`);
              expect(
                client.inbox.messages.filter((m) => m.type === 'response'),
                who,
              ).toEqual([]);
            } else if (model.stops.size === 0) {
              await Promise.all(
                [...model.mustAnswer].map((id) =>
                  client.inbox.waitFor((m) => m.type === 'response' && String(m.id) === id, {
                    what: `${who} response ${id}`,
                  }),
                ),
              );
              expectAnswers(responseCounts(client.inbox.messages), model.mustAnswer, model.mayAnswer, who);
              client.socket.end();
              await within(client.closed, 5_000, `${who} close`);
            } else {
              const error = await client.inbox.waitFor((m) => m.type === 'error', {
                what: `${who} link error`,
              });
              const code = error.type === 'error' ? error.error.code : null;
              expect(
                [...model.stops].map((k) => LINK_ERROR_OF[k]),
                `${who}: got ${code}`,
              ).toContain(code);
              await within(client.closed, 5_000, `${who} close by the host`);
              // Requests before the bad frame may or may not have been answered, but never twice.
              const answerable = new Set([...model.mustAnswer, ...model.mayAnswer]);
              expectAnswers(responseCounts(client.inbox.messages), new Set(), answerable, who);
            }
            expect(client.problems, who).toEqual([]);
          }
          for (const response of await Promise.all(goodCalls)) expect(response.ok, context).toBe(true);
          expect((await good.request('list_tabs', {}, { timeout_ms: 5_000 })).ok, context).toBe(true);
          expect(ext.hasExited, context).toBe(false);
        },
      ),
      { seed: SEED, numRuns: BRIDGE_RUNS, endOnFailure: true },
    );
    const current = shared;
    expect(current).not.toBeNull();
    if (current !== null) {
      expect(current.ext.stdoutProblems).toEqual([]);
      expect(current.good.problems).toEqual([]);
    }
  });
});
