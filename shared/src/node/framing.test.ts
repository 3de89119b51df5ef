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

describe('FrameReader: good frames before an oversized header', () => {
  const SMALL = 100;
  const a = encodeFrame({ a: 1 }, SMALL);
  const b = encodeFrame('bee', SMALL);
  const tooBig = header(SMALL + 1);

  function caught(run: () => unknown): FrameError {
    try {
      run();
    } catch (err) {
      if (err instanceof FrameError) return err;
      throw err;
    }
    throw new Error('expected a FrameError');
  }

  it('push: the frames of the same chunk come with the error, in order', () => {
    const reader = new FrameReader(SMALL);
    const error = caught(() => reader.push(Buffer.concat([a, b, tooBig, Buffer.from('junk')])));
    expect(error.message).toMatch(/101 bytes exceeds the 100-byte cap/);
    expect(error.frames.map(decodePayload)).toEqual([{ a: 1 }, 'bee']);
    expect(reader.pending).toBe(0);
  });

  it('push: a header split across chunks fails on the chunk that completes it, frames already returned', () => {
    const reader = new FrameReader(SMALL);
    expect(reader.push(Buffer.concat([a, tooBig.subarray(0, 2)])).map(decodePayload)).toEqual([{ a: 1 }]);
    expect(reader.pending).toBe(2);
    const error = caught(() => reader.push(tooBig.subarray(2)));
    expect(error.frames).toEqual([]);
  });

  it('push: a frame completed by the chunk that carries the bad header is not lost', () => {
    const reader = new FrameReader(SMALL);
    const cut = 5; // inside b's body
    expect(reader.push(Buffer.concat([a, b.subarray(0, cut)])).map(decodePayload)).toEqual([{ a: 1 }]);
    const error = caught(() => reader.push(Buffer.concat([b.subarray(cut), tooBig])));
    expect(error.frames.map(decodePayload)).toEqual(['bee']);
  });

  it('push: an oversized header first carries no frames', () => {
    const error = caught(() => new FrameReader(SMALL).push(Buffer.concat([tooBig, a])));
    expect(error.frames).toEqual([]);
  });

  it('next: hands out each good frame, then throws at the bad header and drops the rest', () => {
    const reader = new FrameReader(SMALL);
    reader.append(Buffer.concat([a, b, tooBig, a]));
    expect(decodePayload(reader.next() ?? Buffer.alloc(0))).toEqual({ a: 1 });
    expect(decodePayload(reader.next() ?? Buffer.alloc(0))).toEqual('bee');
    expect(() => reader.next()).toThrow(FrameError);
    expect(reader.pending).toBe(0);
    expect(reader.next()).toBeNull();
  });

  it('next: a cap changed between frames applies to the next header only', () => {
    const big = encodeFrame('x'.repeat(50), SMALL); // 52-byte payload
    const reader = new FrameReader(10);
    reader.append(Buffer.concat([encodeFrame(1, 10), big]));
    expect(decodePayload(reader.next() ?? Buffer.alloc(0))).toBe(1);
    reader.maxFrameBytes = SMALL;
    expect(reader.next()?.length).toBe(52);
    expect(() => {
      reader.maxFrameBytes = -1;
    }).toThrow(RangeError);
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
