import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChunkAssembler, splitIntoChunks } from '#shared/chunking.js';
import { Chunk, type Envelope } from '#shared/envelopes.js';
import { decodePayload, encodeFrame, FrameReader } from '#shared/node/framing.js';
import { silent } from '../test-support/fakes.js';
import type { ChannelCloseReason } from './frame-channel.js';
import { NativeLink } from './native-link.js';

const CAP = 64 * 1024 * 1024;

/** A writable that accepts slowly (each write completes on a later tick), to exercise back-pressure. */
class SlowSink extends Writable {
  readonly received: Buffer[] = [];
  constructor() {
    super({ highWaterMark: 16 });
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.received.push(chunk);
    setImmediate(() => callback());
  }
}

function makeLink(options: { output?: Writable; maxOutboundBytes?: number; chunkChars?: number } = {}) {
  const input = new PassThrough();
  const output = options.output ?? new PassThrough();
  const envelopes: Envelope[] = [];
  const invalid: string[] = [];
  const closes: Array<{ reason: ChannelCloseReason; error?: Error }> = [];
  const link = new NativeLink({
    input,
    output,
    logger: silent,
    maxOutboundBytes: options.maxOutboundBytes,
    chunkChars: options.chunkChars,
    streamPrefix: 'test',
    handlers: {
      onEnvelope: (envelope) => envelopes.push(envelope),
      onInvalid: (_raw, error) => invalid.push(error),
      onClose: (reason, error) => closes.push({ reason, error }),
    },
  });
  return { input, output, link, envelopes, invalid, closes };
}

function framesOf(buffers: Buffer[]): unknown[] {
  const reader = new FrameReader(CAP);
  return buffers.flatMap((b) => reader.push(b)).map(decodePayload);
}

