import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePayload, encodeFrame, encodeJsonFrame, FrameError, FrameReader } from './framing.js';

const CAP = 1024 * 1024;

function header(length: number): Buffer {
  const buf = Buffer.alloc(4);
  buf.writeUInt32LE(length, 0);
  return buf;
}

/** Cuts `bytes` at the given (sorted, de-duplicated) offsets. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });

describe('FrameReader', () => {
  it('yields every frame, in order, however the byte stream is split or merged', () => {
    fc.assert(
      fc.property(
        fc.array(jsonValue, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (messages, offsets) => {
          const stream = Buffer.concat(messages.map((m) => encodeFrame(m, CAP)));
          const reader = new FrameReader(CAP);
          const decoded = cut(stream, offsets).flatMap((piece) => reader.push(piece).map(decodePayload));
          // JSON round trip normalises -0 to 0 and drops undefined, as the wire does.
          expect(decoded).toEqual(messages.map((m) => JSON.parse(JSON.stringify(m))));
          expect(reader.pending).toBe(0);
        },
      ),
      { seed: 20260101, numRuns: 300 },
    );
  });

  it('yields several frames from one chunk (a while, not an if)', () => {
    const reader = new FrameReader(CAP);
    const frames = reader.push(
      Buffer.concat([encodeFrame(1, CAP), encodeFrame('two', CAP), encodeFrame([3], CAP)]),
    );
    expect(frames.map(decodePayload)).toEqual([1, 'two', [3]]);
  });

  it('handles a byte-at-a-time stream, including a zero-length frame', () => {
    const reader = new FrameReader(CAP);
    const stream = Buffer.concat([header(0), encodeFrame({ a: 'é' }, CAP)]);
    const out: Buffer[] = [];
    for (const byte of stream) out.push(...reader.push(Buffer.from([byte])));
    expect(out).toHaveLength(2);
    expect(out[0]?.length).toBe(0);
    expect(decodePayload(out[1] ?? Buffer.alloc(0))).toEqual({ a: 'é' });
  });

  it('keeps a truncated frame pending until the rest arrives', () => {
    const reader = new FrameReader(CAP);
    const frame = encodeFrame({ hello: 'world' }, CAP);
    expect(reader.push(frame.subarray(0, 2))).toEqual([]);
    expect(reader.push(frame.subarray(2, frame.length - 1))).toEqual([]);
    expect(reader.pending).toBe(frame.length - 1);
    expect(reader.push(frame.subarray(frame.length - 1)).map(decodePayload)).toEqual([{ hello: 'world' }]);
    expect(reader.pending).toBe(0);
  });

  it('throws FrameError for a length over the cap, before buffering the body', () => {
    const reader = new FrameReader(100);
    expect(() => reader.push(header(101))).toThrow(FrameError);
    expect(reader.pending).toBe(0);
    // exactly at the cap is fine
    const ok = new FrameReader(5);
    expect(ok.push(Buffer.concat([header(5), Buffer.from('"abc"')])).map(decodePayload)).toEqual(['abc']);
  });

  it('rejects garbage lengths (random headers above the cap)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: CAP + 1, max: 0xffffffff }),
        fc.uint8Array({ maxLength: 16 }),
        (length, tail) => {
          const reader = new FrameReader(CAP);
          expect(() => reader.push(Buffer.concat([header(length), Buffer.from(tail)]))).toThrow(FrameError);
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });
});

describe('decodePayload', () => {
  it('throws FrameError on invalid UTF-8', () => {
    expect(() => decodePayload(Buffer.from([0x22, 0xc3, 0x28, 0x22]))).toThrow(FrameError);
    expect(() => decodePayload(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toThrow(FrameError); // encoded surrogate
  });

  it('throws FrameError on invalid JSON', () => {
    expect(() => decodePayload(Buffer.from('{"a":'))).toThrow(FrameError);
    expect(() => decodePayload(Buffer.alloc(0))).toThrow(FrameError);
  });

  it('decodes non-ASCII text and astral characters', () => {
    expect(decodePayload(Buffer.from(JSON.stringify({ s: 'é€𝄞😀' })))).toEqual({ s: 'é€𝄞😀' });
  });
});

describe('encodeFrame', () => {
  it('writes a 4-byte little-endian byte length (not a character count)', () => {
    const frame = encodeFrame('€', CAP);
    expect(frame.readUInt32LE(0)).toBe(5); // quote + 3 bytes + quote
    expect(frame.length).toBe(9);
  });

  it('refuses a message over the cap, counting UTF-8 bytes', () => {
    expect(() => encodeFrame('x'.repeat(98), 100)).not.toThrow(); // 100 bytes with the quotes
    expect(() => encodeFrame('x'.repeat(99), 100)).toThrow(FrameError);
    expect(() => encodeFrame('€'.repeat(33), 100)).toThrow(FrameError); // 101 bytes
    expect(() => encodeJsonFrame('"€€"', 7)).toThrow(FrameError);
  });

  it('refuses what JSON cannot carry', () => {
    expect(() => encodeFrame(undefined, CAP)).toThrow(FrameError);
  });
});
