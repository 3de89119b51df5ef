import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkAssembler, splitIntoChunks } from './chunking.js';
import { CHUNK_CHARS, HOST_TO_EXTENSION_MAX_BYTES } from './constants.js';
import { Chunk } from './envelopes.js';
import { encodeFrame } from './node/framing.js';

/** Deterministic shuffle (mulberry32) so a failure reproduces. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function reassemble(chunks: Chunk[]): string | null {
  const assembler = new ChunkAssembler();
  let whole: string | null = null;
  for (const chunk of chunks) {
    // Every chunk crosses the wire as JSON: simulate it.
    whole = assembler.push(Chunk.parse(JSON.parse(JSON.stringify(chunk))));
  }
  return whole;
}

describe('splitIntoChunks / ChunkAssembler', () => {
  it('round-trips any text, including surrogate pairs at every boundary, in any arrival order', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.integer({ min: 1, max: 50 }),
        fc.nat(),
        (text, chunkChars, seed) => {
          const json = JSON.stringify({
            type: 'request',
            id: 1,
            command: 'inject_script',
            params: { code: text },
          });
          const chunks = splitIntoChunks(json, 'stream-1', chunkChars);
          expect(chunks.every((c) => c.total === chunks.length)).toBe(true);
          expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
          expect(reassemble(shuffled(chunks, seed))).toBe(json);
          if (chunkChars >= 2) {
            // a pair is never cut, so no piece starts with a low surrogate
            for (const chunk of chunks) expect(/^[\udc00-\udfff]/.test(chunk.data)).toBe(false);
          }
        },
      ),
      { seed: 424242, numRuns: 400 },
    );
  });

  it('never cuts a surrogate pair even when a boundary falls inside one', () => {
    const json = `a${'😀'.repeat(10)}`; // pairs start at odd offsets
    const chunks = splitIntoChunks(json, 's', 4);
    for (const { data } of chunks) {
      expect(data.length).toBeGreaterThan(0);
      expect(/[\ud800-\udbff]$/.test(data)).toBe(false);
    }
    expect(chunks.map((c) => c.data).join('')).toBe(json);
  });

  it('makes progress with a one-unit chunk size', () => {
    expect(reassemble(splitIntoChunks('"😀"', 's', 1))).toBe('"😀"');
  });

  it('keeps every chunk frame under 1 MiB for worst-case characters', () => {
    // 3-byte UTF-8 characters, JSON-escaped quotes/backslashes, U+2028 and astral pairs, with a
    // pair straddling each default boundary.
    const worst = ['€', '\u2028', '"', '\\', '😀', '\u0001'];
    const message = { type: 'request', id: 'x'.repeat(128), command: 'inject_script', params: { code: '' } };
    let code = '';
    while (code.length < CHUNK_CHARS * 4) code += worst[code.length % worst.length];
    message.params.code = code;
    const json = JSON.stringify(message);
    const chunks = splitIntoChunks(json, 's'.repeat(64));
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) {
      expect(encodeFrame(chunk, HOST_TO_EXTENSION_MAX_BYTES).length - 4).toBeLessThan(
        HOST_TO_EXTENSION_MAX_BYTES,
      );
    }
    const allEuro = JSON.stringify('€'.repeat(CHUNK_CHARS * 2));
    for (const chunk of splitIntoChunks(allEuro, 's'.repeat(64))) {
      expect(() => encodeFrame(chunk, HOST_TO_EXTENSION_MAX_BYTES)).not.toThrow();
    }
    expect(reassemble(chunks)).toBe(json);
  });

  it('keeps interleaved streams apart', () => {
    const a = splitIntoChunks('"aaaaaaaaaa"', 'a', 3);
    const b = splitIntoChunks('"bbbbbbb"', 'b', 3);
    const assembler = new ChunkAssembler();
    const done: string[] = [];
    for (const chunk of shuffled([...a, ...b], 3)) {
      const whole = assembler.push(chunk);
      if (whole !== null) done.push(whole);
    }
    expect(done.sort()).toEqual(['"aaaaaaaaaa"', '"bbbbbbb"']);
  });

  it('ignores a duplicate chunk and rejects inconsistent ones', () => {
    const chunks = splitIntoChunks('"abcdef"', 's', 3);
    const assembler = new ChunkAssembler();
    expect(assembler.push(chunks[0] as Chunk)).toBeNull();
    expect(assembler.push(chunks[0] as Chunk)).toBeNull();
    expect(() => assembler.push({ ...(chunks[1] as Chunk), total: 99 })).toThrow(/inconsistent/);
    expect(() => assembler.push({ type: 'chunk', stream: 't', seq: 5, total: 2, data: '' })).toThrow(
      /inconsistent/,
    );
  });

  it('refuses a stream that grows beyond its cap, counting the characters it holds', () => {
    const assembler = new ChunkAssembler(3);
    expect(assembler.push({ type: 'chunk', stream: 's', seq: 0, total: 3, data: 'xy' })).toBeNull();
    expect(() => assembler.push({ type: 'chunk', stream: 's', seq: 1, total: 3, data: 'zw' })).toThrow(
      /exceeds/,
    );
    // Pieces larger than CHUNK_CHARS (the extension sends 8 Mi-character ones) count as what they are.
    const big = new ChunkAssembler(CHUNK_CHARS * 4);
    const piece = 'a'.repeat(CHUNK_CHARS * 2);
    expect(big.push({ type: 'chunk', stream: 't', seq: 0, total: 3, data: piece })).toBeNull();
    expect(() => big.push({ type: 'chunk', stream: 't', seq: 1, total: 3, data: piece })).not.toThrow();
    expect(() => big.push({ type: 'chunk', stream: 't', seq: 2, total: 3, data: piece })).toThrow(/exceeds/);
  });

  it('forgets partial streams on clear()', () => {
    const [first, second] = splitIntoChunks('"abcdef"', 's', 4);
    const assembler = new ChunkAssembler();
    assembler.push(first as Chunk);
    assembler.clear();
    expect(assembler.push(second as Chunk)).toBeNull();
  });
});