function collect(stream: PassThrough): Buffer[] {
  const out: Buffer[] = [];
  stream.on('data', (b: Buffer) => out.push(b));
  return out;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('NativeLink', () => {
  it('knows a repeated answer again under its new id, and never one the schema refused', async () => {
    const { input, envelopes, invalid } = makeLink();
    const answer = (id: number) => ({ type: 'response', id, ok: true, result: { tab: { id: 4 }, v: 'é' } });
    const refused = (id: number) => ({ type: 'response', id, ok: 'yes' });
    for (const id of [1, 2, 3]) input.write(encodeFrame(answer(id), CAP));
    for (const id of [1, 2]) input.write(encodeFrame(refused(id), CAP));
    await tick();
    expect(envelopes).toEqual([answer(1), answer(2), answer(3)]);
    expect(invalid).toHaveLength(2);
  });

  it('parses envelopes from split and merged frames', async () => {
    const { input, envelopes } = makeLink();
    const bytes = Buffer.concat([
      encodeFrame({ type: 'ping' }, CAP),
      encodeFrame({ type: 'event', event: 'e', data: 1 }, CAP),
    ]);
    input.write(bytes.subarray(0, 3));
    input.write(bytes.subarray(3, 20));
    input.write(bytes.subarray(20));
    await tick();
    expect(envelopes).toEqual([{ type: 'ping' }, { type: 'event', event: 'e', data: 1 }]);
  });

  it('sends small messages as one frame and large ones as chunks under the cap, in order', async () => {
    const { output, link } = makeLink({ maxOutboundBytes: 200, chunkChars: 50 });
    const received = collect(output as PassThrough);
    const big: Envelope = {
      type: 'request',
      id: 1,
      command: 'inject_script',
      params: { code: '€😀'.repeat(200) },
    };
    link.send({ type: 'ping' });
    link.send(big);
    link.send({ type: 'ping' });
    await link.flush();
    const frames = framesOf(received);
    expect(frames[0]).toEqual({ type: 'ping' });
    expect(frames.at(-1)).toEqual({ type: 'ping' });
    const chunks = frames.slice(1, -1).map((f) => Chunk.parse(f));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(Buffer.byteLength(JSON.stringify(chunk))).toBeLessThanOrEqual(200);
    const assembler = new ChunkAssembler();
    let whole: string | null = null;
    for (const chunk of chunks) whole = assembler.push(chunk);
    expect(JSON.parse(whole ?? 'null')).toEqual(big);
  });

  it('uses a new stream id for each chunked message', async () => {
    const { output, link } = makeLink({ maxOutboundBytes: 150, chunkChars: 30 });
    const received = collect(output as PassThrough);
    link.send({ type: 'event', event: 'a', data: 'x'.repeat(200) });
    link.send({ type: 'event', event: 'b', data: 'y'.repeat(200) });
    await link.flush();
    const streams = new Set(framesOf(received).map((f) => Chunk.parse(f).stream));
    expect(streams.size).toBe(2);
  });

  it('reassembles chunks coming from the extension', async () => {
    const { input, envelopes } = makeLink();
    const message = { type: 'response', id: 3, ok: true, result: 'r'.repeat(100) };
    for (const chunk of splitIntoChunks(JSON.stringify(message), 'ext-1', 16))
      input.write(encodeFrame(chunk, CAP));
    await tick();
    expect(envelopes).toEqual([message]);
  });

  it('reports frames that are JSON but not envelopes, and keeps reading', async () => {
    const { input, envelopes, invalid, closes } = makeLink();
    input.write(encodeFrame({ type: 'bogus' }, CAP));
    input.write(encodeFrame({ type: 'ping' }, CAP));
    await tick();
    expect(invalid).toHaveLength(1);
    expect(envelopes).toEqual([{ type: 'ping' }]);
    expect(closes).toEqual([]);
  });

  it('stops reading at an oversized length (desync) and ignores what follows', async () => {
    const { input, envelopes, closes } = makeLink();
    const header = Buffer.alloc(4);
    header.writeUInt32LE(CAP + 1, 0);
    input.write(Buffer.concat([header, encodeFrame({ type: 'ping' }, CAP)]));
    input.write(encodeFrame({ type: 'ping' }, CAP));
    await tick();
    expect(closes.map((c) => c.reason)).toEqual(['desync']);
    expect(envelopes).toEqual([]);
  });

  it('treats invalid JSON as a desync too', async () => {
    const { input, closes } = makeLink();
    const body = Buffer.from('{nope');
    const header = Buffer.alloc(4);
    header.writeUInt32LE(body.length, 0);
    input.write(Buffer.concat([header, body]));
    await tick();
    expect(closes.map((c) => c.reason)).toEqual(['desync']);
  });

  it('reports stdin end once', async () => {
    const { input, closes } = makeLink();
    input.end();
    await tick();
    await tick();
    expect(closes.map((c) => c.reason)).toEqual(['end']);
  });

  it('turns an output error (EPIPE) into an orderly close instead of a crash', async () => {
    const output = new Writable({
      write(_chunk, _enc, callback) {
        const err = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        callback(err);
      },
    });
    const { link, closes } = makeLink({ output });
    link.send({ type: 'ping' });
    await tick();
    expect(closes.map((c) => c.reason)).toEqual(['output-error']);
    expect(link.canSend).toBe(false);
    link.send({ type: 'ping' }); // silently dropped, never throws
    await link.flush();
  });

  it('queues behind back-pressure and delivers everything in order', async () => {
    const sink = new SlowSink();
    const { link } = makeLink({ output: sink });
    const messages = Array.from({ length: 50 }, (_, i): Envelope => ({ type: 'event', event: 'n', data: i }));
    for (const message of messages) link.send(message);
    await link.flush();
    expect(framesOf(sink.received)).toEqual(messages);
  });

  it('refuses a message too large even for chunks, writing nothing', async () => {
    const { output, link } = makeLink({ maxOutboundBytes: 10_000, chunkChars: 1 });
    const received = collect(output as PassThrough);
    expect(() => link.send({ type: 'event', event: 'e', data: 'x'.repeat(20_000) })).toThrow(/too large/);
    await link.flush();
    expect(received).toEqual([]);
  });
});
